package redemption

import (
	"context"

	"github.com/promoengine/promo/promotype"
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
// The request's first voucher may have been read already, with its
// customer (prefetch).
func (r *resolver) findVoucher(ctx context.Context, code string) (*voucher.Voucher, error) {
	if p := r.pre; p != nil && p.code == code {
		r.pre = nil // read once, as the store would be
		if p.Voucher == nil {
			return nil, promotype.NotFound("voucher", code)
		}
		r.knowAssignments(p.Voucher, p.Assignments)
		return p.Voucher, nil
	}
	vr, ok := r.s.store.(VoucherRulesReader)
	if !ok {
		return r.s.store.FindVoucherByCode(ctx, r.projectID, code)
	}
	v, as, err := vr.FindVoucherByCodeWithAssignments(ctx, r.projectID, code)
	if err != nil {
		return nil, err
	}
	r.knowAssignments(v, as)
	return v, nil
}

// knowAssignments keeps as, the assignments of voucher v and of its
// campaign, for programs.
func (r *resolver) knowAssignments(v *voucher.Voucher, as []*rule.Assignment) {
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
}
