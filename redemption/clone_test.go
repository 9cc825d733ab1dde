package redemption

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// fullRedemption is a row with every part a clone copies set.
func fullRedemption() *Redemption {
	s := func(v string) *string { return &v }
	n := func(v int64) *int64 { return &v }
	at := promotype.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC))
	return &Redemption{
		ID: "r_1", Object: ObjectRedemption, Date: at, CustomerID: s("cust_1"), TrackingID: s("t"),
		Metadata: promotype.Metadata{"a": map[string]any{"b": []any{1.0}}}, Amount: 5, Redemption: s("r_0"), Reason: s("why"),
		Result: ResultSuccess, Status: StatusSucceeded, FailureCode: s("c"), FailureMessage: s("m"),
		RelatedRedemptions: &Related{Rollbacks: []RelatedRow{{ID: "rr_1", Date: at}}},
		Order: &order.Order{ID: "ord_1", SourceID: s("o"), UpdatedAt: &at, CustomerID: s("cust_1"), Customer: &customer.Ref{ID: "cust_1", Object: "customer"},
			Metadata: promotype.Metadata{"x": 1.0}, Items: []order.Item{{Object: "order_item", Quantity: 2, Price: n(3)}},
			Redemptions: map[string]order.Redemption{"r_1": {Date: &at, Stacked: []string{"r_2"}}}, Object: "order", ProjectID: "proj_1"},
		Channel: Channel{ChannelID: "app", ChannelType: "API"}, Customer: &customer.Ref{ID: "cust_1", Object: "customer"},
		RelatedObjectType: RelatedVoucher, RelatedObjectID: "v_1",
		Voucher: &voucher.Voucher{ID: "v_1", Code: "C", Campaign: s("Spring"), CampaignID: s("camp_1"), Categories: []*campaign.Category{{ID: "cat_1", Name: "n", UpdatedAt: &at}},
			Gift: &voucher.Gift{Amount: 10, Balance: 5}, Metadata: promotype.Metadata{"y": "z"},
			Redemption:                 &voucher.Redemption{Quantity: n(10), RedeemedQuantity: 1, RedeemedAmount: n(5), Object: "list"},
			ValidationRulesAssignments: &promotype.List[*rule.Assignment]{Object: "list", DataRef: "data", Data: []*rule.Assignment{{ID: "asgm_1", ProjectID: "proj_1"}}, Total: 1},
			ProjectID:                  "proj_1", RedemptionQuantity: n(10), RedeemedQuantity: 1},
		PromotionTier: &TierRef{ID: "promo_1", CampaignID: s("camp_1")}, Reward: &RewardRef{ID: "rew_1"},
		Gift: &GiftAmount{Amount: 5}, LoyaltyCard: &LoyaltyPoints{Points: 1},
		Ledger: Ledger{ProjectID: "proj_1", Children: []string{"r_2"}, Counters: []CounterDelta{{Key: "k", Delta: 1, Max: n(2)}}, Answer: json.RawMessage(`{}`)},
	}
}

// TestRedemptionClone: a clone encodes as the original does, equals what
// decoding the original's JSON gives, and shares no memory with it.
func TestRedemptionClone(t *testing.T) {
	t.Parallel()
	r := fullRedemption()
	c := r.Clone()
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("clone's JSON (-want +got):\n%s", d)
	}
	var decoded Redemption
	if err := json.Unmarshal(want, &decoded); err != nil {
		t.Fatal(err)
	}
	decoded.Ledger = r.Ledger
	if d := cmp.Diff(&decoded, c); d != "" {
		t.Errorf("clone vs the decoded document (-want +got):\n%s", d)
	}
	// Change every part of the clone: the original stays as it was.
	*c.CustomerID, *c.TrackingID, *c.Redemption = "x", "x", "x"
	c.Metadata["a"].(map[string]any)["b"].([]any)[0] = 2.0
	c.RelatedRedemptions.Rollbacks[0].ID = "x"
	c.Order.Items[0].Quantity, *c.Order.Items[0].Price, c.Order.Metadata["x"], c.Order.Customer.ID = 9, 9, 9.0, "x"
	c.Order.Redemptions["r_1"].Stacked[0] = "x"
	c.Customer.ID = "x"
	*c.Voucher.Campaign, c.Voucher.Categories[0].Name, c.Voucher.Gift.Balance, c.Voucher.Metadata["y"] = "x", "x", 0, "x"
	*c.Voucher.Redemption.Quantity, c.Voucher.ValidationRulesAssignments.Data[0].ID = 0, "x"
	*c.PromotionTier.CampaignID, c.Reward.ID, c.Gift.Amount, c.LoyaltyCard.Points = "x", "x", 0, 0
	c.Ledger.Children[0], *c.Ledger.Counters[0].Max, c.Ledger.Answer[0] = "x", 0, 'x'
	if d := cmp.Diff(fullRedemption(), r); d != "" {
		t.Errorf("the original changed with its clone (-want +got):\n%s", d)
	}
}
