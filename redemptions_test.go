package promo_test

import (
	"testing"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// redeemSummary is what the redemption tests compare of an answer.
type redeemSummary struct {
	Children    int
	Parent      bool
	Status      order.Status
	Total, Disc int64
	Entries     int
}

func summarize(r *redemption.Redemptions) redeemSummary {
	return redeemSummary{Children: len(r.Redemptions), Parent: r.ParentRedemption != nil, Status: r.Order.Status,
		Total: r.Order.TotalAmount, Disc: r.Order.TotalDiscountAmount, Entries: len(r.Order.Redemptions)}
}

// TestRedeemWorkedExamples reproduces W2 (a stacked redemption: parent,
// three children, the order stored PAID with one entry), W3 (a second
// redemption on a stored order) and W6 (a single-use voucher redeemed
// twice) through the Go API on every store.
func TestRedeemWorkedExamples(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			red := f.eng.Redemptions()
			w2 := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":100}},{"object":"voucher","id":"39vnjyS8"},`+
				`{"object":"promotion_tier","id":"`+f.ids["tier8000"]+`"}],"order":{"amount":200000}}`)
			got := must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, w2, redemption.RedeemOptions{}))
			diff(t, "W2", redeemSummary{Children: 3, Parent: true, Status: order.StatusPaid, Total: 151920, Disc: 48080, Entries: 1}, summarize(got))
			parent := got.ParentRedemption
			entry := got.Order.Redemptions[parent.ID]
			diff(t, "W2 order entry", []string{redemption.RelatedRedemption, parent.ID, got.Redemptions[0].ID, got.Redemptions[1].ID, got.Redemptions[2].ID},
				append([]string{entry.RelatedObjectType, entry.RelatedObjectID}, entry.Stacked...))
			gift := got.Redemptions[0]
			if gift.Amount != 100 || gift.Gift.Amount != 100 || gift.Voucher.Gift.Balance != 20400 || *gift.Redemption != parent.ID || gift.Result != "SUCCESS" {
				t.Errorf("W2 gift child: amount %d, gift %+v, balance %d, parent %v", gift.Amount, gift.Gift, gift.Voucher.Gift.Balance, gift.Redemption)
			}
			stored := must[*voucher.Voucher](t)(f.store.FindVoucherByCode(ctx, f.project, "dBj56oqJ"))
			if stored.RedeemedQuantity != 1 || stored.Gift.Balance != 20400 {
				t.Errorf("W2 card stored: redeemed %d, balance %d", stored.RedeemedQuantity, stored.Gift.Balance)
			}

			w3 := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"id":"`+f.ids["order"]+`"}}`)
			got = must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, w3, redemption.RedeemOptions{}))
			diff(t, "W3", redeemSummary{Children: 1, Status: order.StatusPaid, Total: 0, Disc: 10000, Entries: 1}, summarize(got))
			if got.Order.ID != f.ids["order"] || got.Redemptions[0].Order.AppliedDiscountAmount != 800 {
				t.Errorf("W3: order %s, applied %d; want %s and 800", got.Order.ID, got.Redemptions[0].Order.AppliedDiscountAmount, f.ids["order"])
			}

			once := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`)
			_, err := red.Redeem(ctx, f.project, once, redemption.RedeemOptions{})
			e := wantErr(t, err, 400, "quantity_exceeded")
			if e.ResourceType != "redemption" || len(e.ResourceID) < 3 || e.ResourceID[:3] != "rf_" {
				t.Errorf("W6 failure points at %s %s, want a stored rf_ redemption", e.ResourceType, e.ResourceID)
			}
		})
	}
}
