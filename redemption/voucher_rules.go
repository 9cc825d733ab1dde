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
	objects := [][2]string{{rule.RelatedVoucher, v.ID}}
	if v.CampaignID != nil {
		objects = append(objects, [2]string{rule.RelatedCampaign, *v.CampaignID})
	}
	for _, obj := range objects {
		var of []*rule.Assignment
		for _, a := range as {
			if a.RelatedObjectType == obj[0] && a.RelatedObjectID == obj[1] {
				of = append(of, a)
			}
		}
		r.knowAssigned(obj, of)
	}
	return v, nil
}
