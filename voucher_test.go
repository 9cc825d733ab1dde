package promo_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

func discountParams(code string) voucher.Params {
	return voucher.Params{Code: promo.Ptr(code), Type: promo.Ptr(campaign.DiscountVoucher),
		Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("500")), Effect: campaign.EffectApplyToOrder}}
}

func createVoucher(t testing.TB, f fixture, in voucher.Params) *voucher.Voucher {
	t.Helper()
	return must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
}

func TestVoucherCreateEveryType(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		in := discountParams("WELCOME/10%")
		in.Category = promo.Ptr("New customers")
		start, end := at(0), at(30*24*time.Hour)
		in.StartDate, in.ExpirationDate = &start, &end
		in.ValidityDayOfWeek = []int{1, 2, 3, 4, 5}
		in.Active = promo.Ptr(false)
		in.AdditionalInfo = promo.Ptr("Inactive until enabled.")
		in.Metadata = promo.Metadata{"locale": "de-en"}
		in.Redemption = &campaign.RedemptionParams{Quantity: promo.Ptr[int64](10)}
		v := createVoucher(t, f, in)
		b, _ := json.Marshal(v)
		var got map[string]any
		_ = json.Unmarshal(b, &got)
		cat := must[*campaign.Category](t)(f.eng.Campaigns().GetCategory(ctx, f.project, "New customers"))
		want := map[string]any{
			"id": v.ID, "code": "WELCOME/10%", "campaign": nil, "campaign_id": nil, "category": "New customers", "category_id": cat.ID,
			"categories": []any{map[string]any{"id": cat.ID, "name": "New customers", "hierarchy": 0.0, "created_at": "2026-01-01T00:00:00.000Z", "object": "category"}},
			"type":       "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 500.0, "effect": "APPLY_TO_ORDER"},
			"gift": nil, "loyalty_card": nil,
			"start_date": "2026-01-01T00:00:00.000Z", "expiration_date": "2026-01-31T00:00:00.000Z",
			"validity_day_of_week": []any{1.0, 2.0, 3.0, 4.0, 5.0},
			"active":               false, "additional_info": "Inactive until enabled.", "metadata": map[string]any{"locale": "de-en"},
			"assets": map[string]any{
				"qr":      map[string]any{"id": "V0VMQ09NRS8xMCU", "url": "/v1/assets/qr/V0VMQ09NRS8xMCU"},
				"barcode": map[string]any{"id": "V0VMQ09NRS8xMCU", "url": "/v1/assets/barcode/V0VMQ09NRS8xMCU"},
			},
			"is_referral_code": false, "created_at": "2026-01-01T00:00:00.000Z", "updated_at": nil, "holder_id": nil, "referrer_id": nil,
			"object":                       "voucher",
			"publish":                      map[string]any{"object": "list", "count": 0.0, "url": "/v1/vouchers/WELCOME%2F10%25/publications?page=1&limit=10"},
			"redemption":                   map[string]any{"quantity": 10.0, "redeemed_quantity": 0.0, "object": "list", "url": "/v1/vouchers/WELCOME%2F10%25/redemptions?page=1&limit=10"},
			"validation_rules_assignments": map[string]any{"object": "list", "data_ref": "data", "data": []any{}, "total": 0.0, "has_more": false},
		}
		diff(t, "discount voucher as JSON", want, got)
		diff(t, "get by code", v, must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "WELCOME/10%")))
		diff(t, "get by id", v, must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, v.ID)))

		g := createVoucher(t, f, voucher.Params{Code: promo.Ptr("GIFT-1"), Type: promo.Ptr(campaign.GiftVoucher), Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](10000)}})
		if g.Gift == nil || g.Gift.Amount != 10000 || g.Gift.Balance != 10000 || *g.Gift.Effect != campaign.EffectApplyToOrder || g.Discount != nil || g.LoyaltyCard != nil ||
			g.Redemption.RedeemedAmount == nil || *g.Redemption.RedeemedAmount != 0 || g.Redemption.Quantity != nil || !g.Active {
			t.Errorf("gift voucher %+v %+v", g.Gift, g.Redemption)
		}
		loyal := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Loyal"), CampaignType: promo.Ptr(campaign.LoyaltyProgram),
			Voucher: &campaign.VoucherParams{LoyaltyCard: &campaign.LoyaltyCardSettings{Points: promo.Ptr[int64](0)}}})
		runPending(t, f)
		l := createVoucher(t, f, voucher.Params{Code: promo.Ptr("CARD-1"), Type: promo.Ptr(campaign.LoyaltyCard), Campaign: promo.Ptr("Loyal"),
			LoyaltyCard: &voucher.LoyaltyCardParams{Points: promo.Ptr[int64](700)}})
		if l.LoyaltyCard == nil || l.LoyaltyCard.Points != 700 || l.LoyaltyCard.Balance != 700 || l.Gift != nil || l.Discount != nil ||
			*l.Campaign != "Loyal" || *l.CampaignID != loyal.ID || *l.Redemption.RedeemedPoints != 0 {
			t.Errorf("loyalty card %+v", l)
		}
		if c := getCampaign(t, f, loyal.ID); c.VouchersCount != 1 {
			t.Errorf("loyal vouchers_count %d", c.VouchersCount)
		}
		// A random code: the default config, or the one given.
		r := createVoucher(t, f, voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("5")})
		if len(r.Code) != 8 {
			t.Errorf("default code %q", r.Code)
		}
		r = createVoucher(t, f, voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("5"),
			CodeConfig: &campaign.CodeConfig{Prefix: promo.Ptr("New-"), Pattern: promo.Ptr("GIFT-CARD-##"), Postfix: promo.Ptr("0"), Charset: promo.Ptr("X")}})
		if r.Code != "New-GIFT-CARD-XX0" {
			t.Errorf("configured code %q", r.Code)
		}
		// A STANDALONE campaign takes vouchers of its type.
		alone := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Alone"), Type: promo.Ptr(campaign.Standalone), Voucher: &campaign.VoucherParams{Discount: percentOff("5")}})
		runPending(t, f)
		in = discountParams("ALONE-1")
		in.CampaignID = &alone.ID
		if a := createVoucher(t, f, in); *a.Campaign != "Alone" {
			t.Errorf("standalone campaign voucher %+v", a)
		}
	})
}

func TestVoucherRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		createVoucher(t, f, discountParams("TAKEN"))
		coupons := createCampaign(t, f, discountCampaign("Coupons", 0))
		runPending(t, f)
		gifts := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Gifts"), CampaignType: promo.Ptr(campaign.GiftVouchers), Type: promo.Ptr(campaign.Standalone),
			Voucher: &campaign.VoucherParams{Gift: &campaign.GiftSettings{Amount: promo.Ptr[int64](100)}}})
		runPending(t, f)
		mod := func(code string, m func(p *voucher.Params)) voucher.Params {
			p := discountParams(code)
			m(&p)
			return p
		}
		tests := []struct {
			name    string
			in      voucher.Params
			code    int
			key     string
			details string
		}{
			{"code taken", discountParams("TAKEN"), 409, "duplicate_found", "Duplicated voucher exists with id TAKEN"},
			{"no type", mod("A", func(p *voucher.Params) { p.Type, p.Discount, p.Gift, p.LoyaltyCard = nil, nil, nil, nil }), 400, "invalid_payload", "Payload must have required property 'type'"},
			{"unknown type", mod("A", func(p *voucher.Params) { p.Type = promo.Ptr(campaign.VoucherType("COUPON")) }), 400, "invalid_payload", "Property .type must be equal to one of the allowed values: DISCOUNT_VOUCHER, GIFT_VOUCHER, LOYALTY_CARD"},
			{"no discount", mod("A", func(p *voucher.Params) { p.Discount = nil }), 400, "invalid_payload", "Payload must have required property 'discount' for a DISCOUNT_VOUCHER"},
			{"gift on a discount voucher", mod("A", func(p *voucher.Params) { p.Gift = &voucher.GiftParams{Amount: promo.Ptr[int64](1)} }), 400, "invalid_payload", "Property .gift is allowed only for GIFT_VOUCHER vouchers"},
			{"gift without amount", voucher.Params{Type: promo.Ptr(campaign.GiftVoucher), Gift: &voucher.GiftParams{}}, 400, "invalid_payload", "Property .gift must have required property 'amount'"},
			{"loyalty card without campaign", voucher.Params{Type: promo.Ptr(campaign.LoyaltyCard), LoyaltyCard: &voucher.LoyaltyCardParams{Points: promo.Ptr[int64](1)}}, 400, "invalid_payload", "Payload must have required property 'campaign_id' for a LOYALTY_CARD (the loyalty campaign it belongs to)"},
			{"campaign not standalone", mod("A", func(p *voucher.Params) { p.CampaignID = &coupons.ID }), 400, "invalid_campaign", "Campaign Coupons is not a STANDALONE campaign: add its vouchers with POST /v1/campaigns/" + coupons.ID + "/vouchers"},
			{"campaign of another type", mod("A", func(p *voucher.Params) { p.Campaign = promo.Ptr("Gifts") }), 400, "invalid_campaign", "A DISCOUNT_VOUCHER cannot join campaign Gifts, whose vouchers are GIFT_VOUCHER"},
			{"campaign and campaign_id", mod("A", func(p *voucher.Params) { p.Campaign, p.CampaignID = promo.Ptr("Gifts"), &gifts.ID }), 400, "invalid_payload", "Pass only one of the properties 'campaign' and 'campaign_id'"},
			{"unknown campaign", mod("A", func(p *voucher.Params) { p.Campaign = promo.Ptr("Nope") }), 404, "not_found", "Cannot find campaign with id Nope"},
			{"unknown category", mod("A", func(p *voucher.Params) { p.CategoryID = promo.Ptr("cat_nope") }), 404, "not_found", "Cannot find category with id cat_nope"},
			{"empty code", mod("", func(p *voucher.Params) {}), 400, "invalid_payload", "Property .code must NOT have fewer than 1 characters"},
			{"control character", mod("A\nB", func(p *voucher.Params) {}), 400, "invalid_payload", "Property .code must not hold control characters"},
			{"control character in charset", voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"), CodeConfig: &campaign.CodeConfig{Charset: promo.Ptr("AB\n")}}, 400, "invalid_code_config", "Property .code_config.charset must not hold control characters"},
			{"NUL in charset", voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"), CodeConfig: &campaign.CodeConfig{Charset: promo.Ptr("\x00")}}, 400, "invalid_code_config", "Property .code_config.charset must not hold control characters"},
			{"control character in pattern", voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"), CodeConfig: &campaign.CodeConfig{Pattern: promo.Ptr("#\x7f#")}}, 400, "invalid_code_config", "Property .code_config.pattern must not hold control characters"},
			{"control character in prefix", voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"), CodeConfig: &campaign.CodeConfig{Prefix: promo.Ptr("\u0001")}}, 400, "invalid_code_config", "Property .code_config.prefix must not hold control characters"},
			{"control character in postfix", voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"), CodeConfig: &campaign.CodeConfig{Postfix: promo.Ptr("\n")}}, 400, "invalid_code_config", "Property .code_config.postfix must not hold control characters"},
			{"bad code config", voucher.Params{Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"), CodeConfig: &campaign.CodeConfig{Pattern: promo.Ptr("NOHASH")}}, 400, "invalid_code_config", "Property .code_config.pattern must hold at least one '#' (a random character)"},
			{"bad discount", mod("A", func(p *voucher.Params) { p.Discount = &campaign.Discount{Type: "FREE"} }), 400, "invalid_payload", "Property .discount.type must be equal to one of the allowed values: AMOUNT, PERCENT, FIXED, UNIT"},
			{"expiration before start", mod("A", func(p *voucher.Params) { s, e := at(time.Hour), at(0); p.StartDate, p.ExpirationDate = &s, &e }), 400, "invalid_payload", "Property .expiration_date must be later than .start_date"},
			{"quantity 0", mod("A", func(p *voucher.Params) { p.Redemption = &campaign.RedemptionParams{Quantity: promo.Ptr[int64](0)} }), 400, "invalid_payload", "Property .redemption.quantity must be >= 1"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				_, err := f.eng.Vouchers().Create(ctx, f.project, tc.in)
				if e := wantErr(t, err, tc.code, tc.key); e.Details != tc.details {
					t.Errorf("details %q\nwant    %q", e.Details, tc.details)
				}
			})
		}
		if l := listVouchers(t, f, voucher.ListParams{}); l.Total != 1 {
			t.Errorf("refused creates stored something: %d vouchers", l.Total)
		}
	})
}

func TestVoucherUpdateEnableDelete(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := createCampaign(t, f, discountCampaign("Spring", 2))
		runPending(t, f)
		in := discountParams("V-1")
		in.Metadata = promo.Metadata{"a": 1.0}
		v := createVoucher(t, f, in)
		f.clock.Advance(time.Minute)
		u := must[*voucher.Voucher](t)(f.eng.Vouchers().Update(ctx, f.project, "V-1", voucher.UpdateParams{
			Discount: percentOff("15"), Common: voucher.Common{Metadata: promo.Metadata{"b": 2.0}, Category: promo.Ptr("Later"), AdditionalInfo: promo.Ptr("x")}}))
		if !u.Discount.PercentOff.Equal(promotype.NewDecimal("15")) || u.Metadata["a"] != nil || u.Metadata["b"] != 2.0 || *u.Category != "Later" ||
			u.UpdatedAt == nil || !u.UpdatedAt.Equal(at(time.Minute)) || u.Code != "V-1" || u.ID != v.ID {
			t.Errorf("updated %+v", u)
		}
		_, err := f.eng.Vouchers().Update(ctx, f.project, v.ID, voucher.UpdateParams{Type: promo.Ptr(campaign.GiftVoucher)})
		wantErr(t, err, 400, "invalid_payload")
		_, err = f.eng.Vouchers().Update(ctx, f.project, v.ID, voucher.UpdateParams{Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](1)}})
		wantErr(t, err, 400, "invalid_payload")
		_, err = f.eng.Vouchers().Update(ctx, f.project, "NOPE", voucher.UpdateParams{})
		wantErr(t, err, 404, "not_found")
		g := createVoucher(t, f, voucher.Params{Code: promo.Ptr("G-1"), Type: promo.Ptr(campaign.GiftVoucher), Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](100)}})
		g = must[*voucher.Voucher](t)(f.eng.Vouchers().Update(ctx, f.project, g.Code, voucher.UpdateParams{Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](300)}}))
		if g.Gift.Amount != 300 || g.Gift.Balance != 300 {
			t.Errorf("gift after update %+v", g.Gift)
		}

		// Enable and disable, by code or id: the hosted API's voucher transition.
		if d := must[*voucher.Voucher](t)(f.eng.Vouchers().SetActive(ctx, f.project, "V-1", false)); d.Active {
			t.Error("disable left the voucher active")
		}
		if e := must[*voucher.Voucher](t)(f.eng.Vouchers().SetActive(ctx, f.project, v.ID, true)); !e.Active {
			t.Error("enable left the voucher inactive")
		}
		codes := allCodes(t, f, c.ID)
		if d := must[*voucher.Voucher](t)(f.eng.Vouchers().SetActive(ctx, f.project, codes[0], false)); d.Active || *d.Campaign != "Spring" {
			t.Errorf("generated voucher disabled: %+v", d)
		}
		_, err = f.eng.Vouchers().SetActive(ctx, f.project, "NOPE", true)
		wantErr(t, err, 404, "not_found")

		// Delete: to the bin (the code is free again), or for good.
		must[struct{}](t)(struct{}{}, f.eng.Vouchers().Delete(ctx, f.project, codes[1], false))
		_, err = f.eng.Vouchers().Get(ctx, f.project, codes[1])
		wantErr(t, err, 404, "not_found")
		if got := getCampaign(t, f, c.ID); got.VouchersCount != 1 {
			t.Errorf("vouchers_count after delete %d", got.VouchersCount)
		}
		again := createVoucher(t, f, discountParams(codes[1]))
		must[struct{}](t)(struct{}{}, f.eng.Vouchers().Delete(ctx, f.project, again.ID, true))
		must[struct{}](t)(struct{}{}, f.eng.Vouchers().Delete(ctx, f.project, "V-1", true))
		err = f.eng.Vouchers().Delete(ctx, f.project, "V-1", true)
		wantErr(t, err, 404, "not_found")
		if l := listVouchers(t, f, voucher.ListParams{}); l.Total != 2 {
			t.Errorf("vouchers left: %d", l.Total)
		}
	})
}

func TestVoucherListFilters(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := createCampaign(t, f, discountCampaign("Spring", 3))
		runPending(t, f)
		f.clock.Advance(time.Minute)
		past, future := at(-time.Hour), at(time.Hour)
		expired := discountParams("EXPIRED")
		expired.StartDate, expired.ExpirationDate = promo.Ptr(at(-2*time.Hour)), &past
		expired.Category = promo.Ptr("Old")
		createVoucher(t, f, expired)
		f.clock.Advance(time.Minute)
		notYet := discountParams("NOT-YET")
		notYet.StartDate = &future
		createVoucher(t, f, notYet)
		f.clock.Advance(time.Minute)
		off := discountParams("OFF")
		off.Active = promo.Ptr(false)
		createVoucher(t, f, off)
		f.clock.Advance(time.Minute)
		gift := createVoucher(t, f, voucher.Params{Code: promo.Ptr("GIFT"), Type: promo.Ptr(campaign.GiftVoucher), Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](100)}})

		codes := func(p voucher.ListParams) []string {
			t.Helper()
			l := listVouchers(t, f, p)
			var out []string
			for _, v := range l.Data {
				if v.CampaignID != nil && *v.CampaignID == c.ID {
					out = append(out, "spring")
				} else {
					out = append(out, v.Code)
				}
			}
			if l.Total < len(out) {
				t.Errorf("total %d", l.Total)
			}
			return out
		}
		cond := func(field string, op promotype.Op, v ...string) voucher.ListParams {
			return voucher.ListParams{ListParams: promo.ListParams{Limit: 100, Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: field, Op: op, Values: v}}}}}
		}
		diff(t, "newest first", []string{"GIFT", "OFF", "NOT-YET", "EXPIRED", "spring", "spring", "spring"}, codes(voucher.ListParams{}))
		diff(t, "by type", []string{"GIFT"}, codes(cond("type", promotype.OpIs, "GIFT_VOUCHER")))
		diff(t, "$disabled", []string{"OFF"}, codes(cond("active", voucher.OpDisabled, "true")))
		diff(t, "$enabled false", []string{"OFF"}, codes(cond("active", voucher.OpEnabled, "false")))
		diff(t, "$expired", []string{"EXPIRED"}, codes(cond("active", voucher.OpExpired, "true")))
		diff(t, "$active", []string{"GIFT", "spring", "spring", "spring"}, codes(cond("active", voucher.OpActive, "true")))
		diff(t, "by campaign id", []string{"spring", "spring", "spring"}, codes(voucher.ListParams{CampaignID: &c.ID}))
		diff(t, "by campaign name", []string{"spring", "spring", "spring"}, codes(voucher.ListParams{Campaign: promo.Ptr("Spring")}))
		diff(t, "by unknown campaign name", []string{}, codes(voucher.ListParams{Campaign: promo.Ptr("Nope")}))
		diff(t, "by category", []string{"EXPIRED"}, codes(voucher.ListParams{Category: promo.Ptr("Old")}))
		diff(t, "by code", []string{"OFF"}, codes(voucher.ListParams{Code: promo.Ptr("OFF")}))
		diff(t, "by ids", []string{"GIFT"}, codes(voucher.ListParams{IDs: []string{gift.ID, "v_nope"}}))
		diff(t, "created after", []string{"GIFT", "OFF"}, codes(voucher.ListParams{CreatedAfter: promo.Ptr(at(150 * time.Second))}))
		alone := cond("campaign_id", promotype.OpIsUnknown)
		alone.Order, alone.Limit, alone.Page = "code", 2, 2
		diff(t, "alone, by code ascending, page 2", []string{"NOT-YET", "OFF"}, codes(alone))
		_, err := f.eng.Vouchers().List(ctx, f.project, cond("active", voucher.OpExpired, "false"))
		wantErr(t, err, 400, "invalid_query_params")
		_, err = f.eng.Vouchers().List(ctx, f.project, cond("price", promotype.OpIs, "1"))
		wantErr(t, err, 400, "invalid_query_params")
		_, err = f.eng.Vouchers().List(ctx, f.project, voucher.ListParams{ListParams: promo.ListParams{Order: "-type"}})
		wantErr(t, err, 400, "invalid_query_params")
	})
}
