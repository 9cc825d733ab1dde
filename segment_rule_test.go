package promo_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
)

// TestSegmentRule gates a promotion tier and a voucher on customer.segment:
// promotion validation, stackable validation (with its explanation),
// qualifications and redemptions read the membership the customer's last
// change left, whether the request names the customer by id, by source id
// or by source id with metadata of its own.
func TestSegmentRule(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs := f.eng.Customers()
		gold := must[*segment.Segment](t)(f.eng.Segments().Create(ctx, f.project, goldFilter(segment.AutoUpdate)))
		vr := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"Gold only","rules":{"logic":"1","1":{"name":"customer.segment","conditions":{"$is":["`+gold.ID+`"]}}}}`)))
		notGold := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"Not gold","rules":{"logic":"1","1":{"name":"customer.segment","conditions":{"$not_in":["`+gold.ID+`"]}}}}`)))
		c := promotionCampaign(t, f, "Promos")
		tier := must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"Gold 100 off","action":{"discount":{"type":"AMOUNT","amount_off":100}},"validation_rules":["`+vr.ID+`"]}`)))
		other := must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID, decode[campaign.TierParams](t,
			`{"name":"Others 10 off","action":{"discount":{"type":"AMOUNT","amount_off":10}},"validation_rules":["`+notGold.ID+`"]}`)))
		historyVoucher(t, f.eng, f.project, "GOLD", `{"name":"Gold voucher","rules":{"logic":"1","1":{"name":"customer.segment","conditions":{"$in":["`+gold.ID+`"]}}}}`)
		alice := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("alice"), Metadata: promo.Metadata{"club": "gold"}}))
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("bob")}))

		tiers := func(cust string) []string {
			t.Helper()
			v := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project,
				decode[promotion.ValidationParams](t, `{"customer":`+cust+`,"order":{"amount":1000}}`), promotion.ValidationQuery{}))
			out := []string{}
			for _, p := range v.Promotions {
				out = append(out, p.ID)
			}
			return out
		}
		diff(t, "alice by source id", []string{tier.ID}, tiers(`{"source_id":"alice"}`))
		diff(t, "alice by id", []string{tier.ID}, tiers(`{"id":"`+alice.ID+`"}`))
		diff(t, "alice with metadata of her own", []string{tier.ID}, tiers(`{"source_id":"alice","metadata":{"x":1}}`))
		diff(t, "bob", []string{other.ID}, tiers(`{"source_id":"bob"}`))
		diff(t, "an unknown customer", []string{other.ID}, tiers(`{"source_id":"carol"}`))

		validate := func(cust string) *redemption.Validation {
			t.Helper()
			return must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, js[redemption.ValidationParams](t,
				`{"redeemables":[{"object":"voucher","id":"GOLD"},{"object":"promotion_tier","id":"`+tier.ID+`"}],"customer":`+cust+
					`,"order":{"amount":1000},"options":{"explain":true}}`)))
		}
		if v := validate(`{"source_id":"alice"}`); !v.Valid {
			t.Errorf("alice's stackable validation is not valid: %+v", v.InapplicableRedeemables)
		}
		v := validate(`{"source_id":"bob"}`)
		if v.Valid || len(v.InapplicableRedeemables) != 2 {
			t.Fatalf("bob's stackable validation: valid %v, %d inapplicable", v.Valid, len(v.InapplicableRedeemables))
		}
		for _, r := range v.InapplicableRedeemables {
			if r.Result.Error == nil || r.Result.Error.Key != "customer_rules_violated" {
				t.Errorf("%s: %+v", r.ID, r.Result.Error)
			}
			raw, _ := json.Marshal(r.Explanation)
			if !strings.Contains(string(raw), gold.ID) || !strings.Contains(string(raw), "customer.segment") {
				t.Errorf("%s: the explanation does not name the segment: %s", r.ID, raw)
			}
		}

		// Qualifications find the gated voucher and tier for alice only.
		qual := func(cust, scenario string) []string {
			t.Helper()
			q := must[*redemption.Qualification](t)(f.eng.Qualifications().Qualify(ctx, f.project, js[redemption.QualificationParams](t,
				`{"scenario":"`+scenario+`","customer":`+cust+`,"order":{"amount":1000},"options":{"limit":50}}`)))
			return qualifiedIDs(q)
		}
		for _, scenario := range []string{"ALL", "AUDIENCE_ONLY"} {
			got := qual(`{"source_id":"alice"}`, scenario)
			if !containsAll(got, "voucher:GOLD", "promotion_tier:"+tier.ID) || containsAll(got, "promotion_tier:"+other.ID) {
				t.Errorf("%s, alice: %v", scenario, got)
			}
			got = qual(`{"source_id":"bob"}`, scenario)
			if containsAll(got, "voucher:GOLD") || containsAll(got, "promotion_tier:"+tier.ID) || !containsAll(got, "promotion_tier:"+other.ID) {
				t.Errorf("%s, bob: %v", scenario, got)
			}
		}

		// Redemptions: bob is refused until he joins the club.
		_, err := f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("GOLD", "bob")), redemption.RedeemOptions{})
		wantErr(t, err, 400, "customer_rules_violated")
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("bob"), Metadata: promo.Metadata{"club": "platinum"}}))
		must[*redemption.Redemptions](t)(f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("GOLD", "bob")), redemption.RedeemOptions{}))
		diff(t, "bob after joining", []string{tier.ID}, tiers(`{"source_id":"bob"}`))

		// A rule naming a segment the project does not have is refused.
		_, err = f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"x","rules":{"logic":"1","1":{"name":"customer.segment","conditions":{"$is":["seg_nope"]}}}}`))
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "segment" {
			t.Errorf("404 names %s", e.ResourceType)
		}
	})
}

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, x := range list {
			found = found || x == w
		}
		if !found {
			return false
		}
	}
	return true
}
