package promo_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/referral"
	"github.com/promoengine/promo/voucher"
)

// referralSetup is a referral program (45% off, referee reward 100
// points in Club) with the tiers given, a gift card campaign for the
// referrer's rewards, and a code published to alice.
type referralSetup struct {
	club, gifts, program *campaign.Campaign
	code                 string
	alice                string // alice's customer id
}

func newReferral(t *testing.T, f fixture, conversion, tiers string) referralSetup {
	t.Helper()
	var s referralSetup
	s.club = newProgram(t, f, "Club", true)
	s.gifts = must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t,
		`{"name":"Gift cards","type":"AUTO_UPDATE","campaign_type":"GIFT_VOUCHERS","voucher":{"type":"GIFT_VOUCHER","gift":{"amount":1}}}`)))
	if strings.Contains(tiers, "%") {
		tiers = fmt.Sprintf(tiers, s.gifts.ID)
	}
	s.program = must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t, `{"name":"Friends",
		"type":"AUTO_UPDATE","campaign_type":"REFERRAL_PROGRAM",
		"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":45},"is_referral_code":true},
		"referral_program":{`+conversion+`"referee_reward":{"related_object_parent":{"id":"`+s.club.ID+`","object":"CAMPAIGN"},"type":"LOYALTY_CARD","amount":100},
		"referral_tiers":`+tiers+`}}`)))
	p := must[*publication.Publication](t)(f.eng.Publications().Create(ctx, f.project, publication.CreateParams{
		Customer: &customer.Params{SourceID: promo.Ptr("alice")}, Campaign: &publication.CampaignRef{ID: &s.program.ID}}))
	s.code, s.alice = p.Voucher.Code, p.CustomerID
	return s
}

// redeemCode redeems code for the customer of sourceID on an order of
// 10,000.
func redeemCode(f fixture, code, sourceID string) (*redemption.Redemptions, error) {
	return f.eng.Redemptions().Redeem(ctx, f.project, redemption.ValidationParams{
		Customer:    &customer.Params{SourceID: &sourceID},
		Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: code}},
		Order:       &order.Params{Amount: promo.Ptr[int64](10000)},
	}, redemption.RedeemOptions{})
}

// heldGift is the credits a customer's rewards put on the gift card of
// campaign c it holds (the card starts with 1 credit; -1: no card).
func heldGift(t *testing.T, f fixture, c *campaign.Campaign, customerID string) int64 {
	t.Helper()
	l := must[*promotype.List[*voucher.Voucher]](t)(f.eng.Vouchers().List(ctx, f.project, voucher.ListParams{CampaignID: &c.ID, Customer: &customerID}))
	if len(l.Data) == 0 {
		return -1
	}
	return l.Data[0].Gift.Balance - 1
}

// clubPoints is the balance of customerID's card in Club (-1: none).
func clubPoints(t *testing.T, f fixture, s referralSetup, customerID string) int64 {
	t.Helper()
	if c := cardOf(t, f, s.club, customerID); c != nil {
		return c.LoyaltyCard.Balance
	}
	return -1
}

// Worked example R1: bob redeeming alice's code gets the discount and 100
// points on a Club card published to him; he is referred once, alice has
// one referred customer and 1,000 credits on a gift card. Alice
// redeeming her own code is refused, and changes nothing.
func TestReferralConversionByRedemption(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := newReferral(t, f, `"conversion_event_type":"redemption",`,
			`[{"id":"rt_each","banner":"A friend","parameters":{"criteria":{"type":"EACH_REFEREE"},"reward":{"related_object_parent":{"id":"%s"},"type":"GIFT_VOUCHER","amount":1000}}}]`)
		res := must[*redemption.Redemptions](t)(redeemCode(f, s.code, "bob"))
		if d := res.Order.TotalDiscountAmount; d != 4500 {
			t.Errorf("discount %d, want 4500", d)
		}
		bob := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "bob"))
		diff(t, "bob's referrals", &customer.ReferralSummary{Total: 1, Campaigns: []customer.ReferralCampaign{{CampaignID: s.program.ID,
			ReferrerID: s.alice, RelatedObjectID: res.Redemptions[0].ID, RelatedObjectType: "redemption", Date: f.clock.Now()}}}, bob.Referrals)
		if got := clubPoints(t, f, s, bob.ID); got != 100 {
			t.Errorf("bob's Club balance %d, want 100", got)
		}
		alice := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, s.alice))
		if alice.Loyalty.ReferredCustomers != 1 || alice.Loyalty.Campaigns["Friends"].(voucher.CampaignLoyalty).ReferredCustomers != 1 {
			t.Errorf("alice's loyalty: %+v", alice.Loyalty)
		}
		if got := heldGift(t, f, s.gifts, s.alice); got != 1000 {
			t.Errorf("alice's gift card: %d, want 1000", got)
		}

		_, err := redeemCode(f, s.code, "alice")
		wantErr(t, err, 400, "referrer_not_permitted_to_redeem")
		_, err = redeemCode(f, "NO-SUCH-CODE", "carl")
		if err == nil || promotype.AsError(err).Code >= 500 {
			t.Errorf("unknown code: %v, want a 4xx", err)
		}
		must[*redemption.Redemptions](t)(redeemCode(f, s.code, "bob")) // again: the discount, no second reward
		if got := clubPoints(t, f, s, bob.ID); got != 100 {
			t.Errorf("bob's Club balance after a second redemption: %d, want 100", got)
		}
		if got := heldGift(t, f, s.gifts, s.alice); got != 1000 {
			t.Errorf("alice's gift card after the refusals and a second redemption: %d, want 1000", got)
		}
		alice = must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, s.alice))
		if alice.Loyalty.ReferredCustomers != 1 || alice.Referrals.Total != 0 {
			t.Errorf("alice after refusals: referred %d, referrals %d", alice.Loyalty.ReferredCustomers, alice.Referrals.Total)
		}
		rewarded := must[*customer.ActivityList](t)(f.eng.Customers().Activities(ctx, f.project, s.alice, customer.ActivityParams{Type: customer.ActivityRewarded}))
		if len(rewarded.Data) != 1 {
			t.Errorf("alice has %d customer.rewarded activities, want 1", len(rewarded.Data))
		}
	})
}

// 20 concurrent redemptions of one code by one referee reward once.
func TestReferralConcurrentConversionsOfOneReferee(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := newReferral(t, f, "",
			`[{"parameters":{"criteria":{"type":"EACH_REFEREE"},"reward":{"related_object_parent":{"id":"%s"},"type":"GIFT_VOUCHER","amount":1000}}}]`)
		must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("bob")}))
		errs := make([]error, 20)
		inParallel(t, 20, func(i int) { _, errs[i] = redeemCode(f, s.code, "bob") })
		for i, err := range errs {
			if err != nil {
				t.Errorf("redemption %d: %v", i, err)
			}
		}
		bob := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "bob"))
		if got := clubPoints(t, f, s, bob.ID); got != 100 || bob.Referrals.Total != 1 {
			t.Errorf("bob: Club balance %d (want 100), referred %d times (want 1)", got, bob.Referrals.Total)
		}
		if got := heldGift(t, f, s.gifts, s.alice); got != 1000 {
			t.Errorf("alice's gift card: %d, want 1000", got)
		}
	})
}

// 50 referees converting at once on one referrer with tiers at 10 and 20
// referees: each tier rewards exactly once.
func TestReferralTiersRewardOnceUnderConcurrency(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := newReferral(t, f, "", `[
			{"id":"rt_10","parameters":{"criteria":{"type":"MINIMUM_REFEREES","referees":10},"reward":{"related_object_parent":{"id":"%[1]s"},"type":"GIFT_VOUCHER","amount":500}}},
			{"id":"rt_20","parameters":{"criteria":{"type":"MINIMUM_REFEREES","referees":20},"reward":{"related_object_parent":{"id":"%[1]s"},"type":"GIFT_VOUCHER","amount":2000}}}]`)
		errs := make([]error, 50)
		inParallel(t, 50, func(i int) { _, errs[i] = redeemCode(f, s.code, fmt.Sprintf("friend-%02d", i)) })
		for i, err := range errs {
			if err != nil {
				t.Errorf("redemption %d: %v", i, err)
			}
		}
		if got := heldGift(t, f, s.gifts, s.alice); got != 2500 {
			t.Errorf("alice's gift card: %d, want 500 + 2000", got)
		}
		alice := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, s.alice))
		if alice.Loyalty.ReferredCustomers != 50 {
			t.Errorf("alice referred %d customers, want 50", alice.Loyalty.ReferredCustomers)
		}
		rewarded := must[*customer.ActivityList](t)(f.eng.Customers().Activities(ctx, f.project, s.alice,
			customer.ActivityParams{Type: customer.ActivityRewarded, Limit: 100}))
		if len(rewarded.Data) != 2 {
			t.Errorf("alice has %d customer.rewarded activities, want one per tier", len(rewarded.Data))
		}
	})
}

// A program converting on custom events converts the referee of an event
// naming the code; the code's redemption gives only its discount.
func TestReferralConversionByCustomEvent(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		must[*project.CustomEventSchema](t)(f.eng.CustomEventSchemas().Create(ctx, f.project,
			decode[project.CustomEventSchemaParams](t, `{"name":"signed_up","schema":{"properties":{}}}`)))
		must[*project.CustomEventSchema](t)(f.eng.CustomEventSchemas().Create(ctx, f.project,
			decode[project.CustomEventSchemaParams](t, `{"name":"page_view","schema":{"properties":{}}}`)))
		s := newReferral(t, f, `"conversion_event_type":"custom_event","custom_event":{"name":"signed_up"},`, `[]`)
		track := func(body string) error {
			_, err := f.eng.CustomEvents().Track(ctx, f.project, decode[project.TrackParams](t, body))
			return err
		}
		must[*redemption.Redemptions](t)(redeemCode(f, s.code, "dan"))
		must0(t, track(`{"event":"page_view","customer":{"source_id":"dan"},"referral":{"code":"`+s.code+`"}}`))
		dan := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "dan"))
		if dan.Referrals.Total != 0 || clubPoints(t, f, s, dan.ID) != -1 {
			t.Fatalf("a redemption or another event converted dan: %+v", dan.Referrals)
		}
		for range 2 {
			must0(t, track(`{"event":"signed_up","customer":{"source_id":"dan"},"referral":{"code":"`+s.code+`","referrer_id":"`+s.alice+`"}}`))
		}
		dan = must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "dan"))
		if dan.Referrals.Total != 1 || dan.Referrals.Campaigns[0].RelatedObjectType != referral.RelatedCustomEvent || clubPoints(t, f, s, dan.ID) != 100 {
			t.Errorf("dan after two signed_up events: %+v, Club %d", dan.Referrals, clubPoints(t, f, s, dan.ID))
		}
		for _, tc := range []struct {
			name, body string
			code       int
			key        string
		}{
			{"unknown code", `{"event":"signed_up","customer":{"source_id":"eve"},"referral":{"code":"NOPE"}}`, 404, "not_found"},
			{"the referrer itself", `{"event":"signed_up","customer":{"id":"` + s.alice + `"},"referral":{"code":"` + s.code + `"}}`, 400, "referrer_not_permitted_to_redeem"},
			{"another referrer", `{"event":"signed_up","customer":{"source_id":"eve"},"referral":{"code":"` + s.code + `","referrer_id":"cust_x"}}`, 400, "invalid_payload"},
			{"no code", `{"event":"signed_up","customer":{"source_id":"eve"},"referral":{}}`, 400, "invalid_payload"},
		} {
			wantErr(t, track(tc.body), tc.code, tc.key)
		}
		if _, err := f.eng.Customers().Get(ctx, f.project, "eve"); err == nil {
			t.Errorf("a refused event created its customer")
		}
	})
}

// Referral tiers tell their changes with their campaign's
// (campaign.referral_tier.created, updated, deleted), and every reward of
// a conversion is a customer.rewarded event, in the outbox of the
// transaction that made it.
func TestReferralEvents(t *testing.T) {
	f := newOutboxFixture(t)
	s := newReferral(t, f.fixture, "", `[{"id":"rt_a","parameters":{"criteria":{"type":"EACH_REFEREE"},"reward":{"related_object_parent":{"id":"%[1]s"},"type":"GIFT_VOUCHER","amount":10}}},
		{"id":"rt_b","parameters":{"criteria":{"type":"MINIMUM_REFEREES","referees":1},"reward":{"related_object_parent":{"id":"%[1]s"},"type":"GIFT_VOUCHER","amount":20}}}]`)
	tier := func(id string, amount int) campaign.ReferralTier {
		return campaign.ReferralTier{ID: id, Parameters: campaign.ReferralTierParameters{
			Criteria: campaign.ReferralTierCriteria{Type: campaign.TierEachReferee},
			Reward: campaign.RefereeReward{RelatedObjectParent: &campaign.RelatedObjectParent{ID: &s.gifts.ID},
				Type: promo.Ptr(campaign.RewardGiftVoucher), Amount: promo.Ptr[int64](int64(amount))}}}
	}
	from := f.count()
	rp := s.program.ReferralProgram.Clone()
	rp.ReferralTiers = []campaign.ReferralTier{tier("rt_a", 15), tier("rt_c", 5)}
	must[*campaign.Campaign](t)(f.eng.Campaigns().Update(ctx, f.project, s.program.ID, campaign.UpdateParams{ReferralProgram: rp}))
	diff(t, "tier events of an update", []outboxEvent{
		ev("campaign.updated", s.program.ID, "campaign"),
		ev("campaign.referral_tier.updated", "rt_a", "campaign", "referral_tier="),
		ev("campaign.referral_tier.created", "rt_c", "campaign", "referral_tier="),
		ev("campaign.referral_tier.deleted", "rt_b", "campaign", "referral_tier="),
	}, f.since(t, from))

	defer func() { // a deleted program's tiers are deleted with it
		from := f.count()
		must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, s.program.ID, false))
		var tiers []outboxEvent
		for _, e := range f.since(t, from) {
			if strings.HasPrefix(e.Type, "campaign.referral_tier.") {
				tiers = append(tiers, e)
			}
		}
		diff(t, "tier events of a delete", []outboxEvent{
			ev("campaign.referral_tier.deleted", "rt_a", "campaign", "referral_tier="),
			ev("campaign.referral_tier.deleted", "rt_c", "campaign", "referral_tier="),
		}, tiers)
	}()
	from = f.count()
	must[*redemption.Redemptions](t)(redeemCode(f.fixture, s.code, "bob"))
	var rewarded []string
	for _, e := range f.store.Events(f.project)[from:] {
		if e.Type == customer.ActivityRewarded {
			var data struct {
				Campaign     struct{ Object, ID string }  `json:"campaign"`
				ReferralTier *campaign.SimpleReferralTier `json:"referral_tier"`
			}
			must0(t, json.Unmarshal(e.Data, &data))
			if data.Campaign.Object != "campaign" || data.Campaign.ID != s.program.ID {
				t.Errorf("customer.rewarded names the campaign %+v", data.Campaign)
			}
			who := "referee"
			if data.ReferralTier != nil {
				who = data.ReferralTier.ID
			}
			rewarded = append(rewarded, who)
		}
	}
	diff(t, "customer.rewarded of a conversion", []string{"referee", "rt_a", "rt_c"}, rewarded)
}

// A referral program the engine could not run is refused when created.
func TestReferralProgramRefusals(t *testing.T) {
	f := newOutboxFixture(t).fixture
	for _, tc := range []struct{ name, program, details string }{
		{"unknown conversion", `{"conversion_event_type":"signup"}`,
			"Property 'referral_program.conversion_event_type' must be one of redemption, custom_event"},
		{"custom event without its name", `{"conversion_event_type":"custom_event"}`,
			"Property 'referral_program.custom_event' is required when conversion_event_type is custom_event"},
		{"referee reward without campaign", `{"referee_reward":{"type":"LOYALTY_CARD","amount":5}}`,
			"Property 'referral_program.referee_reward.related_object_parent.id' is required"},
		{"referee reward without amount", `{"referee_reward":{"related_object_parent":{"id":"camp_1"},"type":"GIFT_VOUCHER"}}`,
			"Property 'referral_program.referee_reward.amount' must be a positive integer"},
		{"tier of unknown criteria", `{"referral_tiers":[{"parameters":{"criteria":{"type":"SOMETIMES"},"reward":{"related_object_parent":{"id":"camp_1"},"type":"GIFT_VOUCHER","amount":5}}}]}`,
			"Property 'referral_program.referral_tiers[0].parameters.criteria.type' must be one of EACH_REFEREE, MINIMUM_REFEREES"},
		{"tier at 0 referees", `{"referral_tiers":[{"parameters":{"criteria":{"type":"MINIMUM_REFEREES"},"reward":{"related_object_parent":{"id":"camp_1"},"type":"GIFT_VOUCHER","amount":5}}}]}`,
			"Property 'referral_program.referral_tiers[0].parameters.criteria.referees' must be at least 1"},
	} {
		_, err := f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t, `{"name":"R","campaign_type":"REFERRAL_PROGRAM",
			"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":5}},"referral_program":`+tc.program+`}`))
		if e := wantErr(t, err, 400, "invalid_campaign"); e.Details != tc.details {
			t.Errorf("%s: %s", tc.name, e.Details)
		}
	}
	club := newProgram(t, f, "Club", true)
	create := func(reward string) error {
		_, err := f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t, `{"name":"R","campaign_type":"REFERRAL_PROGRAM",
			"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":5}},"referral_program":{"referee_reward":`+reward+`}}`))
		return err
	}
	wantErr(t, create(`{"related_object_parent":{"id":"camp_nope"},"type":"LOYALTY_CARD","amount":5}`), 404, "not_found")
	if e := wantErr(t, create(`{"related_object_parent":{"id":"`+club.ID+`"},"type":"GIFT_VOUCHER","amount":5}`), 400, "invalid_campaign"); e.Details !=
		"Property 'referral_program.referee_reward.related_object_parent.id' must name a GIFT_VOUCHERS campaign for a GIFT_VOUCHER reward" {
		t.Errorf("reward of another type: %s", e.Details)
	}
	l := must[*promotype.List[*campaign.Campaign]](t)(f.eng.Campaigns().List(ctx, f.project, campaign.ListParams{}))
	if len(l.Data) != 1 {
		t.Errorf("refused creates stored %d campaigns besides Club", len(l.Data)-1)
	}
}
