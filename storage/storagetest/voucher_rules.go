package storagetest

import (
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// testVoucherRulesReader covers the optional redemption.VoucherRulesReader
// on every store that has it: the voucher is FindVoucherByCode's, its
// assignments those of the voucher and of its campaign, oldest first, as
// AssignmentsOf gives them.
func testVoucherRulesReader(t *testing.T, newStore Factory) {
	s := newStore(t)
	r, ok := s.(redemption.VoucherRulesReader)
	if !ok {
		t.Skip("the store reads no voucher with its assignments (redemption.VoucherRulesReader)")
	}
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	inCampaign, alone, binned := discountVoucher(p, "camp_1", 1), discountVoucher(p, "", 2), discountVoucher(p, "camp_1", 3)
	for _, v := range []*voucher.Voucher{inCampaign, alone, binned, discountVoucher(q, "camp_1", 1)} {
		must(t, s.InsertVoucher(ctx, v))
	}
	must(t, s.BinVoucher(ctx, p, binned.ID, at(4)))
	for _, a := range []*rule.Assignment{
		assignment(p, "val_001", 5, rule.RelatedCampaign, "camp_1"),
		assignment(p, "val_002", 3, rule.RelatedVoucher, inCampaign.ID),
		assignment(p, "val_003", 7, rule.RelatedVoucher, inCampaign.ID),
		assignment(p, "val_004", 1, rule.RelatedVoucher, alone.ID),
		assignment(p, "val_005", 2, rule.RelatedCampaign, "camp_2"),
		assignment(q, "val_006", 6, rule.RelatedVoucher, inCampaign.ID), // another project's
	} {
		must(t, s.InsertAssignment(ctx, a))
	}
	for code, wantIDs := range map[string][]string{inCampaign.Code: {"asgm_003", "asgm_005", "asgm_007"}, alone.Code: {"asgm_001"}} {
		v, as, err := r.FindVoucherByCodeWithAssignments(ctx, p, code)
		must(t, err)
		want, err := s.FindVoucherByCode(ctx, p, code)
		must(t, err)
		diff(t, code+": the voucher", want, v)
		own, err := s.AssignmentsOf(ctx, p, rule.RelatedVoucher, []string{v.ID})
		must(t, err)
		var camp []*rule.Assignment
		if v.CampaignID != nil {
			camp, err = s.AssignmentsOf(ctx, p, rule.RelatedCampaign, []string{*v.CampaignID})
			must(t, err)
		}
		diff(t, code+": the assignments, oldest first", wantIDs, ids(as, func(a *rule.Assignment) string { return a.ID }))
		byID := map[string]*rule.Assignment{}
		for _, a := range append(own, camp...) {
			byID[a.ID] = a
		}
		for _, a := range as {
			diff(t, code+": assignment "+a.ID+" as AssignmentsOf reads it", byID[a.ID], a)
		}
	}
	third := func(_ *voucher.Voucher, _ []*rule.Assignment, err error) error { return err }
	wantErr(t, "a binned voucher", third(r.FindVoucherByCodeWithAssignments(ctx, p, binned.Code)), promotype.ErrNotFound)
	wantErr(t, "an unknown code", third(r.FindVoucherByCodeWithAssignments(ctx, p, "NONE")), promotype.ErrNotFound)
	wantErr(t, "another project's code", third(r.FindVoucherByCodeWithAssignments(ctx, "proj_c", inCampaign.Code)), promotype.ErrNotFound)
}
