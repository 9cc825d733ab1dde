package promotion

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

var now = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func item(product string, price, qty int64) order.Item {
	return order.Item{Object: "order_item", ProductID: product, Price: &price, Quantity: qty, InitialQuantity: qty, Amount: price * qty, InitialAmount: price * qty}
}

func cart(items ...order.Item) *order.Order {
	o := &order.Order{Items: items, Object: "order"}
	for _, it := range items {
		o.Amount += it.Amount
	}
	o.InitialAmount = o.Amount
	o.Recompute()
	return o
}

func program(t testing.TB, js string) *rule.Program {
	t.Helper()
	var s rule.RuleSet
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	p, err := rule.Compile(s, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func dec(s string) *promotype.Decimal { d := promotype.NewDecimal(s); return &d }

func tier(id string, created int, d *discount.Discount, progs ...*rule.Program) Tier {
	return Tier{ID: id, Name: id, Active: true, Campaign: CampaignInfo{ID: "camp_1", Active: true}, Discount: d,
		Programs: progs, CreatedAt: promotype.NewTime(now.Add(time.Duration(created) * time.Minute))}
}

func amountOff(n string) *discount.Discount {
	return &discount.Discount{Type: discount.Amount, AmountOff: dec(n), Effect: discount.ApplyToOrder}
}

func noUnits(string) (order.Item, bool) { return order.Item{}, false }

func ids(rs []Result) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Tier.ID)
	}
	return out
}

func TestValidate(t *testing.T) {
	t.Parallel()
	hasMug := program(t, `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_mug","object":"product"}]}}}`)
	hasHat := program(t, `{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_hat","object":"product"}]}}}`)
	gold := program(t, `{"logic":"1","1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}}}`)
	closed := tier("promo_closed", 5, amountOff("1"))
	closed.Validity = campaign.Validity{ExpirationDate: promotype.NewTime(now.Add(-time.Hour)).Ptr()}
	off := tier("promo_off", 6, amountOff("1"))
	off.Active = false
	campaignOff := tier("promo_campaign_off", 7, amountOff("1"))
	campaignOff.Campaign.Active = false
	snap := NewSnapshot([]Tier{
		tier("promo_a", 1, amountOff("100")),
		tier("promo_mug", 2, &discount.Discount{Type: discount.Percent, PercentOff: dec("10")}, hasMug),
		tier("promo_hat", 3, amountOff("5"), hasHat),
		tier("promo_gold_mug", 4, amountOff("7"), gold, hasMug),
		closed, off, campaignOff,
	}, noUnits, time.UTC)

	o := cart(item("prod_mug", 2000, 1), item("prod_pen", 8000, 1))
	res := snap.Validate(Request{Order: o, Customer: promotype.Metadata{"tier": "gold"}, Now: now})
	if d := cmp.Diff([]string{"promo_gold_mug", "promo_mug", "promo_a"}, ids(res)); d != "" {
		t.Errorf("valid tiers, newest first (-want +got):\n%s", d)
	}
	// Each tier is priced on its own copy of the original order.
	want := map[string]int64{"promo_gold_mug": 7, "promo_mug": 1000, "promo_a": 100}
	for _, r := range res {
		if r.DiscountAmount != want[r.Tier.ID] || r.Order.Amounts().TotalAmount != 10000-want[r.Tier.ID] || r.Order.Amounts().InitialAmount != 10000 {
			t.Errorf("%s: discount %d total %d", r.Tier.ID, r.DiscountAmount, r.Order.Amounts().TotalAmount)
		}
	}
	if o.TotalAmount != 10000 || o.TotalDiscountAmount != 0 {
		t.Errorf("the request's order was changed: %+v", o)
	}
	// Without the customer fact the gold tier fails.
	res = snap.Validate(Request{Order: o, Now: now})
	if d := cmp.Diff([]string{"promo_mug", "promo_a"}, ids(res)); d != "" {
		t.Errorf("without gold (-want +got):\n%s", d)
	}
	// Filters keep the tiers asked for.
	res = snap.Validate(Request{Order: o, Now: now, Only: func(t *Tier) bool { return t.ID == "promo_a" }})
	if d := cmp.Diff([]string{"promo_a"}, ids(res)); d != "" {
		t.Errorf("filtered (-want +got):\n%s", d)
	}
}

func TestValidateTotalAmountRule(t *testing.T) {
	t.Parallel()
	// order.total_amount reads the total after this tier: 10000 - 3000 = 7000.
	below := program(t, `{"logic":"1","1":{"name":"order.total_amount","conditions":{"$less_than":[8000]}}}`)
	above := program(t, `{"logic":"1","1":{"name":"order.total_amount","conditions":{"$more_than":[8000]}}}`)
	snap := NewSnapshot([]Tier{tier("promo_below", 1, amountOff("3000"), below), tier("promo_above", 2, amountOff("3000"), above)}, noUnits, time.UTC)
	res := snap.Validate(Request{Order: cart(item("prod_a", 10000, 1)), Now: now})
	if d := cmp.Diff([]string{"promo_below"}, ids(res)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestValidateAudienceOnly(t *testing.T) {
	t.Parallel()
	p := program(t, `{"logic":"1 and 2","1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},"2":{"name":"order.amount","conditions":{"$more_than":[999999]}}}`)
	snap := NewSnapshot([]Tier{tier("promo_1", 1, amountOff("1"), p)}, noUnits, time.UTC)
	req := Request{Order: cart(item("prod_a", 100, 1)), Customer: promotype.Metadata{"tier": "gold"}, Now: now}
	if len(snap.Validate(req)) != 0 {
		t.Error("the order rule must fail")
	}
	req.AudienceOnly = true
	if len(snap.Validate(req)) != 1 {
		t.Error("audienceRulesOnly must check only the customer rule")
	}
}

// E10 with tiers: lines 2000 + 700; AMOUNT 1000 to items, 100 to the order
// (the gift credits of the example), 40% to the order, 30 to the order.
func TestStackRunningTotals(t *testing.T) {
	t.Parallel()
	items := &discount.Applicability{IncludedAll: true}
	t1 := tier("promo_items", 1, &discount.Discount{Type: discount.Amount, AmountOff: dec("1000"), Effect: discount.ApplyToItems})
	t1.Applicability = items
	closed := tier("promo_closed", 9, amountOff("1"))
	closed.Active = false
	snap := NewSnapshot([]Tier{t1, tier("promo_credit", 2, amountOff("100")),
		tier("promo_40", 3, &discount.Discount{Type: discount.Percent, PercentOff: dec("40"), Effect: discount.ApplyToOrder}),
		tier("promo_30", 4, amountOff("30")), closed}, noUnits, time.UTC)
	steps, final := snap.Stack([]string{"promo_items", "promo_credit", "promo_closed", "promo_40", "promo_30", "promo_missing"},
		Request{Order: cart(item("prod_a", 2000, 1), item("prod_b", 700, 1)), Now: now})
	type row struct {
		ID                                      string
		Valid                                   bool
		Applied, Discount, TotalDiscount, Total int64
	}
	var got []row
	for _, s := range steps {
		got = append(got, row{s.TierID, s.Valid, s.Order.TotalAppliedDiscountAmount, s.Order.DiscountAmount, s.Order.TotalDiscountAmount, s.Order.TotalAmount})
	}
	want := []row{
		{"promo_items", true, 1700, 0, 1700, 1000},
		{"promo_credit", true, 100, 100, 1800, 900},
		{"promo_closed", false, 0, 100, 1800, 900},
		{"promo_40", true, 360, 460, 2160, 540},
		{"promo_30", true, 30, 490, 2190, 510},
		{"promo_missing", false, 0, 490, 2190, 510},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
	if final.TotalAmount != 510 {
		t.Errorf("final total %d, want 510", final.TotalAmount)
	}
}

// A tier whose rules need a product the cart lacks is never visited: the
// index returns only the tiers a request can satisfy.
func TestIndexSkipsUnmatchableTiers(t *testing.T) {
	t.Parallel()
	var tiers []Tier
	for i := range 1000 {
		p := program(t, fmt.Sprintf(`{"logic":"1","1":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_%d","object":"product"}]}}}`, i))
		tiers = append(tiers, tier(fmt.Sprintf("promo_%04d", i), i, amountOff("1"), p))
	}
	snap := NewSnapshot(tiers, noUnits, time.UTC)
	in := ruleInput(cart(item("prod_7", 100, 1), item("prod_900", 100, 1)), nil, nil, nil, nil)
	if got := snap.index.Candidates(in.Facts(nil), nil); len(got) != 2 {
		t.Errorf("visited %d tiers, want 2", len(got))
	}
}
