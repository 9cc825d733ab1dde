package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/voucher"
)

type publicationRow struct {
	bun.BaseModel `bun:"table:promo_publications,alias:pub"`

	ProjectID      string          `bun:"project_id,pk"`
	ID             string          `bun:"id,pk"`
	CreatedAt      time.Time       `bun:"created_at"`
	CustomerID     string          `bun:"customer_id"`
	TrackingID     *string         `bun:"tracking_id"`
	CampaignID     *string         `bun:"campaign_id"`
	VoucherCode    string          `bun:"voucher_code"`
	VoucherType    string          `bun:"voucher_type"`
	IsReferralCode string          `bun:"is_referral_code"`
	Channel        string          `bun:"channel"`
	SourceID       *string         `bun:"source_id"`
	Result         string          `bun:"result"`
	VoucherIDs     []string        `bun:"voucher_ids,array"`
	VoucherCodes   []string        `bun:"voucher_codes,array"`
	Metadata       json.RawMessage `bun:"metadata"`

	Total int `bun:"total,scanonly"`
}

func (r *publicationRow) listTotal() int { return r.Total }

var publicationColumns = columns{
	"id":               {"id", promotype.FieldString},
	"customer_id":      {"customer_id", promotype.FieldString},
	"tracking_id":      {"tracking_id", promotype.FieldString},
	"campaign_id":      {"campaign_id", promotype.FieldString},
	"voucher_code":     {"voucher_code", promotype.FieldString},
	"voucher_type":     {"voucher_type", promotype.FieldString},
	"is_referral_code": {"is_referral_code", promotype.FieldString},
	"channel":          {"channel", promotype.FieldString},
	"source_id":        {"source_id", promotype.FieldString},
	"result":           {"result", promotype.FieldString},
	"created_at":       {"created_at", promotype.FieldTime},
}

func (r *publicationRow) domain() (*publication.Publication, error) {
	p := &publication.Publication{
		ID: r.ID, ProjectID: r.ProjectID, CreatedAt: domainTime(r.CreatedAt), CustomerID: r.CustomerID,
		TrackingID: r.TrackingID, CampaignID: r.CampaignID, VoucherType: campaign.VoucherType(r.VoucherType),
		IsReferralCode: r.IsReferralCode == "true", Channel: r.Channel, SourceID: r.SourceID, Result: r.Result,
		VouchersID: r.VoucherIDs, VoucherCodes: r.VoucherCodes,
	}
	var err error
	if p.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	if p.Metadata == nil {
		p.Metadata = promotype.Metadata{}
	}
	return p, nil
}

func publicationNotFound(id string) func() error {
	return func() error { return promotype.NotFound("publication", id) }
}

// publicationKeys is the source id uniqueness of promo_publications.
var publicationKeys = keyed{kind: "publication", table: "promo_publications", alias: "pub", column: "source_id"}

// InsertPublication implements publication.Store.
func (s *Store) InsertPublication(ctx context.Context, p *publication.Publication) error {
	if err := checkText("publication", str("id", p.ID), str("project_id", p.ProjectID), str("customer_id", p.CustomerID),
		text{"tracking_id", p.TrackingID}, text{"campaign_id", p.CampaignID}, str("channel", p.Channel),
		text{"source_id", p.SourceID}, str("voucher_code", p.VoucherCode())); err != nil {
		return err
	}
	meta, err := encodeMetadata(p.Metadata)
	if err != nil {
		return err
	}
	row := &publicationRow{
		ProjectID: p.ProjectID, ID: p.ID, CreatedAt: sqlTime(p.CreatedAt), CustomerID: p.CustomerID,
		TrackingID: p.TrackingID, CampaignID: p.CampaignID, VoucherCode: p.VoucherCode(),
		VoucherType: string(p.VoucherType), IsReferralCode: p.Field("is_referral_code").Str, Channel: p.Channel,
		SourceID: p.SourceID, Result: p.Result, VoucherIDs: append([]string{}, p.VouchersID...),
		VoucherCodes: append([]string{}, p.VoucherCodes...), Metadata: meta,
	}
	return publicationKeys.insert(ctx, s.db, row, p.ProjectID, p.ID, p.SourceID)
}

// FindPublicationBySourceID implements publication.Store.
func (s *Store) FindPublicationBySourceID(ctx context.Context, projectID, sourceID string) (*publication.Publication, error) {
	if !storableKeys(projectID, sourceID) {
		return nil, publicationNotFound(sourceID)()
	}
	var r publicationRow
	err := s.db.NewSelect().Model(&r).Where("pub.project_id = ? AND pub.source_id = ?", projectID, sourceID).Scan(ctx)
	if err != nil {
		return nil, getErr("find publication", err, publicationNotFound(sourceID))
	}
	return r.domain()
}

// FindCampaignPublication implements publication.Store.
func (s *Store) FindCampaignPublication(ctx context.Context, projectID, customerID, campaignID string) (*publication.Publication, error) {
	if !storableKeys(projectID, customerID, campaignID) {
		return nil, publicationNotFound(campaignID)()
	}
	var r publicationRow
	err := s.db.NewSelect().Model(&r).
		Where("pub.project_id = ? AND pub.customer_id = ? AND pub.campaign_id = ?", projectID, customerID, campaignID).
		OrderExpr("pub.created_at DESC, pub.id DESC").Limit(1).Scan(ctx)
	if err != nil {
		return nil, getErr("find publication", err, publicationNotFound(campaignID))
	}
	return r.domain()
}

// LockCustomerPublications implements publication.Store: it locks the
// customer's row (FOR UPDATE), which the publication's customer upsert
// has just read or written.
func (s *Store) LockCustomerPublications(ctx context.Context, projectID, customerID string) error {
	if !storableKeys(projectID, customerID) {
		return nil
	}
	var n []int
	err := s.db.NewRaw(`SELECT 1 FROM promo_customers WHERE project_id = ? AND id = ? FOR UPDATE`, projectID, customerID).Scan(ctx, &n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fail("lock customer", err, nil)
	}
	return nil
}

// ListPublications implements publication.Store.
func (s *Store) ListPublications(ctx context.Context, projectID string, q promotype.Query) ([]*publication.Publication, int, error) {
	return listProject[publicationRow, *publicationRow, *publication.Publication](ctx, s.db, publicationColumns, "pub", "", projectID, q)
}

type holderRow struct {
	bun.BaseModel `bun:"table:promo_holders,alias:rh"`

	ProjectID        string    `bun:"project_id,pk"`
	ID               string    `bun:"id,pk"`
	CreatedAt        time.Time `bun:"created_at"`
	RedeemableID     string    `bun:"redeemable_id"`
	RedeemableObject string    `bun:"redeemable_object"`
	CustomerID       string    `bun:"customer_id"`
	HolderRole       string    `bun:"holder_role"`
	CampaignID       *string   `bun:"campaign_id"`
	CampaignType     *string   `bun:"campaign_type"`
	VoucherType      string    `bun:"voucher_type"`

	Total int `bun:"total,scanonly"`
}

func (r *holderRow) listTotal() int { return r.Total }

var holderColumns = columns{
	"id":                {"id", promotype.FieldString},
	"created_at":        {"created_at", promotype.FieldTime},
	"redeemable_id":     {"redeemable_id", promotype.FieldString},
	"redeemable_object": {"redeemable_object", promotype.FieldString},
	"holder_role":       {"holder_role", promotype.FieldString},
	"campaign_id":       {"campaign_id", promotype.FieldString},
	"campaign_type":     {"campaign_type", promotype.FieldString},
	"voucher_type":      {"voucher_type", promotype.FieldString},
	"customer_id":       {"customer_id", promotype.FieldString},
}

func (r *holderRow) domain() (*publication.Holder, error) {
	h := &publication.Holder{
		ID: r.ID, ProjectID: r.ProjectID, CreatedAt: domainTime(r.CreatedAt), RedeemableID: r.RedeemableID,
		RedeemableObject: r.RedeemableObject, CustomerID: r.CustomerID, HolderRole: r.HolderRole,
		CampaignID: r.CampaignID, VoucherType: campaign.VoucherType(r.VoucherType),
	}
	if r.CampaignType != nil {
		h.CampaignType = promotype.Ptr(campaign.CampaignType(*r.CampaignType))
	}
	return h, nil
}

// InsertHolder implements publication.Store.
func (s *Store) InsertHolder(ctx context.Context, h *publication.Holder) error {
	if err := checkText("holder", str("id", h.ID), str("project_id", h.ProjectID), str("customer_id", h.CustomerID),
		str("redeemable_id", h.RedeemableID), text{"campaign_id", h.CampaignID}); err != nil {
		return err
	}
	row := &holderRow{
		ProjectID: h.ProjectID, ID: h.ID, CreatedAt: sqlTime(h.CreatedAt), RedeemableID: h.RedeemableID,
		RedeemableObject: h.RedeemableObject, CustomerID: h.CustomerID, HolderRole: h.HolderRole,
		CampaignID: h.CampaignID, VoucherType: string(h.VoucherType),
	}
	if h.CampaignType != nil {
		row.CampaignType = promotype.Ptr(string(*h.CampaignType))
	}
	if _, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return fail("insert holder", err, nil)
	}
	return nil
}

// ListHolders implements publication.Store.
func (s *Store) ListHolders(ctx context.Context, projectID, customerID, afterID string, q promotype.Query) ([]*publication.Holder, int, error) {
	if !storableKeys(projectID, customerID) || (afterID != "" && !storable(afterID)) {
		return []*publication.Holder{}, 0, nil
	}
	q.Offset = 0
	var total int
	if afterID != "" { // the page after the cursor; the total counts the rows before it too
		all := q
		all.Limit = 0
		var err error
		if _, total, err = listDomain[holderRow, *holderRow, *publication.Holder](ctx, s.db, holderColumns, all, func(sel *bun.SelectQuery) *bun.SelectQuery {
			return sel.Where("rh.project_id = ? AND rh.customer_id = ?", projectID, customerID)
		}, nil); err != nil {
			return nil, 0, err
		}
	}
	cmp := "rh.id > ?"
	if q.Desc {
		cmp = "rh.id < ?"
	}
	out, n, err := listDomain[holderRow, *holderRow, *publication.Holder](ctx, s.db, holderColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		sel = sel.Where("rh.project_id = ? AND rh.customer_id = ?", projectID, customerID)
		if afterID != "" {
			sel = sel.Where(cmp, afterID)
		}
		return sel
	}, nil)
	if afterID == "" {
		total = n
	}
	return out, total, err
}

// PublishVoucher implements publication.Store: one conditional update (no
// holder, or this customer) decides between concurrent publications.
func (s *Store) PublishVoucher(ctx context.Context, projectID, id, customerID string, at promotype.Time) (*voucher.Voucher, bool, error) {
	if !storableKeys(projectID, id) {
		return nil, false, voucherNotFound(id)()
	}
	if !storable(customerID) {
		return nil, false, promotype.InvalidPayload("Property .customer.id cannot be stored")
	}
	var rows []voucherRow
	err := s.db.NewRaw(`UPDATE promo_vouchers AS v SET holder_id = ?, publish_count = v.publish_count + 1, updated_at = ?
		WHERE v.project_id = ? AND v.id = ? AND v.binned_at IS NULL AND (v.holder_id IS NULL OR v.holder_id = ?)
		RETURNING v.*`, customerID, sqlTime(at), projectID, id, customerID).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, false, fail("publish voucher", err, nil)
	}
	if len(rows) == 0 {
		v, err := s.GetVoucher(ctx, projectID, id)
		if err != nil {
			return nil, false, err
		}
		return v, true, nil
	}
	v, err := rows[0].domain()
	return v, false, err
}

// ClaimCampaignVouchers implements publication.Store: the free vouchers
// are picked off promo_vouchers_free_idx with FOR UPDATE SKIP LOCKED and
// given in the same statement, so concurrent claims never pick the same
// voucher and never wait for one another.
func (s *Store) ClaimCampaignVouchers(ctx context.Context, projectID, campaignID, customerID string, n int, at promotype.Time) ([]*voucher.Voucher, error) {
	if !storableKeys(projectID, campaignID) || n < 1 {
		return nil, nil
	}
	if !storable(customerID) {
		return nil, promotype.InvalidPayload("Property .customer.id cannot be stored")
	}
	var rows []voucherRow
	err := s.db.NewRaw(`WITH free AS (
			SELECT id FROM promo_vouchers
			WHERE project_id = ? AND campaign_id = ? AND binned_at IS NULL AND holder_id IS NULL AND active = 'true'
			ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
		)
		UPDATE promo_vouchers AS v SET holder_id = ?, publish_count = v.publish_count + 1, updated_at = ?
		FROM free WHERE v.project_id = ? AND v.id = free.id
		RETURNING v.*`, projectID, campaignID, n, customerID, sqlTime(at), projectID).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("claim vouchers", err, nil)
	}
	out := make([]*voucher.Voucher, 0, len(rows))
	for i := range rows {
		v, err := rows[i].domain()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b *voucher.Voucher) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
