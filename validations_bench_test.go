package promo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage/memory"
)

// BenchmarkStackableValidation measures Engine.Validations().Validate on
// the memory store: a 50-line cart of catalog products and 5
// redeemables — an item discount under a rule's applicable_to, gift
// credits, a percent code and two promotion tiers — with running totals.
func BenchmarkStackableValidation(b *testing.B) {
	f := newStackFixture(b, memory.New())
	var items []string
	for i := range 48 {
		src := fmt.Sprintf("sku-%d", i)
		if _, err := f.eng.Catalog().CreateProduct(ctx, f.project, js[catalog.ProductParams](b, fmt.Sprintf(`{"name":%q,"source_id":%q,"price":%d}`, src, src, 500+37*i))); err != nil {
			b.Fatal(err)
		}
		items = append(items, fmt.Sprintf(`{"source_id":%q,"related_object":"product","quantity":%d}`, src, 1+i%3))
	}
	items = append(items, `{"product_id":"`+f.ids["watchflix"]+`","quantity":1}`, `{"product_id":"`+f.ids["roses"]+`","quantity":2}`)
	in := js[redemption.ValidationParams](b, `{"customer":{"source_id":"alice"},"redeemables":[{"object":"voucher","id":"GNcuPKGe"},`+
		`{"object":"voucher","id":"M3X8IwW8","gift":{"credits":100}},{"object":"voucher","id":"39vnjyS8"},`+
		`{"object":"promotion_tier","id":"`+f.ids["tier40"]+`"},{"object":"promotion_tier","id":"`+f.ids["tier30"]+`"}],`+
		`"order":{"items":[`+strings.Join(items, ",")+`]}}`)
	if _, err := f.eng.StackingRules().Create(ctx, f.project, redemption.StackingRulesParams{ApplicableRedeemablesLimit: ptrInt(30)}); err != nil {
		b.Fatal(err)
	}
	v, err := f.eng.Validations().Validate(ctx, f.project, in)
	if err != nil {
		b.Fatal(err)
	}
	if !v.Valid || len(v.Redeemables) != 5 {
		b.Fatalf("valid %v, %d redeemables", v.Valid, len(v.Redeemables))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.eng.Validations().Validate(ctx, f.project, in); err != nil {
			b.Fatal(err)
		}
	}
}

func ptrInt(n int) *int { return &n }
