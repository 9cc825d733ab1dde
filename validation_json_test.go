package promo_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotion"
)

// TestValidationAppendJSON checks that the validation's own encoder writes
// byte for byte what encoding/json writes for it (without HTML escaping),
// over tiers that discount the order, some lines, and add a line.
func TestValidationAppendJSON(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		prod := must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{
			Name: promo.Ptr("Gift <&>"), Price: promo.Ptr(int64(700))}))
		c := promotionCampaign(t, f, "Mixed")
		for _, body := range []string{
			`{"name":"order","banner":"<b>10%</b>","action":{"discount":{"type":"PERCENT","percent_off":10}},"metadata":{"html":"a<b>&c"}}`,
			`{"name":"gift","action":{"discount":{"type":"UNIT","unit_off":2,"unit_type":"` + prod.ID + `","effect":"ADD_NEW_ITEMS"}}}`,
			`{"name":"items","action":{"discount":{"type":"AMOUNT","amount_off":50,"effect":"APPLY_TO_ITEMS_PROPORTIONALLY"}}}`,
		} {
			must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t, body)))
		}
		in := decode[promotion.ValidationParams](t, `{"customer":{"source_id":"alice"},"order":{"items":[`+
			`{"price":2900,"quantity":2,"metadata":{"note":"<x>"}},{"price":1500,"quantity":1}],"metadata":{"channel":"web & app"}}}`)
		res := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project, in, promotion.ValidationQuery{}))
		if len(res.Promotions) != 3 {
			t.Fatalf("%d valid tiers, want 3", len(res.Promotions))
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res); err != nil {
			t.Fatal(err)
		}
		got, err := res.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Errorf("AppendJSON:\n%s\nencoding/json:\n%s", got, w)
		}
		if !json.Valid(got) || !bytes.Contains(got, []byte(`"quantity":2,"discount_quantity":2`)) {
			t.Errorf("the gift tier's added line is missing:\n%s", got)
		}
	})
}
