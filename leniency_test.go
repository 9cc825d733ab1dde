package promo_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// TestLeniencyGoAPI checks the inferences the hosted service makes instead
// of refusing (docs/behaviour.md, "Hosted-service compatibility")
// through the Go API, on every store.
func TestLeniencyGoAPI(t *testing.T) {
	ctx := context.Background()
	eachStore(t, func(t *testing.T, f fixture) {
		// campaign_type from voucher.type; a loyalty program's defaults.
		cards := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, campaign.Params{Name: promo.Ptr("Cards"),
			Voucher: &campaign.VoucherParams{Type: promo.Ptr(campaign.LoyaltyCard), LoyaltyCard: &campaign.LoyaltyCardSettings{Points: promo.Ptr[int64](5)}}}))
		got := []any{cards.CampaignType, cards.Type, cards.CreationStatus, cards.VouchersGenerationStatus, cards.UseVoucherMetadataSchema}
		want := []any{campaign.LoyaltyProgram, campaign.Static, campaign.StatusDone, campaign.StatusDone, true}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("loyalty program (-want +got):\n%s", diff)
		}

		// A voucher's type from its one type-specific object.
		v := must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, voucher.Params{Code: promo.Ptr("D-1"), Discount: percentOff("5")}))
		if v.Type != campaign.DiscountVoucher {
			t.Errorf("voucher type = %s, want DISCOUNT_VOUCHER", v.Type)
		}

		// A CAMPAIGN reward's campaign type from the campaign.
		r := must[*reward.Reward](t)(f.eng.Rewards().Create(ctx, f.project, reward.Params{Name: promo.Ptr("Points"),
			Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: cards.ID, Balance: promo.Ptr[int64](10)}}}))
		if r.Parameters.Campaign.Type != string(campaign.LoyaltyProgram) {
			t.Errorf("reward campaign type = %q, want LOYALTY_PROGRAM", r.Parameters.Campaign.Type)
		}

		// A rule set without logic joins its rules with and.
		vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"Two","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[100]}},"2":{"name":"order.amount","conditions":{"$less_than":[1000]}}}}`)))
		if vr.Rules.Logic != "1 and 2" {
			t.Errorf("logic = %q, want 1 and 2", vr.Rules.Logic)
		}

		// Clear removes a nullable field; absent fields are unchanged.
		end := promotype.NewTime(t0.AddDate(1, 0, 0))
		c := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, campaign.Params{Name: promo.Ptr("Dated"), ExpirationDate: &end,
			Description: promo.Ptr("d"), Voucher: &campaign.VoucherParams{Discount: percentOff("5")}}))
		if _, err := f.eng.AsyncActions().RunPending(ctx, async.Config{}); err != nil {
			t.Fatal(err)
		}
		c = must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Clear: []string{"expiration_date"}}))
		if c.ExpirationDate != nil || c.Description == nil {
			t.Errorf("after clearing expiration_date: expiration %v description %v, want nil and kept", c.ExpirationDate, c.Description)
		}
		if _, err := f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Clear: []string{"name"}}); err == nil {
			t.Error("clearing name: no error")
		}

		// An order item of a product the catalog lacks is kept as sent.
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Items: []order.ItemParams{
			{ProductID: promo.Ptr("prod_elsewhere"), Price: promo.Ptr[int64](300)}}}))
		if o.Items[0].ProductID != "prod_elsewhere" || o.Amount != 300 {
			t.Errorf("order item product_id %q amount %d, want prod_elsewhere 300", o.Items[0].ProductID, o.Amount)
		}
		o = must[*order.Order](t)(f.eng.Orders().Get(ctx, f.project, o.ID))
		if o.Items[0].ProductID != "prod_elsewhere" {
			t.Errorf("stored order item product_id %q, want prod_elsewhere", o.Items[0].ProductID)
		}
	})
}
