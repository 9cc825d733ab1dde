package promo_test

import (
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// Deleting a campaign (to the bin or for good) removes the rule
// assignments of its vouchers, as deleting each voucher does; a voucher of
// another campaign keeps its own.
func TestCampaignDeleteUnassignsItsVouchers(t *testing.T) {
	for _, force := range []bool{false, true} {
		eachStore(t, func(t *testing.T, f fixture) {
			vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
				`{"name":"Big carts","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1000]}},"logic":"1"}}`)))
			doomed := createCampaign(t, f, discountCampaign("Doomed", 3))
			kept := createCampaign(t, f, discountCampaign("Kept", 1))
			runPending(t, f)
			assign := func(c *campaign.Campaign, n int) {
				t.Helper()
				l := listVouchers(t, f, voucher.ListParams{CampaignID: &c.ID})
				for _, v := range l.Data[:n] {
					must[*rule.Assignment](t)(f.eng.ValidationRules().Assign(ctx, f.project, vr.ID,
						rule.AssignmentParams{RelatedObjectID: v.ID}, false))
				}
			}
			assign(doomed, 2)
			assign(kept, 1)
			if n := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Get(ctx, f.project, vr.ID)).AssignmentsCount; n != 3 {
				t.Fatalf("assignments_count %d before the delete, want 3", n)
			}
			must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, doomed.ID, force))
			runPending(t, f)
			got := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Get(ctx, f.project, vr.ID))
			if got.AssignmentsCount != 1 {
				t.Errorf("force %v: assignments_count %d after the delete, want the other campaign's 1", force, got.AssignmentsCount)
			}
		})
	}
}
