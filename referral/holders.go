package referral

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/voucher"
)

// MaxHoldersAdded bounds the holders one request adds.
const MaxHoldersAdded = 100

// AddHoldersParams is the body of POST /v1/referrals/.../holders: the
// customers (upserted by id or source_id) to assign to the referral code
// as referees, and the metadata of their holder rows.
type AddHoldersParams struct {
	Holders  []customer.Params  `json:"holders"`
	Metadata promotype.Metadata `json:"metadata"`
}

// AddedHolders is the answer of an add: the holders it created.
type AddedHolders struct {
	Holders []*Holder `json:"holders"`
}

// HolderListParams are the query of GET /v1/referrals/.../holders: limit
// (1 to 100, default 10), order (id or -id), the cursor and the filters
// (on the fields of HolderFields).
type HolderListParams struct {
	Limit           int
	Order           string
	StartingAfterID string
	Filter          promotype.Filter
}

// HolderFields are the fields a holders list filters on.
var HolderFields = map[string]promotype.FieldKind{
	"id":          promotype.FieldString,
	"created_at":  promotype.FieldTime,
	"holder_role": promotype.FieldString,
	"customer_id": promotype.FieldString,
}

// Field returns the value of a filterable field of h.
func (h *Holder) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: h.ID}
	case "created_at":
		return promotype.Value{Time: h.CreatedAt}
	case "holder_role":
		return promotype.Value{Str: h.HolderRole}
	case "customer_id":
		return promotype.Value{Str: h.CustomerID}
	}
	return promotype.Value{Null: true}
}

// holdersPage is how many referees a filtered list reads at a time.
const holdersPage = 100

// HolderList is a page of a referral code's holders.
type HolderList struct {
	Object            string    `json:"object"`
	DataRef           string    `json:"data_ref"`
	Data              []*Holder `json:"data"`
	Total             int       `json:"total"`
	HasMore           bool      `json:"has_more"`
	MoreStartingAfter *string   `json:"more_starting_after,omitempty"`
}

// code resolves the referral code memberID (code or voucher id), in the
// referral campaign campaignRef (id or name) when it is not "": a
// campaign that is not a referral program, and a voucher that is not a
// referral code or not of that campaign, are not found.
func (s *Service) code(ctx context.Context, st ServiceStore, projectID, campaignRef, memberID string) (*voucher.Voucher, error) {
	var camp *campaign.Campaign
	if campaignRef != "" {
		c, err := s.deps.Campaigns.Resolve(ctx, st, projectID, campaignRef)
		if err != nil {
			return nil, err
		}
		if c.CampaignType != campaign.ReferralProgram {
			return nil, promotype.NotFound("campaign", campaignRef)
		}
		camp = c
	}
	v, err := s.deps.Vouchers.Resolve(ctx, st, projectID, memberID)
	if err != nil {
		return nil, err
	}
	if !v.IsReferralCode || (camp != nil && (v.CampaignID == nil || *v.CampaignID != camp.ID)) {
		return nil, promotype.NotFound("voucher", memberID)
	}
	return v, nil
}

// referrerRow is the holder row of referral code v's referrer: its
// wallet row (written by the publication that gave it the code) shown
// with the role REFERRER; nil when v has no referrer.
func (s *Service) referrerRow(ctx context.Context, st ServiceStore, v *voucher.Voucher) (*Holder, error) {
	referrer := referrerOf(v)
	if referrer == "" {
		return nil, nil
	}
	h := &Holder{ID: publication.PrefixHolder + strings.TrimPrefix(v.ID, promotype.PrefixVoucher), CreatedAt: v.CreatedAt,
		RedeemableID: v.ID, RedeemableObject: "voucher", CampaignID: promotype.ClonePtr(v.CampaignID),
		CampaignType: promotype.Ptr(string(campaign.ReferralProgram)), VoucherType: string(v.Type), CustomerID: referrer,
		HolderRole: RoleReferrer, Metadata: promotype.Metadata{}, Object: objectHolder, ProjectID: v.ProjectID}
	rows, _, err := st.ListHolders(ctx, v.ProjectID, referrer, "", promotype.Query{Limit: 1, OrderBy: "id",
		Must: []promotype.Condition{{Field: "redeemable_id", Op: promotype.OpIs, Values: []string{v.ID}}}})
	if err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		h.ID, h.CreatedAt = rows[0].ID, rows[0].CreatedAt
	}
	return h, nil
}

const objectHolder = "redeemable_holder"

// AddHolders assigns the customers of in to the referral code memberID
// (of campaign campaignRef when it is not "") as referees, all or none:
// the code must be published to its referrer (400 not_published), and a
// customer holding it already, its referrer among them, is a 409
// holder_assignement_duplication.
func (s *Service) AddHolders(ctx context.Context, projectID, campaignRef, memberID string, in AddHoldersParams) (*AddedHolders, error) {
	switch {
	case len(in.Holders) == 0:
		return nil, promotype.InvalidPayload("Property .holders must NOT have fewer than 1 items")
	case len(in.Holders) > MaxHoldersAdded:
		return nil, promotype.InvalidPayload("Property .holders must NOT have more than %d items", MaxHoldersAdded)
	}
	for i, h := range in.Holders {
		if err := h.Validate(fmt.Sprintf(".holders[%d]", i)); err != nil {
			return nil, err
		}
		if h.ID == nil && h.SourceID == nil {
			return nil, promotype.InvalidPayload("Property .holders[%d] must have required property 'id' or 'source_id'", i)
		}
	}
	if err := s.env.CheckMeta(ctx, projectID, "publication", in.Metadata); err != nil {
		return nil, err
	}
	var out *AddedHolders
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		out = &AddedHolders{Holders: []*Holder{}}
		v, err := s.code(ctx, st, projectID, campaignRef, memberID)
		if err != nil {
			return err
		}
		referrer := referrerOf(v)
		if referrer == "" {
			return promotype.BadRequest("not_published", "Voucher is not published",
				"Referral code must be first published to Referrer before assigning it to Referee")
		}
		now := s.env.Clock.Now()
		seen := map[string]bool{referrer: true}
		for _, p := range in.Holders {
			c, err := customer.Upsert(ctx, st, s.env, projectID, p)
			if err != nil {
				return err
			}
			if seen[c.ID] {
				return duplicateHolder(c.ID)
			}
			seen[c.ID] = true
			meta := in.Metadata.Clone()
			if meta == nil {
				meta = promotype.Metadata{}
			}
			out.Holders = append(out.Holders, &Holder{ID: s.env.IDs.NewID(publication.PrefixHolder), CreatedAt: now,
				RedeemableID: v.ID, RedeemableObject: "voucher", CampaignID: promotype.ClonePtr(v.CampaignID),
				CampaignType: promotype.Ptr(string(campaign.ReferralProgram)), VoucherType: string(v.Type), CustomerID: c.ID,
				HolderRole: RoleReferee, Metadata: meta, Object: objectHolder, ProjectID: projectID})
		}
		err = st.InsertReferees(ctx, out.Holders...)
		if errors.Is(err, promotype.ErrDuplicateFound) {
			return duplicateHolder("")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func duplicateHolder(customerID string) error {
	return promotype.Conflict("holder_assignement_duplication", "Customer is already assigned to given redeemable",
		"Customer is already assigned to given redeemable%s", strings.TrimSuffix(" ("+customerID+")", " ()"))
}

// Holders lists the holders of the referral code memberID (of campaign
// campaignRef when it is not ""): its referrer and its referees, in id
// order.
func (s *Service) Holders(ctx context.Context, projectID, campaignRef, memberID string, in HolderListParams) (*HolderList, error) {
	limit, desc, err := promotype.IDPage(in.Limit, in.Order)
	if err != nil {
		return nil, err
	}
	v, err := s.code(ctx, s.store, projectID, campaignRef, memberID)
	if err != nil {
		return nil, err
	}
	ref, err := s.referrerRow(ctx, s.store, v)
	if err != nil {
		return nil, err
	}
	var rows []*Holder
	var total int
	if len(in.Filter.Conditions) > 0 {
		if rows, total, err = s.filteredHolders(ctx, v, ref, in, desc, limit); err != nil {
			return nil, err
		}
	} else {
		if rows, total, err = s.store.ListReferees(ctx, projectID, v.ID, in.StartingAfterID, desc, limit+1); err != nil {
			return nil, err
		}
		if ref != nil {
			total++
			rows = withReferrer(rows, ref, in.StartingAfterID, desc)
		}
	}
	out := &HolderList{Object: "list", DataRef: "data", Data: rows, Total: total}
	if len(rows) > limit {
		out.Data, out.HasMore = rows[:limit], true
		last := rows[limit-1].ID
		out.MoreStartingAfter = &last
	}
	return out, nil
}

// byID orders holders by id, descending with desc.
func byID(desc bool) func(a, b *Holder) int {
	return func(a, b *Holder) int {
		if desc {
			return strings.Compare(b.ID, a.ID)
		}
		return strings.Compare(a.ID, b.ID)
	}
}

// withReferrer adds the referrer row ref to rows (a page in id order,
// descending with desc) when it comes after the cursor after.
func withReferrer(rows []*Holder, ref *Holder, after string, desc bool) []*Holder {
	if after != "" && ((!desc && ref.ID <= after) || (desc && ref.ID >= after)) {
		return rows
	}
	rows = append(rows, ref)
	slices.SortFunc(rows, byID(desc))
	return rows
}

// filteredHolders is the page (limit+1 rows at most) of the holders of
// code v (ref its referrer row, nil without) that in's filter matches,
// and how many match: the referees are read a page at a time and matched
// here.
func (s *Service) filteredHolders(ctx context.Context, v *voucher.Voucher, ref *Holder, in HolderListParams, desc bool, limit int) ([]*Holder, int, error) {
	f, err := in.Filter.Resolve(HolderFields, s.env.Clock.Now())
	if err != nil {
		return nil, 0, err
	}
	q := promotype.Query{Filter: f}
	var matched []*Holder
	if ref != nil && q.Match(ref.Field) {
		matched = append(matched, ref)
	}
	for after := ""; ; {
		page, _, err := s.store.ListReferees(ctx, v.ProjectID, v.ID, after, false, holdersPage)
		if err != nil {
			return nil, 0, err
		}
		for _, h := range page {
			if q.Match(h.Field) {
				matched = append(matched, h)
			}
		}
		if len(page) < holdersPage {
			break
		}
		after = page[len(page)-1].ID
	}
	total := len(matched)
	slices.SortFunc(matched, byID(desc))
	if a := in.StartingAfterID; a != "" {
		matched = slices.DeleteFunc(matched, func(h *Holder) bool { return (!desc && h.ID <= a) || (desc && h.ID >= a) })
	}
	return matched[:min(len(matched), limit+1)], total, nil
}

// RemoveHolder removes referee holderID from the referral code memberID
// (of campaign campaignRef when it is not ""); the referrer cannot be
// removed (403 forbidden).
func (s *Service) RemoveHolder(ctx context.Context, projectID, campaignRef, memberID, holderID string) error {
	return s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		v, err := s.code(ctx, st, projectID, campaignRef, memberID)
		if err != nil {
			return err
		}
		ref, err := s.referrerRow(ctx, st, v)
		if err != nil {
			return err
		}
		if ref != nil && ref.ID == holderID {
			return promotype.Forbidden("forbidden", "Forbidden", "You can not remove Referrer assignment")
		}
		err = st.DeleteReferee(ctx, projectID, v.ID, holderID)
		if errors.Is(err, promotype.ErrNotFound) {
			return promotype.NotFound("redeemable_holder", holderID)
		}
		return err
	})
}
