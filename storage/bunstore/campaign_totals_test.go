package bunstore_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/redemption"
)

// TestCampaignTotalsOfOlderRows: ledger rows written before migration 0058
// (their amount columns NULL) are summed from their documents, as the rows
// written since are from their columns.
func TestCampaignTotalsOfOlderRows(t *testing.T) {
	db, s := migrated(t)
	row := func(id string, credits int64) *redemption.Redemption {
		return &redemption.Redemption{ID: id, Object: redemption.ObjectRedemption, Date: at(1), Result: redemption.ResultSuccess,
			Status: redemption.StatusSucceeded, RelatedObjectType: redemption.RelatedVoucher, RelatedObjectID: "v_1",
			Order: &order.Order{Amount: 1000, TotalAppliedDiscountAmount: 100}, Gift: &redemption.GiftAmount{Amount: credits},
			Ledger: redemption.Ledger{ProjectID: "p", CampaignID: "camp_1"}}
	}
	must(t, s.InsertRedemptions(ctx, row("r_old", 300), row("r_new", 200)))
	if _, err := db.ExecContext(ctx, `UPDATE promo_redemptions SET order_amount = NULL, discount_amount = NULL, credits = NULL, points = NULL WHERE id = 'r_old'`); err != nil {
		t.Fatal(err)
	}
	got, err := s.CampaignTotals(ctx, "p", "camp_1", nil, nil)
	must(t, err)
	want := redemption.CampaignTotals{Redemptions: 2, RedemptionsSucceeded: 2, OrdersAmount: 2000, DiscountedAmount: 200, GiftAmount: 500}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
}
