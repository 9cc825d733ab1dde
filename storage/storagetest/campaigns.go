package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// fullCampaign is a campaign with every stored field set.
func fullCampaign(projectID string, n int) *campaign.Campaign {
	return &campaign.Campaign{
		ID:           fmt.Sprintf("camp_%03d", n),
		ProjectID:    projectID,
		Name:         fmt.Sprintf("Campaign %03d", n),
		Description:  ptr("All of it"),
		CampaignType: campaign.DiscountCoupons,
		Type:         campaign.AutoUpdate,
		Voucher: &campaign.VoucherSettings{
			Type:       campaign.DiscountVoucher,
			Discount:   &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: ptr(promotype.NewDecimal("12.5")), AmountLimit: ptr(promotype.NewDecimal("500")), Effect: campaign.EffectApplyToOrder},
			Redemption: campaign.RedemptionSettings{Quantity: ptr(int64(3))},
			CodeConfig: campaign.CodeConfig{Length: ptr(4), Charset: ptr("ABC"), Pattern: ptr("X-####"), Prefix: ptr("P"), Postfix: ptr("S")},
		},
		AutoJoin: true, JoinOnce: true, UseVoucherMetadataSchema: true,
		Validity: campaign.Validity{
			StartDate: at(1).Ptr(), ExpirationDate: at(100).Ptr(),
			ValidityTimeframe: &campaign.ValidityTimeframe{Interval: "P2D", Duration: "PT1H"},
			ValidityDayOfWeek: []int{1, 3},
			ValidityHours:     &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "10:00", ExpirationTime: "12:00", DaysOfWeek: []int{1}}}},
		},
		ActivityDurationAfterPublishing: ptr("P24D"),
		VouchersCount:                   7,
		Active:                          true,
		Metadata:                        promotype.Metadata{"region": "EU", "n": float64(n)},
		CreatedAt:                       at(n),
		CreationStatus:                  campaign.StatusDone,
		VouchersGenerationStatus:        campaign.StatusDone,
		CategoryID:                      ptr("cat_1"),
		ReferralProgram:                 &campaign.ReferralSettings{ConversionEventType: ptr("redemption")},
		LoyaltyTiersExpiration:          json.RawMessage(`{"qualification_type":"BALANCE"}`),
		Revision:                        2,
	}
}

func bareCampaign(projectID string, n int, ct campaign.CampaignType) *campaign.Campaign {
	c := &campaign.Campaign{ID: fmt.Sprintf("camp_%03d", n), ProjectID: projectID, Name: fmt.Sprintf("Campaign %03d", n),
		CampaignType: ct, Type: campaign.Static, Metadata: promotype.Metadata{}, CreatedAt: at(n),
		CreationStatus: campaign.StatusDone, VouchersGenerationStatus: campaign.StatusDone}
	if ct.HasVouchers() {
		c.Voucher = &campaign.VoucherSettings{Type: ct.VoucherType(), CodeConfig: campaign.CodeConfig{Length: ptr(8), Charset: ptr("ab"), Pattern: ptr("########")}}
	}
	return c
}

func campaignIDs(t *testing.T, s storage.Store, p string, q promotype.Query) []string {
	t.Helper()
	items, total, err := s.ListCampaigns(ctx, p, q)
	must(t, err)
	if total < len(items) {
		t.Errorf("total %d below the page's %d items", total, len(items))
	}
	return ids(items, func(c *campaign.Campaign) string { return c.ID })
}

func testCampaigns(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := fullCampaign(p, 1)
	must(t, s.InsertCampaign(ctx, want))
	got, err := s.GetCampaign(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindCampaignByName(ctx, p, want.Name)
	must(t, err)
	diff(t, "find by name", want, got)

	bare := bareCampaign(p, 2, campaign.Promotion)
	must(t, s.InsertCampaign(ctx, bare))
	got, err = s.GetCampaign(ctx, p, bare.ID)
	must(t, err)
	diff(t, "bare campaign", bare, got)

	wantErr(t, "same id", s.InsertCampaign(ctx, fullCampaign(p, 1)), promotype.ErrDuplicateFound)
	clash := bareCampaign(p, 3, campaign.GiftVouchers)
	clash.Name = want.Name
	wantErr(t, "same name", s.InsertCampaign(ctx, clash), promotype.ErrDuplicateFound)
	wantErr(t, "refused insert left nothing", second(s.GetCampaign(ctx, p, clash.ID)), promotype.ErrNotFound)

	// Update replaces every field but vouchers_count.
	upd := want.Clone()
	upd.Description, upd.Voucher.Discount = nil, nil
	upd.CreationStatus, upd.VouchersGenerationStatus = campaign.StatusModifying, campaign.StatusModifying
	upd.Metadata = promotype.Metadata{}
	upd.ValidityDayOfWeek = []int{}
	upd.UpdatedAt = at(50).Ptr()
	upd.VouchersCount = 999
	upd.Revision = 3
	must(t, s.UpdateCampaign(ctx, upd))
	got, err = s.GetCampaign(ctx, p, want.ID)
	must(t, err)
	upd.VouchersCount = 7
	diff(t, "after update", upd, got)
	if got.ValidityDayOfWeek == nil {
		t.Error("an empty validity_day_of_week came back null")
	}
	other := bareCampaign(p, 3, campaign.GiftVouchers)
	must(t, s.InsertCampaign(ctx, other))
	other.Name = want.Name
	wantErr(t, "update onto a taken name", s.UpdateCampaign(ctx, other), promotype.ErrDuplicateFound)
	wantErr(t, "update missing", s.UpdateCampaign(ctx, bareCampaign(p, 9, campaign.Promotion)), promotype.ErrNotFound)

	// Counts and statuses.
	must(t, s.AddCampaignVouchers(ctx, p, want.ID, 5))
	must(t, s.AddCampaignVouchers(ctx, p, want.ID, -2))
	got, _ = s.GetCampaign(ctx, p, want.ID)
	if got.VouchersCount != 10 {
		t.Errorf("vouchers_count = %d, want 10", got.VouchersCount)
	}
	wantErr(t, "count of a missing campaign", s.AddCampaignVouchers(ctx, p, "camp_nope", 1), promotype.ErrNotFound)
	set, err := s.SetCampaignStatus(ctx, p, want.ID, campaign.StatusDone, 2)
	must(t, err)
	if set {
		t.Error("status set although the revision differs")
	}
	if set, err = s.SetCampaignStatus(ctx, p, want.ID, campaign.StatusDone, 3); err != nil || !set {
		t.Errorf("status with the right revision: %v, %v", set, err)
	}
	if set, err = s.SetCampaignStatus(ctx, p, want.ID, campaign.StatusFailed, -1); err != nil || !set {
		t.Errorf("status without revision: %v, %v", set, err)
	}
	got, _ = s.GetCampaign(ctx, p, want.ID)
	if got.CreationStatus != campaign.StatusFailed || got.VouchersGenerationStatus != campaign.StatusFailed {
		t.Errorf("statuses %s, %s", got.CreationStatus, got.VouchersGenerationStatus)
	}
	_, err = s.SetCampaignStatus(ctx, p, "camp_nope", campaign.StatusDone, -1)
	wantErr(t, "status of a missing campaign", err, promotype.ErrNotFound)

	// Lists: order, filters, total.
	q := func(cs ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 10, OrderBy: "created_at", Filter: promotype.Filter{Junction: promotype.JunctionAnd, Conditions: cs}}
	}
	diff(t, "all", []string{"camp_001", "camp_002", "camp_003"}, campaignIDs(t, s, p, q()))
	diff(t, "by type", []string{"camp_003"}, campaignIDs(t, s, p, q(cond("campaign_type", promotype.OpIs, "GIFT_VOUCHERS"))))
	diff(t, "by voucher type", []string{"camp_001"}, campaignIDs(t, s, p, q(cond("voucher_type", promotype.OpIs, "DISCOUNT_VOUCHER"))))
	diff(t, "active", []string{"camp_001"}, campaignIDs(t, s, p, q(cond("active", promotype.OpIs, "true"))))
	diff(t, "no voucher type", []string{"camp_002"}, campaignIDs(t, s, p, q(cond("voucher_type", promotype.OpIsUnknown))))
	diff(t, "started", []string{"camp_001"}, campaignIDs(t, s, p, q(promotype.Condition{Field: "start_date", Op: promotype.OpBefore, At: at(2)})))
	desc := q()
	desc.Desc, desc.Limit = true, 2
	diff(t, "desc page", []string{"camp_003", "camp_002"}, campaignIDs(t, s, p, desc))

	// The bin frees the name; the row is still there for a delete.
	must(t, s.BinCampaign(ctx, p, want.ID, at(60)))
	wantErr(t, "get binned", second(s.GetCampaign(ctx, p, want.ID)), promotype.ErrNotFound)
	wantErr(t, "find binned", second(s.FindCampaignByName(ctx, p, want.Name)), promotype.ErrNotFound)
	wantErr(t, "update binned", s.UpdateCampaign(ctx, want), promotype.ErrNotFound)
	wantErr(t, "bin twice", s.BinCampaign(ctx, p, want.ID, at(61)), promotype.ErrNotFound)
	must(t, s.AddCampaignVouchers(ctx, p, want.ID, -1)) // counts still work on the binned row
	diff(t, "list after bin", []string{"camp_002", "camp_003"}, campaignIDs(t, s, p, q()))
	again := bareCampaign(p, 4, campaign.DiscountCoupons)
	again.Name = want.Name
	must(t, s.InsertCampaign(ctx, again))
	must(t, s.DeleteCampaign(ctx, p, want.ID))
	wantErr(t, "delete twice", s.DeleteCampaign(ctx, p, want.ID), promotype.ErrNotFound)
	must(t, s.DeleteCampaign(ctx, p, again.ID))

	// Categories.
	cat := &campaign.Category{ID: "cat_1", ProjectID: p, Name: "First", Hierarchy: 2, CreatedAt: at(1)}
	must(t, s.InsertCategory(ctx, cat))
	gotCat, err := s.GetCategory(ctx, p, "cat_1")
	must(t, err)
	diff(t, "category", cat, gotCat)
	gotCat, err = s.FindCategoryByName(ctx, p, "First")
	must(t, err)
	diff(t, "category by name", cat, gotCat)
	wantErr(t, "category name taken", s.InsertCategory(ctx, &campaign.Category{ID: "cat_2", ProjectID: p, Name: "First", CreatedAt: at(2)}), promotype.ErrDuplicateFound)
	wantErr(t, "category id taken", s.InsertCategory(ctx, &campaign.Category{ID: "cat_1", ProjectID: p, Name: "Other", CreatedAt: at(2)}), promotype.ErrDuplicateFound)
	must(t, s.InsertCategory(ctx, &campaign.Category{ID: "cat_3", ProjectID: p, Name: "Third", CreatedAt: at(3)}))
	cats, total, err := s.ListCategories(ctx, p, promotype.Query{Limit: 10, OrderBy: "name", Desc: true})
	must(t, err)
	diff(t, "categories by name", []string{"cat_3", "cat_1"}, ids(cats, func(c *campaign.Category) string { return c.ID }))
	if total != 2 {
		t.Errorf("categories total %d", total)
	}
	wantErr(t, "missing category", second(s.GetCategory(ctx, p, "cat_nope")), promotype.ErrNotFound)
	wantErr(t, "missing category name", second(s.FindCategoryByName(ctx, p, "Nope")), promotype.ErrNotFound)

	// Isolation.
	b := newProject(t, s, "proj_b")
	must(t, s.InsertCampaign(ctx, bareCampaign(b, 2, campaign.Promotion))) // same id and name in another project
	wantErr(t, "project b reads a's campaign", second(s.GetCampaign(ctx, b, "camp_003")), promotype.ErrNotFound)
	wantErr(t, "project b reads a's category", second(s.GetCategory(ctx, b, "cat_1")), promotype.ErrNotFound)
	wantErr(t, "project b bins a's campaign", s.BinCampaign(ctx, b, "camp_003", at(9)), promotype.ErrNotFound)
	if ids := campaignIDs(t, s, b, q()); len(ids) != 1 {
		t.Errorf("project b lists %v", ids)
	}
}

// fullVoucher is a voucher held alone with every stored field set.
func fullVoucher(projectID string, n int) *voucher.Voucher {
	return &voucher.Voucher{
		ID: fmt.Sprintf("v_%03d", n), ProjectID: projectID, Code: fmt.Sprintf("CODE-%03d", n),
		CampaignID: ptr("camp_1"), CategoryID: ptr("cat_1"), Type: campaign.GiftVoucher,
		Gift: &voucher.Gift{Amount: 1000, SubtractedAmount: 100, Balance: 900, Effect: ptr(campaign.EffectApplyToItems)},
		Validity: campaign.Validity{
			StartDate: at(1).Ptr(), ExpirationDate: at(200).Ptr(),
			ValidityTimeframe: &campaign.ValidityTimeframe{Interval: "P1W", Duration: "P1D"},
			ValidityDayOfWeek: []int{0, 6},
			ValidityHours:     &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "08:00", ExpirationTime: "09:30", DaysOfWeek: []int{0}}}},
		},
		Active: true, AdditionalInfo: ptr("info"), Metadata: promotype.Metadata{"k": "v", "nested": map[string]any{"a": []any{1.0, "b"}}},
		IsReferralCode: true, CreatedAt: at(n), UpdatedAt: at(n + 1).Ptr(), HolderID: ptr("cust_1"), ReferrerID: ptr("cust_2"),
		RedemptionQuantity: ptr(int64(5)), RedeemedQuantity: 2, PublishCount: 1,
	}
}

func discountVoucher(projectID, campaignID string, n int) *voucher.Voucher {
	v := &voucher.Voucher{ID: fmt.Sprintf("v_%03d", n), ProjectID: projectID, Code: fmt.Sprintf("CODE-%03d", n),
		Type: campaign.DiscountVoucher, Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: ptr(promotype.NewDecimal("100"))},
		Active: true, Metadata: promotype.Metadata{}, CreatedAt: at(n)}
	if campaignID != "" {
		v.CampaignID = ptr(campaignID)
	}
	return v
}

// batchOf returns a batch of campaign campaignID's template with vouchers
// v_b<k>_<i> / B<k>-<i>.
func batchOf(projectID, campaignID string, k, n int, created promotype.Time) *voucher.Batch {
	t := discountVoucher(projectID, campaignID, 0)
	t.ID, t.Code, t.CreatedAt = "", "", created
	t.RedemptionQuantity = ptr(int64(1))
	t.ValidityDayOfWeek = []int{2}
	b := &voucher.Batch{Template: t}
	for i := range n {
		b.Add(fmt.Sprintf("v_b%d_%04d", k, i), fmt.Sprintf("B%d-%04d", k, i))
	}
	return b
}

func voucherIDs(t *testing.T, s storage.Store, p string, q promotype.Query) ([]string, int) {
	t.Helper()
	items, total, err := s.ListVouchers(ctx, p, q)
	must(t, err)
	return ids(items, func(v *voucher.Voucher) string { return v.ID }), total
}

func testVouchers(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := fullVoucher(p, 1)
	must(t, s.InsertVoucher(ctx, want))
	got, err := s.GetVoucher(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindVoucherByCode(ctx, p, want.Code)
	must(t, err)
	diff(t, "find by code", want, got)
	loyal := discountVoucher(p, "", 2)
	loyal.Type, loyal.Discount = campaign.LoyaltyCard, nil
	loyal.LoyaltyCard = &voucher.LoyaltyCard{Points: 50, Balance: 40, PendingPoints: ptr(int64(3))}
	loyal.ValidityDayOfWeek = []int{}
	must(t, s.InsertVoucher(ctx, loyal))
	got, err = s.GetVoucher(ctx, p, loyal.ID)
	must(t, err)
	diff(t, "loyalty card", loyal, got)
	if got.ValidityDayOfWeek == nil {
		t.Error("an empty validity_day_of_week came back null")
	}

	wantErr(t, "same id", s.InsertVoucher(ctx, discountVoucher(p, "", 1)), promotype.ErrDuplicateFound)
	clash := discountVoucher(p, "", 3)
	clash.Code = want.Code
	wantErr(t, "same code", s.InsertVoucher(ctx, clash), promotype.ErrDuplicateFound)
	wantErr(t, "refused insert left nothing", second(s.GetVoucher(ctx, p, clash.ID)), promotype.ErrNotFound)

	// InsertVouchers: taken codes and ids, and repeats in the call, are
	// refused without an error.
	dupInCall := discountVoucher(p, "camp_1", 5)
	dupInCall.Code = "CODE-004"
	rejected, err := s.InsertVouchers(ctx, []*voucher.Voucher{discountVoucher(p, "camp_1", 4), clash, dupInCall, discountVoucher(p, "", 1), discountVoucher(p, "camp_1", 6)})
	must(t, err)
	diff(t, "rejected", []int{1, 2, 3}, rejected)
	must(t, second(s.GetVoucher(ctx, p, "v_006")))

	// Batches: the vouchers come back as the template with their id and code.
	b := batchOf(p, "camp_1", 1, 20, at(10))
	b.Add("v_b1_extra", "CODE-001") // taken by want
	b.Add("v_001", "FREE-CODE")     // id taken
	b.Add("v_b1_twice", "B1-0003")  // taken in the batch itself
	rejected, err = s.InsertBatch(ctx, b)
	must(t, err)
	diff(t, "batch rejected", []int{20, 21, 22}, rejected)
	got, err = s.FindVoucherByCode(ctx, p, "B1-0007")
	must(t, err)
	wantB := b.Voucher(7)
	diff(t, "batch voucher", wantB, got)
	got.Metadata["mutated"] = true
	got.ValidityDayOfWeek[0] = 5
	again, err := s.GetVoucher(ctx, p, "v_b1_0007")
	must(t, err)
	diff(t, "batch voucher after mutating a copy", wantB, again)
	wantErr(t, "refused batch voucher", second(s.GetVoucher(ctx, p, "v_b1_extra")), promotype.ErrNotFound)
	wantErr(t, "free code of a refused row", second(s.FindVoucherByCode(ctx, p, "FREE-CODE")), promotype.ErrNotFound)

	// An update of a batch voucher keeps the others as they were.
	upd := wantB.Clone()
	upd.Active, upd.UpdatedAt, upd.Metadata = false, at(30).Ptr(), promotype.Metadata{"changed": true}
	must(t, s.UpdateVoucher(ctx, upd))
	got, err = s.FindVoucherByCode(ctx, p, "B1-0007")
	must(t, err)
	diff(t, "updated batch voucher", upd, got)
	got, err = s.GetVoucher(ctx, p, "v_b1_0008")
	must(t, err)
	diff(t, "its neighbour", b.Voucher(8), got)
	upd.Code = "CODE-001"
	wantErr(t, "update onto a taken code", s.UpdateVoucher(ctx, upd), promotype.ErrDuplicateFound)
	wantErr(t, "update missing", s.UpdateVoucher(ctx, discountVoucher(p, "", 99)), promotype.ErrNotFound)

	// Lists span vouchers held alone and in batches.
	q := func(order string, desc bool, cs ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 100, OrderBy: order, Desc: desc, Filter: promotype.Filter{Junction: promotype.JunctionAnd, Conditions: cs}}
	}
	gotIDs, total := voucherIDs(t, s, p, q("created_at", false))
	if total != 24 || len(gotIDs) != 24 || gotIDs[0] != "v_001" || gotIDs[23] != "v_b1_0019" {
		t.Errorf("all vouchers: total %d, %v", total, gotIDs)
	}
	gotIDs, _ = voucherIDs(t, s, p, q("code", true, cond("code", promotype.OpStartsWith, "B1-001")))
	diff(t, "codes B1-001x, code desc", []string{"v_b1_0019", "v_b1_0018", "v_b1_0017", "v_b1_0016", "v_b1_0015", "v_b1_0014", "v_b1_0013", "v_b1_0012", "v_b1_0011", "v_b1_0010"}, gotIDs)
	gotIDs, _ = voucherIDs(t, s, p, q("created_at", false, cond("active", promotype.OpIs, "false")))
	diff(t, "disabled", []string{"v_b1_0007"}, gotIDs)
	gotIDs, total = voucherIDs(t, s, p, q("created_at", false, cond("campaign_id", promotype.OpIs, "camp_1"), cond("type", promotype.OpIs, "DISCOUNT_VOUCHER")))
	if total != 22 {
		t.Errorf("discount vouchers of camp_1: %d %v", total, gotIDs)
	}
	gotIDs, _ = voucherIDs(t, s, p, q("created_at", false, cond("id", promotype.OpIn, "v_002", "v_b1_0001")))
	diff(t, "by ids", []string{"v_002", "v_b1_0001"}, gotIDs)
	page := q("code", false)
	page.Limit, page.Offset = 2, 3
	gotIDs, total = voucherIDs(t, s, p, page)
	diff(t, "page by code", []string{"v_b1_0003", "v_b1_0004"}, gotIDs)
	if total != 24 {
		t.Errorf("page total %d", total)
	}
	active := q("created_at", false)
	active.Must = []promotype.Condition{
		{Field: voucher.FieldStartOrMin, Op: promotype.OpBefore, At: at(5)},
		{Field: voucher.FieldExpirationOrMax, Op: promotype.OpAfter, At: at(150)},
	}
	gotIDs, _ = voucherIDs(t, s, p, active)
	if len(gotIDs) != 24 {
		t.Errorf("vouchers valid from at(5) to at(150): %v", gotIDs)
	}
	active.Must[1].At = at(250)
	gotIDs, _ = voucherIDs(t, s, p, active)
	if len(gotIDs) != 23 { // want expires at(200)
		t.Errorf("vouchers valid at(250): %v", gotIDs)
	}

	// The bin frees the code; delete purges live or binned vouchers.
	must(t, s.BinVoucher(ctx, p, "v_b1_0002", at(40)))
	wantErr(t, "binned batch voucher", second(s.GetVoucher(ctx, p, "v_b1_0002")), promotype.ErrNotFound)
	wantErr(t, "binned batch voucher by code", second(s.FindVoucherByCode(ctx, p, "B1-0002")), promotype.ErrNotFound)
	wantErr(t, "bin twice", s.BinVoucher(ctx, p, "v_b1_0002", at(41)), promotype.ErrNotFound)
	reuse := discountVoucher(p, "", 7)
	reuse.Code = "B1-0002"
	must(t, s.InsertVoucher(ctx, reuse))
	must(t, s.DeleteVoucher(ctx, p, "v_b1_0002"))
	wantErr(t, "delete twice", s.DeleteVoucher(ctx, p, "v_b1_0002"), promotype.ErrNotFound)
	must(t, s.DeleteVoucher(ctx, p, "v_b1_0005"))
	wantErr(t, "deleted batch voucher", second(s.FindVoucherByCode(ctx, p, "B1-0005")), promotype.ErrNotFound)
	must(t, s.BinVoucher(ctx, p, want.ID, at(42)))
	must(t, s.DeleteVoucher(ctx, p, want.ID))

	// Isolation: the same code lives in two projects.
	bp := newProject(t, s, "proj_b")
	must(t, s.InsertVoucher(ctx, discountVoucher(bp, "", 1)))
	bb := batchOf(bp, "camp_1", 1, 3, at(1))
	rejected, err = s.InsertBatch(ctx, bb)
	must(t, err)
	if len(rejected) != 0 {
		t.Errorf("project b's batch refused %v", rejected)
	}
	wantErr(t, "project b reads a's voucher", second(s.GetVoucher(ctx, bp, "v_006")), promotype.ErrNotFound)
	if _, total := voucherIDs(t, s, bp, q("created_at", false)); total != 4 {
		t.Errorf("project b lists %d vouchers", total)
	}

	t.Run("campaign-wide", func(t *testing.T) { testCampaignVouchers(t, newStore) })
	t.Run("batch rolls back", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if _, err := tx.InsertBatch(ctx, batchOf(p, "camp_1", 1, 10, at(1))); err != nil {
				return err
			}
			if _, err := tx.FindVoucherByCode(ctx, p, "B1-0001"); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("RunInTx: %v", err)
		}
		wantErr(t, "rolled-back batch", second(s.FindVoucherByCode(ctx, p, "B1-0001")), promotype.ErrNotFound)
		rejected, err := s.InsertBatch(ctx, batchOf(p, "camp_1", 1, 10, at(1)))
		must(t, err)
		if len(rejected) != 0 {
			t.Errorf("codes of a rolled-back batch are still taken: %v", rejected)
		}
	})
}

// testCampaignVouchers checks the campaign-wide changes on vouchers held
// alone and in batches, chunk by chunk.
func testCampaignVouchers(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	for k := 1; k <= 3; k++ {
		_, err := s.InsertBatch(ctx, batchOf(p, "camp_1", k, 10, at(k)))
		must(t, err)
	}
	_, err := s.InsertBatch(ctx, batchOf(p, "camp_2", 4, 5, at(4)))
	must(t, err)
	alone := discountVoucher(p, "camp_1", 1)
	gift := fullVoucher(p, 2) // published: campaign updates leave it
	fresh := fullVoucher(p, 3)
	fresh.PublishCount, fresh.RedeemedQuantity = 0, 0
	for _, v := range []*voucher.Voucher{alone, gift, fresh} {
		must(t, s.InsertVoucher(ctx, v))
	}
	// One batch voucher changed since it was made.
	changed, err := s.GetVoucher(ctx, p, "v_b2_0004")
	must(t, err)
	changed.AdditionalInfo = ptr("mine")
	must(t, s.UpdateVoucher(ctx, changed))

	f := voucher.CampaignFields{
		CategoryID: ptr("cat_9"),
		Discount:   &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: ptr(promotype.NewDecimal("20"))},
		GiftAmount: ptr(int64(5000)),
		Validity:   campaign.Validity{ExpirationDate: at(500).Ptr(), ValidityDayOfWeek: []int{}},
	}
	total, after := 0, ""
	for i := 0; ; i++ {
		n, last, err := s.UpdateCampaignVouchers(ctx, p, "camp_1", f, after, 7)
		must(t, err)
		total += n
		if last == "" {
			break
		}
		if last <= after {
			t.Fatalf("the cursor went back: %q after %q", last, after)
		}
		after = last
		if i > 20 {
			t.Fatal("UpdateCampaignVouchers never ended")
		}
	}
	if total != 32 { // 3 batches of 10, alone and fresh, but not gift (published)
		t.Errorf("updated %d vouchers, want 32", total)
	}
	check := func(id string, want func(v *voucher.Voucher)) {
		t.Helper()
		got, err := s.GetVoucher(ctx, p, id)
		must(t, err)
		w := got.Clone()
		want(w)
		diff(t, "voucher "+id, w, got)
	}
	applied := func(v *voucher.Voucher) {
		if f.Applies(v) {
			f.Apply(v)
		}
	}
	for _, id := range []string{"v_b1_0000", "v_b3_0009", "v_b2_0004", "v_001", "v_003"} {
		got, err := s.GetVoucher(ctx, p, id)
		must(t, err)
		if *got.CategoryID != "cat_9" || got.ExpirationDate == nil || !got.ExpirationDate.Equal(at(500)) || got.StartDate != nil {
			t.Errorf("%s was not updated: %+v", id, got)
		}
		check(id, applied) // applying again changes nothing
	}
	got, _ := s.GetVoucher(ctx, p, "v_003")
	if got.Gift.Amount != 5000 || got.Gift.Balance != 4900 || got.Gift.Effect != nil {
		t.Errorf("gift after update: %+v", got.Gift)
	}
	got, _ = s.GetVoucher(ctx, p, "v_b2_0004")
	if got.AdditionalInfo == nil || *got.AdditionalInfo != "mine" || !got.Discount.PercentOff.Equal(promotype.NewDecimal("20")) {
		t.Errorf("changed voucher after update: %+v", got)
	}
	got, _ = s.GetVoucher(ctx, p, "v_002")
	diff(t, "published voucher", gift, got)
	got, _ = s.GetVoucher(ctx, p, "v_b4_0000")
	if got.CategoryID != nil {
		t.Errorf("another campaign's voucher changed: %+v", got)
	}

	// Bin, then purge, chunk by chunk.
	binned := 0
	for {
		n, err := s.BinCampaignVouchers(ctx, p, "camp_1", at(70), 7)
		must(t, err)
		if n == 0 {
			break
		}
		binned += n
	}
	if binned != 33 {
		t.Errorf("binned %d, want 33", binned)
	}
	if _, total := voucherIDs(t, s, p, promotype.Query{Limit: 1, OrderBy: "created_at"}); total != 5 {
		t.Errorf("live vouchers after bin: %d, want 5 (camp_2)", total)
	}
	wantErr(t, "binned code", second(s.FindVoucherByCode(ctx, p, "B1-0001")), promotype.ErrNotFound)
	must(t, s.InsertVoucher(ctx, &voucher.Voucher{ID: "v_new", ProjectID: p, Code: "B1-0001", Type: campaign.DiscountVoucher, Metadata: promotype.Metadata{}, CreatedAt: at(80)}))
	purged := 0
	for {
		n, err := s.DeleteCampaignVouchers(ctx, p, "camp_1", 7)
		must(t, err)
		if n == 0 {
			break
		}
		purged += n
	}
	if purged != 33 {
		t.Errorf("purged %d, want 33", purged)
	}
	wantErr(t, "purged voucher", s.DeleteVoucher(ctx, p, "v_b1_0002"), promotype.ErrNotFound)
	must(t, second(s.FindVoucherByCode(ctx, p, "B1-0001"))) // v_new, outside the campaign
}

func action(projectID string, n int, created promotype.Time) *project.AsyncAction {
	return &project.AsyncAction{
		ID: fmt.Sprintf("aa_%03d", n), ProjectID: projectID, Type: project.ActionVouchersGenerate,
		Status: project.AsyncEnqueued, OperationStatus: project.OperationUnknown, CreatedAt: created,
		RequestID: "v-0123", Payload: json.RawMessage(`{"campaign_id":"camp_1","count":5}`), Object: "async_action",
	}
}

func testAsyncActions(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	a1 := action(p, 1, at(1))
	must(t, s.InsertAsyncAction(ctx, a1))
	got, err := s.GetAsyncAction(ctx, p, a1.ID)
	must(t, err)
	diff(t, "get", a1, got)
	wantErr(t, "same id", s.InsertAsyncAction(ctx, action(p, 1, at(1))), promotype.ErrDuplicateFound)
	must(t, s.InsertAsyncAction(ctx, action(b, 2, at(2))))
	must(t, s.InsertAsyncAction(ctx, action(p, 3, at(3))))
	wantErr(t, "project b reads a's action", second(s.GetAsyncAction(ctx, b, a1.ID)), promotype.ErrNotFound)

	items, total, err := s.ListAsyncActions(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true})
	must(t, err)
	diff(t, "list", []string{"aa_003", "aa_001"}, ids(items, func(a *project.AsyncAction) string { return a.ID }))
	if total != 2 {
		t.Errorf("total %d", total)
	}

	// Claims take the oldest claimable action of any project, once.
	lease := at(10)
	c1, err := s.ClaimAsyncAction(ctx, "r1", at(5), lease)
	must(t, err)
	if c1 == nil || c1.ID != "aa_001" || c1.Status != project.AsyncInProgress || c1.LeaseOwner != "r1" || c1.Attempts != 1 ||
		!c1.StartedAt.Equal(at(5)) || !c1.LeaseUntil.Equal(lease) || !c1.UpdatedAt.Equal(at(5)) {
		t.Fatalf("first claim: %+v", c1)
	}
	c2, err := s.ClaimAsyncAction(ctx, "r2", at(5), lease)
	must(t, err)
	if c2 == nil || c2.ID != "aa_002" || c2.ProjectID != b {
		t.Fatalf("second claim: %+v", c2)
	}
	c3, err := s.ClaimAsyncAction(ctx, "r2", at(5), lease)
	must(t, err)
	if c3 == nil || c3.ID != "aa_003" {
		t.Fatalf("third claim: %+v", c3)
	}
	if none, err := s.ClaimAsyncAction(ctx, "r3", at(9), at(20)); err != nil || none != nil {
		t.Fatalf("claim with every lease running: %+v, %v", none, err)
	}

	// The lease guards the checkpoints.
	_, err = s.LockAsyncAction(ctx, p, "aa_001", "r2")
	if !errors.Is(err, project.ErrLeaseLost) {
		t.Errorf("lock by another runner: %v", err)
	}
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		cur, err := tx.LockAsyncAction(ctx, p, "aa_001", "r1")
		if err != nil {
			return err
		}
		cur.Progress, cur.State = 40, json.RawMessage(`{"done":2}`)
		return tx.UpdateAsyncAction(ctx, cur)
	}))
	got, _ = s.GetAsyncAction(ctx, p, "aa_001")
	if got.Progress != 40 || string(got.State) != `{"done":2}` {
		t.Errorf("checkpoint: %+v", got)
	}

	// Past its lease an action is taken over, and its first runner is out.
	c4, err := s.ClaimAsyncAction(ctx, "r4", at(11), at(30))
	must(t, err)
	if c4 == nil || c4.ID != "aa_001" || c4.Attempts != 2 || !c4.StartedAt.Equal(at(5)) || c4.Progress != 40 {
		t.Fatalf("take-over: %+v", c4)
	}
	_, err = s.LockAsyncAction(ctx, p, "aa_001", "r1")
	if !errors.Is(err, project.ErrLeaseLost) {
		t.Errorf("lock by the runner that lost the lease: %v", err)
	}
	_, err = s.LockAsyncAction(ctx, p, "aa_missing", "r1")
	wantErr(t, "lock missing", err, promotype.ErrNotFound)

	// Ended actions are never claimed.
	done := c4.Clone()
	done.Status, done.OperationStatus, done.Progress = project.AsyncDone, project.OperationSuccess, 100
	done.Result = json.RawMessage(`{"message":"Generated 5 vouchers.","done_count":5}`)
	done.LeaseOwner, done.LeaseUntil, done.ProcessingTime = "", nil, 1234
	must(t, s.UpdateAsyncAction(ctx, done))
	got, err = s.GetAsyncAction(ctx, p, "aa_001")
	must(t, err)
	diff(t, "ended action", done, got)
	for _, now := range []promotype.Time{at(40), at(1000)} {
		c, err := s.ClaimAsyncAction(ctx, "r5", now, promotype.NewTime(now.Add(time.Minute)))
		must(t, err)
		if c != nil && c.ID == "aa_001" {
			t.Errorf("claimed an ended action at %v", now)
		}
	}
	wantErr(t, "update missing", s.UpdateAsyncAction(ctx, action(p, 99, at(1))), promotype.ErrNotFound)

	t.Run("concurrent claims", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		const actions, runners = 20, 6
		for i := range actions {
			must(t, s.InsertAsyncAction(ctx, action(p, i, at(i))))
		}
		var mu sync.Mutex
		var claimed []string
		var wg sync.WaitGroup
		for r := range runners {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					a, err := s.ClaimAsyncAction(ctx, fmt.Sprintf("r%d", r), at(100), at(200))
					if err != nil {
						t.Error(err)
						return
					}
					if a == nil {
						return
					}
					mu.Lock()
					claimed = append(claimed, a.ID)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		sort.Strings(claimed)
		want := make([]string, actions)
		for i := range want {
			want[i] = fmt.Sprintf("aa_%03d", i)
		}
		diff(t, "each action claimed once", want, claimed)
	})
}
