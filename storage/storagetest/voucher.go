package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

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

	// LockVoucher holds a live voucher for the transaction; a missing one,
	// or another project's, is not found.
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return tx.LockVoucher(ctx, p, want.ID) }))
	wantErr(t, "lock a missing voucher", s.LockVoucher(ctx, p, "v_missing"), promotype.ErrNotFound)
	wantErr(t, "lock another project's voucher", s.LockVoucher(ctx, "proj_other", want.ID), promotype.ErrNotFound)
	// GetVoucherForUpdate reads what GetVoucher reads, with the lock.
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		locked, err := tx.GetVoucherForUpdate(ctx, p, loyal.ID)
		if err != nil {
			return err
		}
		diff(t, "loyalty card read for update", loyal, locked)
		return nil
	}))
	_, err = s.GetVoucherForUpdate(ctx, p, "v_missing")
	wantErr(t, "read a missing voucher for update", err, promotype.ErrNotFound)
	_, err = s.GetVoucherForUpdate(ctx, "proj_other", want.ID)
	wantErr(t, "read another project's voucher for update", err, promotype.ErrNotFound)

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
