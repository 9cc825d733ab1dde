package promotion

import (
	"fmt"
	"testing"
	"time"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/internal/cputime"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// benchFixture builds, deterministically, a cart of items lines and tiers
// tiers with two rules each — a customer-metadata rule every tier shares and
// an order-items rule on one product — of which matching name a product in
// the cart. Each tier takes 10% off its product's line.
func benchFixture(b *testing.B, items, tiers, matching int) (*Snapshot, Request) {
	return benchFixtureWith(b, items, tiers, matching, nil)
}

// benchFixtureWith is benchFixture with each tier's percent_off computed by
// formula (nil: static).
func benchFixtureWith(b *testing.B, items, tiers, matching int, formula *string) (*Snapshot, Request) {
	b.Helper()
	var lines []order.Item
	for i := range items {
		lines = append(lines, item(fmt.Sprintf("prod_cart_%d", i), int64(1000+i), 1+int64(i%3)))
	}
	ts := make([]Tier, tiers)
	for i := range tiers {
		product := fmt.Sprintf("prod_elsewhere_%d", i)
		if i < matching {
			product = fmt.Sprintf("prod_cart_%d", i%items)
		}
		p := program(b, `{"logic":"1 and 2","1":{"name":"customer.metadata","property":"segment","conditions":{"$is":["vip"]}},`+
			`"2":{"name":"order.items.any","conditions":{"$is":[{"id":"`+product+`","object":"product"}]},"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[1]}}}}}`)
		t := tier(fmt.Sprintf("promo_%06d", i), i, &discount.Discount{Type: discount.Percent, PercentOff: dec("10"), PercentOffFormula: formula, Effect: discount.ApplyToItems}, p)
		t.Applicability = &discount.Applicability{Included: []discount.Target{{Object: "product", ID: product, Effect: discount.ApplyToEvery}}}
		ts[i] = t
	}
	snap := NewSnapshot(ts, noUnits, time.UTC)
	return snap, Request{Order: cart(lines...), Customer: promotype.Metadata{"segment": "vip", "country": "PL"}, Now: now}
}

func BenchmarkValidate(b *testing.B) {
	cases := []struct{ items, tiers, matching int }{
		{50, 200, 40},
		{50, 200, 200},
		{50, 2000, 40},
		{50, 20000, 40},
		{50, 200000, 40},
		{500, 1000, 1000},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("items=%d/tiers=%d/matching=%d", c.items, c.tiers, c.matching), func(b *testing.B) {
			snap, req := benchFixture(b, c.items, c.tiers, c.matching)
			if got := len(snap.Validate(req)); got != c.matching {
				b.Fatalf("%d valid tiers, want %d", got, c.matching)
			}
			b.ReportAllocs()
			for b.Loop() {
				snap.Validate(req)
			}
		})
	}
}

// BenchmarkValidateFormula is BenchmarkValidate's fixtures with every
// tier's percentage static, computed by a typical formula on the order
// amount, and by one reading the customer's metadata and the line's price
// (the same 10% each time), side by side.
func BenchmarkValidateFormula(b *testing.B) {
	typical := `IF(ORDER_AMOUNT > 200;10;5)`
	heavier := `IF(CUSTOMER_METADATA("segment") is "vip" AND ORDER_ITEM_PRICE > 5;10;5)`
	total := func(rs []Result) (n int64) {
		for _, r := range rs {
			n += r.DiscountAmount
		}
		return n
	}
	for _, c := range []struct{ items, tiers, matching int }{{50, 200, 40}, {50, 200, 200}, {500, 1000, 1000}} {
		static, req := benchFixtureWith(b, c.items, c.tiers, c.matching, nil)
		want := total(static.Validate(req))
		for _, v := range []struct {
			name    string
			formula *string
		}{{"static", nil}, {"formula", &typical}, {"formula_metadata_item", &heavier}} {
			b.Run(fmt.Sprintf("items=%d/tiers=%d/matching=%d/%s", c.items, c.tiers, c.matching, v.name), func(b *testing.B) {
				snap, req := benchFixtureWith(b, c.items, c.tiers, c.matching, v.formula)
				if res := snap.Validate(req); len(res) != c.matching || total(res) != want {
					b.Fatalf("%d valid tiers taking %d, want %d taking %d", len(res), total(res), c.matching, want)
				}
				b.ReportAllocs()
				cpu0 := cputime.Used()
				for b.Loop() {
					snap.Validate(req)
				}
				b.ReportMetric(float64(cputime.Used()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
