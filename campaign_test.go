package promo_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/async"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// runPending runs every pending async action.
func runPending(t testing.TB, f fixture) int {
	t.Helper()
	n, err := f.eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 7})
	if err != nil {
		t.Fatalf("RunPending: %v", err)
	}
	return n
}

func percentOff(p string) *campaign.Discount {
	return &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal(p))}
}

func discountCampaign(name string, count int64) campaign.Params {
	return campaign.Params{Name: promo.Ptr(name), VouchersCount: promo.Ptr(count),
		Voucher: &campaign.VoucherParams{Discount: percentOff("10")}}
}

func createCampaign(t testing.TB, f fixture, in campaign.Params) *campaign.Campaign {
	t.Helper()
	return must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, in))
}

func getCampaign(t testing.TB, f fixture, ref string) *campaign.Campaign {
	t.Helper()
	return must[*campaign.Campaign](t)(f.eng.Campaigns().Get(ctx, f.project, ref))
}

func listVouchers(t testing.TB, f fixture, p voucher.ListParams) *promo.List[*voucher.Voucher] {
	t.Helper()
	return must[*promo.List[*voucher.Voucher]](t)(f.eng.Vouchers().List(ctx, f.project, p))
}

// allCodes lists the codes of a campaign's vouchers.
func allCodes(t testing.TB, f fixture, campaignID string) []string {
	t.Helper()
	var codes []string
	for page := 1; ; page++ {
		l := listVouchers(t, f, voucher.ListParams{ListParams: promo.ListParams{Limit: 100, Page: page, Order: "code"}, CampaignID: &campaignID})
		for _, v := range l.Data {
			codes = append(codes, v.Code)
		}
		if !l.HasMore {
			return codes
		}
	}
}

func TestCampaignCreateEveryType(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		gift := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Gifts"), CampaignType: promo.Ptr(campaign.GiftVouchers), VouchersCount: promo.Ptr[int64](3),
			Voucher: &campaign.VoucherParams{Gift: &campaign.GiftSettings{Amount: promo.Ptr[int64](5000)}, CodeConfig: &campaign.CodeConfig{Pattern: promo.Ptr("GIFT-####-##"), Charset: promo.Ptr("ABCDEF")}}})
		loyal := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Loyal"), CampaignType: promo.Ptr(campaign.LoyaltyProgram), VouchersCount: promo.Ptr[int64](2), JoinOnce: promo.Ptr(false),
			Voucher: &campaign.VoucherParams{LoyaltyCard: &campaign.LoyaltyCardSettings{Points: promo.Ptr[int64](100),
				ExpirationRules: &campaign.ExpirationRules{PeriodType: "MONTH", PeriodValue: promo.Ptr(3), RoundingType: promo.Ptr("END_OF_YEAR")}}}})
		ref := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Referrals"), CampaignType: promo.Ptr(campaign.ReferralProgram), VouchersCount: promo.Ptr[int64](1),
			Voucher:         &campaign.VoucherParams{Discount: &campaign.Discount{Type: campaign.DiscountAmount, AmountOff: promo.Ptr(promotype.NewDecimal("1000"))}},
			ReferralProgram: &campaign.ReferralSettings{ConversionEventType: promo.Ptr("redemption")}})
		promoC := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Promos"), CampaignType: promo.Ptr(campaign.Promotion)})
		coupons := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Coupons"), Voucher: &campaign.VoucherParams{Discount: percentOff("15")}, VouchersCount: promo.Ptr[int64](4), JoinOnce: promo.Ptr(true)})
		standalone := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Alone"), Type: promo.Ptr(campaign.Standalone), JoinOnce: promo.Ptr(true),
			Voucher: &campaign.VoucherParams{Discount: percentOff("5")}})

		// Statuses on create: the hosted API's first transition; a campaign with
		// nothing to generate is DONE at once (issue 29).
		for _, c := range []*campaign.Campaign{gift, loyal, ref, coupons, standalone} {
			want := campaign.StatusInProgress
			if c == standalone {
				want = campaign.StatusDone
			}
			if c.CreationStatus != want || c.VouchersGenerationStatus != want || c.VouchersCount != 0 {
				t.Errorf("%s on create: %s/%s, %d vouchers, want %s", c.Name, c.CreationStatus, c.VouchersGenerationStatus, c.VouchersCount, want)
			}
			if c.Promotion != nil {
				t.Errorf("%s has a promotion list", c.Name)
			}
		}
		if promoC.CreationStatus != campaign.StatusDone || promoC.VouchersGenerationStatus != campaign.StatusDone || promoC.Voucher != nil ||
			promoC.Promotion == nil || promoC.Promotion.Total != 0 || promoC.Type != campaign.Static {
			t.Errorf("promotion on create: %+v", promoC)
		}
		// Defaults and forced values.
		if coupons.CampaignType != campaign.DiscountCoupons || coupons.Type != campaign.AutoUpdate || !coupons.JoinOnce || !coupons.Active {
			t.Errorf("coupons defaults: %+v", coupons)
		}
		if !loyal.JoinOnce {
			t.Error("join_once is not forced true for LOYALTY_PROGRAM")
		}
		if standalone.JoinOnce {
			t.Error("join_once is not forced false for STANDALONE")
		}
		if !ref.Voucher.IsReferralCode || ref.ReferralProgram == nil {
			t.Errorf("referral settings: %+v", ref.Voucher)
		}
		cc := coupons.Voucher.CodeConfig
		if *cc.Length != 8 || *cc.Charset != campaign.Alphanumeric || *cc.Pattern != "########" || cc.Prefix != nil {
			t.Errorf("default code config: %+v", cc)
		}
		if *gift.Voucher.CodeConfig.Length != 6 || *gift.Voucher.Gift.Effect != campaign.EffectApplyToOrder {
			t.Errorf("gift settings: %+v %+v", gift.Voucher.CodeConfig, gift.Voucher.Gift)
		}
		// No metadata answers null (docs/behaviour.md, issue 29).
		if len(coupons.Categories) != 0 || coupons.Categories == nil || coupons.ValidationRulesAssignments == nil || coupons.Metadata != nil {
			t.Errorf("empty lists: %+v", coupons)
		}

		runPending(t, f)
		for name, want := range map[string]int64{"Gifts": 3, "Loyal": 2, "Referrals": 1, "Coupons": 4, "Alone": 0, "Promos": 0} {
			c := getCampaign(t, f, name)
			if c.CreationStatus != campaign.StatusDone || c.VouchersGenerationStatus != campaign.StatusDone || c.VouchersCount != want {
				t.Errorf("%s after generation: %s/%s, %d vouchers, want DONE with %d", name, c.CreationStatus, c.VouchersGenerationStatus, c.VouchersCount, want)
			}
		}
		// Generated vouchers follow the code config and the campaign's settings.
		re := regexp.MustCompile(`^GIFT-[A-F]{4}-[A-F]{2}$`)
		for _, code := range allCodes(t, f, gift.ID) {
			if !re.MatchString(code) {
				t.Errorf("gift code %q does not follow GIFT-####-## over ABCDEF", code)
			}
			v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, code))
			if v.Type != campaign.GiftVoucher || v.Gift == nil || v.Gift.Amount != 5000 || v.Gift.Balance != 5000 || v.Discount != nil || v.LoyaltyCard != nil ||
				*v.Campaign != "Gifts" || *v.CampaignID != gift.ID {
				t.Errorf("gift voucher %+v", v)
			}
		}
		for _, code := range allCodes(t, f, loyal.ID) {
			v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, code))
			if v.Type != campaign.LoyaltyCard || v.LoyaltyCard == nil || v.LoyaltyCard.Points != 100 || v.LoyaltyCard.Balance != 100 || v.Gift != nil || v.Discount != nil {
				t.Errorf("loyalty card %+v", v)
			}
		}
		for _, code := range allCodes(t, f, ref.ID) {
			v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, code))
			if !v.IsReferralCode || v.Discount == nil || !v.Discount.AmountOff.Equal(promotype.NewDecimal("1000")) {
				t.Errorf("referral code %+v", v)
			}
		}
	})
}

func TestCampaignGetListByNameAndCategory(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := must[*campaign.Category](t)(f.eng.Campaigns().CreateCategory(ctx, f.project, campaign.CategoryParams{Name: promo.Ptr("First"), Hierarchy: promo.Ptr(1)}))
		in := discountCampaign("Spring Sale", 2)
		in.Category = promo.Ptr("First")
		in.Description = promo.Ptr("Spring")
		in.Metadata = promo.Metadata{"region": "EU"}
		start, end := at(time.Hour), at(48*time.Hour)
		in.StartDate, in.ExpirationDate = &start, &end
		in.ValidityTimeframe = &campaign.ValidityTimeframe{Interval: "P2D", Duration: "PT1H"}
		in.ValidityDayOfWeek = []int{0, 1, 6}
		in.ValidityHours = &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "12:00", ExpirationTime: "14:00", DaysOfWeek: []int{1, 2}}}}
		in.ActivityDurationAfterPublishing = promo.Ptr("P24D")
		c := createCampaign(t, f, in)
		if *c.CategoryID != cat.ID || *c.Category != "First" || len(c.Categories) != 1 || c.Categories[0].Name != "First" || c.Categories[0].Object != "category" {
			t.Errorf("category on create: %v %v %+v", c.CategoryID, c.Category, c.Categories)
		}
		if !c.Voucher.StartDate.Equal(start) || c.Voucher.ValidityTimeframe.Interval != "P2D" {
			t.Errorf("voucher settings mirror the validity: %+v", c.Voucher)
		}
		// A category named by a name no category has is created.
		in2 := discountCampaign("Summer Sale", 0)
		in2.Category = promo.Ptr("Second")
		c2 := createCampaign(t, f, in2)
		second := must[*campaign.Category](t)(f.eng.Campaigns().GetCategory(ctx, f.project, "Second"))
		if *c2.CategoryID != second.ID || second.Hierarchy != 0 {
			t.Errorf("created category %+v for %v", second, c2.CategoryID)
		}
		cats := must[*promo.List[*campaign.Category]](t)(f.eng.Campaigns().ListCategories(ctx, f.project, promo.ListParams{Order: "name"}))
		if cats.Total != 2 || cats.Data[0].Name != "First" {
			t.Errorf("categories %+v", cats.Data)
		}
		createCampaign(t, f, campaign.Params{Name: promo.Ptr("Promo"), CampaignType: promo.Ptr(campaign.Promotion)})

		byName := getCampaign(t, f, "Spring Sale")
		byID := getCampaign(t, f, c.ID)
		diff(t, "by name and by id", byID, byName)
		if c.AsyncActionID == "" {
			t.Error("create returned no AsyncActionID for a campaign with vouchers to generate")
		}
		c.AsyncActionID = "" // the create's answer only
		diff(t, "get after create", c, byID)

		list := func(p campaign.ListParams) []string {
			t.Helper()
			l := must[*promo.List[*campaign.Campaign]](t)(f.eng.Campaigns().List(ctx, f.project, p))
			var names []string
			for _, c := range l.Data {
				names = append(names, c.Name)
				if !p.ExpandCategory && len(c.Categories) != 0 {
					t.Errorf("%s lists categories without expand=category", c.Name)
				}
				if p.ExpandCategory && c.CategoryID != nil && len(c.Categories) != 1 {
					t.Errorf("%s lists no category with expand=category", c.Name)
				}
				if c.Category == nil && c.CategoryID != nil {
					t.Errorf("%s has no category name", c.Name)
				}
			}
			return names
		}
		diff(t, "list newest first", []string{"Promo", "Summer Sale", "Spring Sale"}, list(campaign.ListParams{}))
		diff(t, "list expanded", []string{"Promo", "Summer Sale", "Spring Sale"}, list(campaign.ListParams{ExpandCategory: true}))
		diff(t, "by campaign_type", []string{"Promo"}, list(campaign.ListParams{CampaignType: promo.Ptr(campaign.Promotion)}))
		diff(t, "by campaign_status", []string{"Spring Sale"}, list(campaign.ListParams{Status: promo.Ptr(campaign.StatusInProgress)}))
		diff(t, "by campaign_status DONE", []string{"Promo", "Summer Sale"}, list(campaign.ListParams{Status: promo.Ptr(campaign.StatusDone)}))
		diff(t, "by name filter", []string{"Spring Sale"}, list(campaign.ListParams{ListParams: promo.ListParams{
			Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "name", Op: promotype.OpStartsWith, Values: []string{"Spr"}}}}}}))
		diff(t, "oldest first, page 2", []string{"Summer Sale"}, list(campaign.ListParams{ListParams: promo.ListParams{Order: "created_at", Limit: 1, Page: 2}}))
		_, err := f.eng.Campaigns().List(ctx, f.project, campaign.ListParams{ListParams: promo.ListParams{Order: "name"}})
		wantErr(t, err, 400, "invalid_query_params")

		_, err = f.eng.Campaigns().Get(ctx, f.project, "Nope")
		e := wantErr(t, err, 404, "not_found")
		if e.Details != "Cannot find campaign with id Nope" || e.ResourceType != "campaign" {
			t.Errorf("404 %+v", e)
		}
	})
}

func TestCampaignRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		createCampaign(t, f, discountCampaign("Taken", 0))
		d := func(mod func(p *campaign.Params)) campaign.Params {
			p := discountCampaign("New", 1)
			mod(&p)
			return p
		}
		tests := []struct {
			name    string
			in      campaign.Params
			code    int
			key     string
			details string
		}{
			{"no name", d(func(p *campaign.Params) { p.Name = nil }), 400, "invalid_payload", "Payload must have required property 'name'"},
			{"name taken", d(func(p *campaign.Params) { p.Name = promo.Ptr("Taken") }), 409, "duplicate_found", "Duplicated campaign exists with name Taken"},
			{"category and category_id", d(func(p *campaign.Params) { p.Category, p.CategoryID = promo.Ptr("a"), promo.Ptr("cat_1") }), 400, "invalid_payload", "Pass only one of the properties 'category' and 'category_id'"},
			{"unknown category_id", d(func(p *campaign.Params) { p.CategoryID = promo.Ptr("cat_nope") }), 404, "not_found", "Cannot find category with id cat_nope"},
			{"two validation rules", d(func(p *campaign.Params) { p.ValidationRules = []string{"val_1", "val_2"} }), 400, "invalid_payload", "Property .validation_rules must NOT have more than 1 items"},
			{"unknown campaign type", d(func(p *campaign.Params) { p.CampaignType = promo.Ptr(campaign.CampaignType("CASHBACK")) }), 400, "invalid_payload", "Property .campaign_type must be equal to one of the allowed values: DISCOUNT_COUPONS, REFERRAL_PROGRAM, GIFT_VOUCHERS, LOYALTY_PROGRAM, PROMOTION"},
			{"no discount", d(func(p *campaign.Params) { p.Voucher = nil }), 400, "invalid_campaign", "Property 'discount' is required for DISCOUNT_COUPONS campaign"},
			{"gift in a discount campaign", d(func(p *campaign.Params) { p.Voucher.Gift = &campaign.GiftSettings{Amount: promo.Ptr[int64](1)} }), 400, "invalid_campaign", "Property 'voucher.gift' is not allowed for DISCOUNT_COUPONS campaign"},
			{"voucher type mismatch", d(func(p *campaign.Params) {
				p.CampaignType, p.Voucher.Type = promo.Ptr(campaign.DiscountCoupons), promo.Ptr(campaign.GiftVoucher)
			}), 400, "invalid_campaign", "Property 'voucher.type' must be DISCOUNT_VOUCHER for DISCOUNT_COUPONS campaign"},
			{"no gift", campaign.Params{Name: promo.Ptr("G"), CampaignType: promo.Ptr(campaign.GiftVouchers)}, 400, "invalid_campaign", "Property 'gift' is required for GIFT_VOUCHERS campaign"},
			{"gift amount 0", campaign.Params{Name: promo.Ptr("G"), CampaignType: promo.Ptr(campaign.GiftVouchers), Voucher: &campaign.VoucherParams{Gift: &campaign.GiftSettings{Amount: promo.Ptr[int64](0)}}}, 400, "invalid_payload", "Property .voucher.gift.amount must be > 0"},
			{"no loyalty card", campaign.Params{Name: promo.Ptr("L"), CampaignType: promo.Ptr(campaign.LoyaltyProgram), Voucher: &campaign.VoucherParams{}}, 400, "invalid_campaign", "Property 'loyalty_card' is required for LOYALTY_PROGRAM campaign"},
			{"voucher in a promotion", campaign.Params{Name: promo.Ptr("P"), CampaignType: promo.Ptr(campaign.Promotion), Voucher: &campaign.VoucherParams{}}, 400, "invalid_campaign", "Property 'voucher' is not allowed for PROMOTION campaign"},
			{"tier without a name", campaign.Params{Name: promo.Ptr("P"), CampaignType: promo.Ptr(campaign.Promotion), Promotion: &campaign.PromotionParams{Tiers: []campaign.TierParams{{Banner: promo.Ptr("b")}}}}, 400, "invalid_payload", "Payload must have required property 'name'"},
			{"standalone loyalty", campaign.Params{Name: promo.Ptr("L"), CampaignType: promo.Ptr(campaign.LoyaltyProgram), Type: promo.Ptr(campaign.Standalone)}, 400, "invalid_campaign", "A STANDALONE campaign must be a DISCOUNT_COUPONS or GIFT_VOUCHERS campaign, not LOYALTY_PROGRAM"},
			{"referral program elsewhere", d(func(p *campaign.Params) { p.ReferralProgram = &campaign.ReferralSettings{} }), 400, "invalid_campaign", "Property 'referral_program' is allowed only for REFERRAL_PROGRAM campaign"},
			{"timeframe without start", d(func(p *campaign.Params) {
				p.ValidityTimeframe = &campaign.ValidityTimeframe{Interval: "P1D", Duration: "PT1H"}
			}), 400, "invalid_payload", "Property .validity_timeframe requires .start_date"},
			{"bad interval", d(func(p *campaign.Params) {
				p.ValidityTimeframe = &campaign.ValidityTimeframe{Interval: "2 days", Duration: "PT1H"}
			}), 400, "invalid_payload", "Property .validity_timeframe.interval must be an ISO 8601 duration (e.g. P2D): invalid syntax"},
			{"day of week 7", d(func(p *campaign.Params) { p.ValidityDayOfWeek = []int{1, 7} }), 400, "invalid_payload", "Property .validity_day_of_week[1] must be between 0 (Sunday) and 6 (Saturday)"},
			{"hours overlap", d(func(p *campaign.Params) {
				p.ValidityHours = &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "10:00", ExpirationTime: "12:00", DaysOfWeek: []int{1}}, {StartTime: "11:00", ExpirationTime: "13:00", DaysOfWeek: []int{1, 2}}}}
			}), 400, "invalid_payload", "Property .validity_hours.daily[1] overlaps another period on day 1: periods must not overlap"},
			{"hours format", d(func(p *campaign.Params) {
				p.ValidityHours = &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "25:00", ExpirationTime: "26:00", DaysOfWeek: []int{1}}}}
			}), 400, "invalid_payload", "Property .validity_hours.daily[0].start_time must be a time in the HH:mm format"},
			{"expiration before start", d(func(p *campaign.Params) { s, e := at(time.Hour), at(0); p.StartDate, p.ExpirationDate = &s, &e }), 400, "invalid_payload", "Property .expiration_date must be later than .start_date"},
			{"bad activity duration", d(func(p *campaign.Params) { p.ActivityDurationAfterPublishing = promo.Ptr("24 days") }), 400, "invalid_payload", "Property .activity_duration_after_publishing must be an ISO 8601 duration (e.g. P24D)"},
			{"code space too small", d(func(p *campaign.Params) {
				p.VouchersCount = promo.Ptr[int64](11)
				p.Voucher.CodeConfig = &campaign.CodeConfig{Pattern: promo.Ptr("X-##"), Charset: promo.Ptr("0123456789")}
			}), 400, "invalid_code_config", "The code config makes at most 100 distinct codes: too few for 11 vouchers (the code space must hold 10 times the number of codes; use a longer pattern or a larger charset)"},
			{"pattern without #", d(func(p *campaign.Params) { p.Voucher.CodeConfig = &campaign.CodeConfig{Pattern: promo.Ptr("FIXED")} }), 400, "invalid_code_config", "Property .code_config.pattern must hold at least one '#' (a random character)"},
			{"NUL in charset", d(func(p *campaign.Params) { p.Voucher.CodeConfig = &campaign.CodeConfig{Charset: promo.Ptr("ab\x00")} }), 400, "invalid_code_config", "Property .code_config.charset must not hold control characters"},
			{"newline in postfix", d(func(p *campaign.Params) { p.Voucher.CodeConfig = &campaign.CodeConfig{Postfix: promo.Ptr("\n")} }), 400, "invalid_code_config", "Property .code_config.postfix must not hold control characters"},
			{"empty charset", d(func(p *campaign.Params) { p.Voucher.CodeConfig = &campaign.CodeConfig{Charset: promo.Ptr("")} }), 400, "invalid_code_config", "Property .code_config.charset must hold at least one character"},
			{"length 0", d(func(p *campaign.Params) { p.Voucher.CodeConfig = &campaign.CodeConfig{Length: promo.Ptr(0)} }), 400, "invalid_code_config", "Property .code_config.length must be between 1 and 200"},
			{"too many vouchers", d(func(p *campaign.Params) { p.VouchersCount = promo.Ptr[int64](campaign.MaxVouchersCount + 1) }), 400, "invalid_payload", "Property .vouchers_count must be <= 10000000"},
			{"percent over 100", d(func(p *campaign.Params) { p.Voucher.Discount = percentOff("120") }), 400, "invalid_payload", "Property .voucher.discount.percent_off must be between 0 and 100"},
			{"add same items", d(func(p *campaign.Params) {
				p.Voucher.Discount = &campaign.Discount{Type: campaign.DiscountUnit, UnitType: "prod_1", Effect: campaign.EffectAddSameItems}
			}), 400, "invalid_payload", "Property .voucher.discount.effect ADD_SAME_ITEMS is not supported by this engine yet"},
			{"redemption quantity 0", d(func(p *campaign.Params) {
				p.Voucher.Redemption = &campaign.RedemptionParams{Quantity: promo.Ptr[int64](0)}
			}), 400, "invalid_payload", "Property .voucher.redemption.quantity must be >= 1"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				_, err := f.eng.Campaigns().Create(ctx, f.project, tc.in)
				if e := wantErr(t, err, tc.code, tc.key); e.Details != tc.details {
					t.Errorf("details %q\nwant    %q", e.Details, tc.details)
				}
			})
		}
		l := must[*promo.List[*campaign.Campaign]](t)(f.eng.Campaigns().List(ctx, f.project, campaign.ListParams{}))
		acts := must[*promo.List[*async.Action]](t)(f.eng.AsyncActions().List(ctx, f.project, promo.ListParams{}))
		if l.Total != 1 || acts.Total != 0 { // "Taken" has nothing to generate: no action
			t.Errorf("refused creates stored something: %d campaigns, %d actions", l.Total, acts.Total)
		}
	})
}

func TestCampaignUpdateTransitions(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := createCampaign(t, f, discountCampaign("Spring", 3))
		// While it generates, it changes too (issue 29): the update's action
		// waits for the generation.
		u0 := must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Description: promo.Ptr("x")}))
		if u0.CreationStatus != campaign.StatusModifying || *u0.Description != "x" {
			t.Errorf("update while generating: %s %v", u0.CreationStatus, u0.Description)
		}
		runPending(t, f)
		if got := getCampaign(t, f, c.ID); got.CreationStatus != campaign.StatusDone || got.VouchersCount != 3 {
			t.Errorf("after the generation and the update: %s with %d vouchers", got.CreationStatus, got.VouchersCount)
		}

		f.clock.Advance(time.Minute)
		in := campaign.UpdateParams{Description: promo.Ptr("Now with more"), Metadata: promo.Metadata{"a": "1", "b": "2"},
			Type: promo.Ptr(campaign.Static), Discount: percentOff("25"), JoinOnce: promo.Ptr(true)}
		in.ExpirationDate = promo.Ptr(at(72 * time.Hour))
		u := must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, "Spring", in))
		if u.CreationStatus != campaign.StatusModifying || u.VouchersGenerationStatus != campaign.StatusModifying ||
			u.UpdatedAt == nil || !u.UpdatedAt.Equal(at(time.Minute)) || u.Type != campaign.Static || *u.Description != "Now with more" || !u.JoinOnce {
			t.Errorf("after update: %+v", u)
		}
		if got := getCampaign(t, f, c.ID); got.CreationStatus != campaign.StatusModifying {
			t.Errorf("stored status %s, want MODIFYING until the update action ends", got.CreationStatus)
		}
		// A second update while the first is pending: DONE only when both ran.
		u = must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Metadata: promo.Metadata{"c": true}, UnsetMetadataFields: []string{"a"}}))
		diff(t, "metadata merged then unset", promo.Metadata{"b": "2", "c": true}, u.Metadata)
		runPending(t, f)
		got := getCampaign(t, f, c.ID)
		if got.CreationStatus != campaign.StatusDone || got.VouchersGenerationStatus != campaign.StatusDone || got.VouchersCount != 3 {
			t.Errorf("after the update actions: %s/%s, %d vouchers", got.CreationStatus, got.VouchersGenerationStatus, got.VouchersCount)
		}
		// The vouchers follow: discount and validity.
		for _, code := range allCodes(t, f, c.ID) {
			v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, code))
			if !v.Discount.PercentOff.Equal(promotype.NewDecimal("25")) || v.ExpirationDate == nil || !v.ExpirationDate.Equal(at(72*time.Hour)) {
				t.Errorf("voucher %s after the campaign update: %+v %v", code, v.Discount, v.ExpirationDate)
			}
		}
		acts := must[*promo.List[*async.Action]](t)(f.eng.AsyncActions().List(ctx, f.project, promo.ListParams{}))
		if acts.Total != 4 || acts.Data[0].Type != campaign.ActionVouchersUpdate || acts.Data[0].Status != async.StatusDone {
			t.Errorf("actions %+v", acts.Data)
		}
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, acts.Data[0].ID))
		var res async.CountResult
		if err := a.DecodeResult(&res); err != nil || res.DoneCount != 3 || res.Message != "Updated 3 vouchers." {
			t.Errorf("update result %+v %v", res, err)
		}

		// Type changes: only between AUTO_UPDATE and STATIC.
		u = must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Type: promo.Ptr(campaign.AutoUpdate)}))
		if u.Type != campaign.AutoUpdate {
			t.Errorf("type %s", u.Type)
		}
		_, err := f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Type: promo.Ptr(campaign.Standalone)})
		if e := wantErr(t, err, 400, "invalid_campaign"); e.Details != "A campaign cannot be changed to STANDALONE" {
			t.Errorf("details %q", e.Details)
		}
		alone := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Alone"), Type: promo.Ptr(campaign.Standalone), Voucher: &campaign.VoucherParams{Discount: percentOff("5")}})
		runPending(t, f)
		_, err = f.eng.Campaigns().Update(ctx, f.project, alone.ID, campaign.UpdateParams{Type: promo.Ptr(campaign.Static)})
		if e := wantErr(t, err, 400, "invalid_campaign"); e.Details != "The type of a STANDALONE campaign cannot be changed" {
			t.Errorf("details %q", e.Details)
		}
		// join_once stays false for STANDALONE.
		if u := must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, alone.ID, campaign.UpdateParams{JoinOnce: promo.Ptr(true)})); u.JoinOnce {
			t.Error("join_once became true on a STANDALONE campaign")
		}
		// Fields of another campaign type are refused; nothing changes.
		_, err = f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Gift: &campaign.GiftSettings{Amount: promo.Ptr[int64](1)}})
		wantErr(t, err, 400, "invalid_campaign")
		_, err = f.eng.Campaigns().Update(ctx, f.project, c.ID, campaign.UpdateParams{Category: promo.Ptr("a"), CategoryID: promo.Ptr("b")})
		wantErr(t, err, 400, "invalid_payload")
		_, err = f.eng.Campaigns().Update(ctx, f.project, "Nope", campaign.UpdateParams{})
		wantErr(t, err, 404, "not_found")
		promoC := createCampaign(t, f, campaign.Params{Name: promo.Ptr("P"), CampaignType: promo.Ptr(campaign.Promotion)})
		_, err = f.eng.Campaigns().Update(ctx, f.project, promoC.ID, campaign.UpdateParams{Type: promo.Ptr(campaign.AutoUpdate)})
		wantErr(t, err, 400, "invalid_campaign")
		u = must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, promoC.ID, campaign.UpdateParams{Description: promo.Ptr("tiers soon")}))
		if u.CreationStatus != campaign.StatusModifying {
			t.Errorf("promotion update: %s", u.CreationStatus)
		}
		runPending(t, f)
		if got := getCampaign(t, f, promoC.ID); got.CreationStatus != campaign.StatusDone {
			t.Errorf("promotion after its update action: %s", got.CreationStatus)
		}
	})
}

func TestCampaignEnableDisableDelete(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := createCampaign(t, f, discountCampaign("Spring", 5))
		runPending(t, f)
		if d := must[*campaign.Campaign](t)(f.eng.Campaigns().Disable(ctx, f.project, "Spring")); d.Active {
			t.Error("disable left the campaign active")
		}
		if getCampaign(t, f, c.ID).Active {
			t.Error("disabled campaign reads active")
		}
		if e := must[*campaign.Campaign](t)(f.eng.Campaigns().Enable(ctx, f.project, c.ID)); !e.Active {
			t.Error("enable left the campaign inactive")
		}
		_, err := f.eng.Campaigns().Enable(ctx, f.project, "Nope")
		wantErr(t, err, 404, "not_found")

		codes := allCodes(t, f, c.ID)
		ref := must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, "Spring", false))
		_, err = f.eng.Campaigns().Get(ctx, f.project, c.ID)
		wantErr(t, err, 404, "not_found")
		_, err = f.eng.Campaigns().Delete(ctx, f.project, c.ID, false)
		wantErr(t, err, 404, "not_found")
		// The name is free at once.
		again := createCampaign(t, f, discountCampaign("Spring", 1))
		runPending(t, f)
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		var res async.CountResult
		if err := a.DecodeResult(&res); err != nil || a.Type != campaign.ActionVouchersDelete || a.Status != async.StatusDone || res.DoneCount != 5 {
			t.Errorf("delete action %+v %+v", a, res)
		}
		for _, code := range codes {
			_, err := f.eng.Vouchers().Get(ctx, f.project, code)
			wantErr(t, err, 404, "not_found")
		}
		if l := listVouchers(t, f, voucher.ListParams{}); l.Total != 1 || *l.Data[0].CampaignID != again.ID {
			t.Errorf("vouchers left: %d", l.Total)
		}
		// Force: the vouchers and the campaign go for good.
		ref = must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, again.ID, true))
		runPending(t, f)
		a = must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		if a.Status != async.StatusDone || string(a.Result) != `{"message":"Deleted 1 vouchers.","done_count":1}` {
			t.Errorf("force delete action %+v %s", a, a.Result)
		}
		if l := listVouchers(t, f, voucher.ListParams{}); l.Total != 0 {
			t.Errorf("vouchers left after force delete: %d", l.Total)
		}
	})
}

func TestCampaignAddAndImportVouchers(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		in := discountCampaign("Spring", 2)
		in.Voucher.CodeConfig = &campaign.CodeConfig{Prefix: promo.Ptr("SPR-"), Length: promo.Ptr(6)}
		c := createCampaign(t, f, in)
		runPending(t, f)

		// One voucher, with a given code or one of the campaign's config.
		v := must[*voucher.Voucher](t)(f.eng.Vouchers().CreateInCampaign(ctx, f.project, "Spring", voucher.CampaignParams{
			Common: voucher.Common{Metadata: promo.Metadata{"k": "v"}, AdditionalInfo: promo.Ptr("added")}}, promo.Ptr("MINE-1")))
		if v.Code != "MINE-1" || *v.CampaignID != c.ID || v.Metadata["k"] != "v" || *v.AdditionalInfo != "added" || !v.Discount.PercentOff.Equal(promotype.NewDecimal("10")) {
			t.Errorf("added voucher %+v", v)
		}
		v = must[*voucher.Voucher](t)(f.eng.Vouchers().CreateInCampaign(ctx, f.project, c.ID, voucher.CampaignParams{}, nil))
		if !strings.HasPrefix(v.Code, "SPR-") || len(v.Code) != 10 {
			t.Errorf("generated code %q", v.Code)
		}
		_, err := f.eng.Vouchers().CreateInCampaign(ctx, f.project, c.ID, voucher.CampaignParams{}, promo.Ptr("MINE-1"))
		if e := wantErr(t, err, 409, "duplicate_found"); e.Details != "Duplicated voucher exists with id MINE-1" {
			t.Errorf("details %q", e.Details)
		}
		// Many: an async generation; the campaign is IN_PROGRESS meanwhile.
		ref := must[*async.Ref](t)(f.eng.Vouchers().GenerateInCampaign(ctx, f.project, c.ID, voucher.CampaignParams{VouchersCount: promo.Ptr[int64](20),
			Common: voucher.Common{Category: promo.Ptr("Bulk")}}))
		if got := getCampaign(t, f, c.ID); got.CreationStatus != campaign.StatusInProgress {
			t.Errorf("campaign while adding: %s", got.CreationStatus)
		}
		runPending(t, f)
		got := getCampaign(t, f, c.ID)
		if got.CreationStatus != campaign.StatusDone || got.VouchersCount != 24 {
			t.Errorf("campaign after adding: %s, %d", got.CreationStatus, got.VouchersCount)
		}
		bulk := must[*campaign.Category](t)(f.eng.Campaigns().GetCategory(ctx, f.project, "Bulk"))
		if l := listVouchers(t, f, voucher.ListParams{Category: promo.Ptr("Bulk")}); l.Total != 20 || *l.Data[0].CategoryID != bulk.ID || *l.Data[0].Category != "Bulk" {
			t.Errorf("vouchers in category Bulk: %d", l.Total)
		}
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		if a.Type != campaign.ActionVouchersGenerate || string(a.Result) != `{"message":"Generated 20 vouchers.","done_count":20}` {
			t.Errorf("add action %+v %s", a, a.Result)
		}
		// A STANDALONE or PROMOTION campaign takes no generated vouchers.
		alone := createCampaign(t, f, campaign.Params{Name: promo.Ptr("Alone"), Type: promo.Ptr(campaign.Standalone), Voucher: &campaign.VoucherParams{Discount: percentOff("5")}})
		runPending(t, f)
		_, err = f.eng.Vouchers().CreateInCampaign(ctx, f.project, alone.ID, voucher.CampaignParams{}, nil)
		if e := wantErr(t, err, 400, "invalid_campaign"); e.Details != "You can not generate vouchers for STANDALONE type campaign." {
			t.Errorf("details %q", e.Details)
		}

		// Import: the result lists what failed, and why.
		items := []voucher.ImportItem{
			{Code: promo.Ptr("IMP-1"), Common: voucher.Common{Metadata: promo.Metadata{"n": 1.0}}},
			{Code: promo.Ptr("IMP-2"), Common: voucher.Common{Active: promo.Ptr(false), Redemption: &campaign.RedemptionParams{Quantity: promo.Ptr[int64](2)}}},
			{Code: promo.Ptr("MINE-1")},
			{},
			{Code: promo.Ptr("IMP-1")},
			{Code: promo.Ptr("IMP-3"), Gift: &voucher.GiftParams{Amount: promo.Ptr[int64](5)}},
		}
		ref = must[*async.Ref](t)(f.eng.Vouchers().ImportToCampaign(async.WithRequestID(ctx, "v-import"), f.project, "Spring", items))
		a = must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		if a.Status != async.StatusEnqueued || a.OperationStatus != async.OperationUnknown || a.Progress != 0 || a.RequestID != "v-import" || string(a.Result) != "null" {
			t.Errorf("import action before running: %+v", a)
		}
		runPending(t, f)
		a = must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		var res async.ImportResult
		if err := a.DecodeResult(&res); err != nil {
			t.Fatal(err)
		}
		diff(t, "import result", async.ImportResult{
			Message: "2 voucher(s) imported successfully, 4 failed.",
			Failed: []async.ImportFailure{
				{Code: "MINE-1", Reason: "Duplicated voucher exists with code MINE-1"},
				{Code: "", Reason: "Property 'code' is required"},
				{Code: "IMP-1", Reason: "Duplicated voucher exists with code IMP-1"},
				{Code: "IMP-3", Reason: "Property .gift is allowed only for GIFT_VOUCHER vouchers"},
			},
			DoneCount: 2, FailedCount: 4,
		}, res)
		imp := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "IMP-2"))
		if imp.Active || *imp.RedemptionQuantity != 2 || *imp.CampaignID != c.ID {
			t.Errorf("imported voucher %+v", imp)
		}
		if got := getCampaign(t, f, c.ID); got.VouchersCount != 26 {
			t.Errorf("vouchers_count after import %d", got.VouchersCount)
		}
		_, err = f.eng.Vouchers().ImportToCampaign(ctx, f.project, c.ID, nil)
		wantErr(t, err, 400, "invalid_payload")
	})
}

// Codes are unique across the project: a second campaign whose code space
// is mostly taken still gets its codes (collisions are made again).
func TestGenerationCollisionsAreRegenerated(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cfg := &campaign.CodeConfig{Pattern: promo.Ptr("C-###"), Charset: promo.Ptr("0123456789")}
		first := discountCampaign("First", 100)
		first.Voucher.CodeConfig = cfg
		createCampaign(t, f, first)
		second := discountCampaign("Second", 100)
		second.Voucher.CodeConfig = cfg
		createCampaign(t, f, second)
		runPending(t, f)
		seen := map[string]bool{}
		for _, name := range []string{"First", "Second"} {
			c := getCampaign(t, f, name)
			codes := allCodes(t, f, c.ID)
			if c.CreationStatus != campaign.StatusDone || c.VouchersCount != 100 || len(codes) != 100 {
				t.Errorf("%s: %s with %d vouchers (%d listed)", name, c.CreationStatus, c.VouchersCount, len(codes))
			}
			for _, code := range codes {
				if seen[code] {
					t.Errorf("code %s twice", code)
				}
				seen[code] = true
			}
		}
	})
}

// A code space that runs out ends the generation FAILED with a reason.
func TestGenerationRunsOutOfCodes(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cfg := &campaign.CodeConfig{Pattern: promo.Ptr("#"), Charset: promo.Ptr("0123456789")}
		in := discountCampaign("One", 1)
		in.Voucher.CodeConfig = cfg
		createCampaign(t, f, in)
		runPending(t, f)
		// Every one-digit code taken.
		for i := range 10 {
			_, err := f.eng.Vouchers().Create(ctx, f.project, voucher.Params{Code: promo.Ptr(string(rune('0' + i))), Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1")})
			if err != nil && !strings.Contains(err.Error(), "duplicate") {
				t.Fatal(err)
			}
		}
		ref := must[*async.Ref](t)(f.eng.Vouchers().GenerateInCampaign(ctx, f.project, "One", voucher.CampaignParams{VouchersCount: promo.Ptr[int64](1)}))
		runPending(t, f)
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		if a.Status != async.StatusFailed || a.OperationStatus != async.OperationFailed ||
			string(a.Result) != `{"done_count":0,"message":"Generated 0 of 1 vouchers: no free code left in the code config's code space."}` {
			t.Errorf("exhausted generation: %+v %s", a, a.Result)
		}
		if c := getCampaign(t, f, "One"); c.CreationStatus != campaign.StatusFailed || c.VouchersGenerationStatus != campaign.StatusFailed {
			t.Errorf("campaign after a failed generation: %s", c.CreationStatus)
		}
	})
}

// validation_rules of a campaign or voucher create become assignments, shown
// in validation_rules_assignments; campaigns and vouchers (by name or code)
// can be assigned a rule; deleting the object removes its assignments.
func TestCampaignAndVoucherValidationRules(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		vr := f.eng.ValidationRules()
		r := must[*rule.ValidationRule](t)(vr.Create(ctx, f.project, ruleParams(t, `{"name":"Big orders","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[10000]}},"logic":"1"}}`)))
		in := discountCampaign("Spring", 1)
		in.ValidationRules = []string{r.ID}
		c := createCampaign(t, f, in)
		if l := c.ValidationRulesAssignments; l.Total != 1 || l.Data[0].RuleID != r.ID || l.Data[0].RelatedObjectID != c.ID ||
			l.Data[0].RelatedObjectType != "campaign" || l.Data[0].Object != "validation_rules_assignment" {
			t.Errorf("campaign assignments %+v", l)
		}
		runPending(t, f)
		if l := getCampaign(t, f, "Spring").ValidationRulesAssignments; l.Total != 1 {
			t.Errorf("campaign assignments on get: %d", l.Total)
		}
		lst := must[*promo.List[*campaign.Campaign]](t)(f.eng.Campaigns().List(ctx, f.project, campaign.ListParams{}))
		if lst.Data[0].ValidationRulesAssignments.Total != 1 {
			t.Errorf("campaign assignments in a list: %d", lst.Data[0].ValidationRulesAssignments.Total)
		}
		_, err := f.eng.Campaigns().Create(ctx, f.project, campaign.Params{Name: promo.Ptr("Other"), ValidationRules: []string{"val_nope"},
			Voucher: &campaign.VoucherParams{Discount: percentOff("1")}})
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "validation_rules" {
			t.Errorf("unknown rule: %+v", e)
		}

		vin := discountParams("RULED")
		vin.ValidationRules = []string{r.ID}
		v := createVoucher(t, f, vin)
		if l := v.ValidationRulesAssignments; l.Total != 1 || l.Data[0].RelatedObjectType != "voucher" || l.Data[0].RelatedObjectID != v.ID {
			t.Errorf("voucher assignments %+v", l)
		}
		// The rules API reaches campaigns by name and vouchers by code.
		code := allCodes(t, f, c.ID)[0]
		a := must[*rule.Assignment](t)(vr.Assign(ctx, f.project, r.ID, rule.AssignmentParams{RelatedObjectType: "voucher", RelatedObjectID: code}, false))
		gen := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, code))
		if a.RelatedObjectID != gen.ID || gen.ValidationRulesAssignments.Total != 1 {
			t.Errorf("assignment by code %+v, voucher %d", a, gen.ValidationRulesAssignments.Total)
		}
		_, err = vr.Assign(ctx, f.project, r.ID, rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: "Spring"}, false)
		wantErr(t, err, 409, "duplicate_found")
		if got := must[*rule.ValidationRule](t)(vr.Get(ctx, f.project, r.ID)); got.AssignmentsCount != 3 {
			t.Errorf("assignments_count %d, want 3", got.AssignmentsCount)
		}
		must[struct{}](t)(struct{}{}, f.eng.Vouchers().Delete(ctx, f.project, "RULED", false))
		must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, "Spring", false))
		if got := must[*rule.ValidationRule](t)(vr.Get(ctx, f.project, r.ID)); got.AssignmentsCount != 1 {
			t.Errorf("assignments_count after deletes %d, want 1 (the generated voucher's)", got.AssignmentsCount)
		}
	})
}
