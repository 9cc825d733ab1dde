package redemption

import (
	"context"

	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// VoucherRulesReader is the optional ability of a ServiceStore to read a
// live voucher by code together with the rule assignments of the voucher
// and of its campaign, oldest first (as rule.AssignmentLister's
// AssignmentsOf orders them), in one read: resolving a voucher then costs
// one round trip to the database instead of two or three. A store without
// it is read through FindVoucherByCode and AssignmentsOf;
// storage/storagetest checks that both give the same answer.
type VoucherRulesReader interface {
	FindVoucherByCodeWithAssignments(ctx context.Context, projectID, code string) (*voucher.Voucher, []*rule.Assignment, error)
}

// findVoucher reads the live voucher with code, and when the store reads
// its assignments with it (VoucherRulesReader), keeps them for programs.
func (r *resolver) findVoucher(ctx context.Context, code string) (*voucher.Voucher, error) {
	vr, ok := r.s.store.(VoucherRulesReader)
	if !ok {
		return r.s.store.FindVoucherByCode(ctx, r.projectID, code)
	}
	v, as, err := vr.FindVoucherByCodeWithAssignments(ctx, r.projectID, code)
	if err != nil {
		return nil, err
	}
	if r.assigned == nil {
		r.assigned = map[[2]string][]*rule.Assignment{}
	}
	own, camp := [2]string{rule.RelatedVoucher, v.ID}, [2]string{}
	r.assigned[own] = nil
	if v.CampaignID != nil {
		camp = [2]string{rule.RelatedCampaign, *v.CampaignID}
		r.assigned[camp] = nil
	}
	for _, a := range as {
		switch k := [2]string{a.RelatedObjectType, a.RelatedObjectID}; k {
		case own, camp:
			r.assigned[k] = append(r.assigned[k], a)
		}
	}
	return v, nil
}
