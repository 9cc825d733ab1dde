package promo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// newProgram creates a loyalty program (cards start at 0 points) with
// auto_join as given.
func newProgram(t *testing.T, f fixture, name string, autoJoin bool) *campaign.Campaign {
	t.Helper()
	return must[*campaign.Campaign](t)(f.eng.Loyalties().CreateProgram(ctx, f.project, campaign.Params{
		Name: promo.Ptr(name), AutoJoin: promo.Ptr(autoJoin), Type: promo.Ptr(campaign.AutoUpdate),
	}))
}

// earnOn creates one earning rule from its JSON body in program c.
func earnOn(t *testing.T, f fixture, c *campaign.Campaign, body string) *loyalty.EarningRule {
	t.Helper()
	rules := must[[]*loyalty.EarningRule](t)(f.eng.Loyalties().CreateEarningRules(ctx, f.project, c.ID,
		[]loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t, body)}))
	return rules[0]
}

// cardPoints is the loyalty card of customer in program c: points and
// balance ("" card: none).
func cardOf(t *testing.T, f fixture, c *campaign.Campaign, customerID string) *voucher.Voucher {
	t.Helper()
	l := must[*promotype.List[*voucher.Voucher]](t)(f.eng.Loyalties().ListMembers(ctx, f.project, c.ID, voucher.ListParams{Customer: &customerID}))
	if len(l.Data) == 0 {
		return nil
	}
	return l.Data[0]
}

// The worked examples of earning rules (X1–X4, X6, X7's formula on
// order.paid): each rule alone in its program, one order paid, the
// points the customer's card gets.
func TestLoyaltyEarningWorkedExamples(t *testing.T) {
	for _, tc := range []struct {
		name, rule, order string
		want              int64
	}{
		{"X1 order amount", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":1000,"points":1}}}}`,
			`{"amount":25990}`, 25},
		{"X1 order amount, 3 per step", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":1000,"points":3}}}}`,
			`{"amount":25990}`, 75},
		{"X2 total amount", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_TOTAL_AMOUNT","order":{"total_amount":{"every":100,"points":1}}}}`,
			`{"amount":20000,"discount_amount":2500}`, 175},
		{"X2 same order by amount", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":100,"points":1}}}}`,
			`{"amount":20000,"discount_amount":2500}`, 200},
		{"X3 items amount", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_ITEMS_AMOUNT","order_items":{"amount":{"every":200,"points":1,"object":"product","id":"prod_X"}}}}`,
			`{"items":[{"product_id":"prod_X","quantity":2,"price":1500},{"product_id":"prod_Y","quantity":1,"price":4000}]}`, 15},
		{"X4 items quantity", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_ITEMS_QUANTITY","order_items":{"quantity":{"every":1,"points":1,"object":"sku","id":"sku_phone"}}}}`,
			`{"items":[{"sku_id":"sku_phone","quantity":3,"price":100},{"product_id":"prod_case","quantity":5,"price":100}]}`, 3},
		{"X6 order metadata", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_METADATA","order":{"metadata":{"every":2,"points":1,"property":"number_of_store_visits"}}}}`,
			`{"amount":100,"metadata":{"number_of_store_visits":7}}`, 3},
		{"X7 customer metadata", `{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"CUSTOMER_METADATA","customer":{"metadata":{"every":4,"points":4,"property":"customer_life_time_value"}}}}`,
			`{"amount":100}`, 8},
		{"fixed points given as a string", `{"event":"order.paid","loyalty":{"type":"FIXED","points":"5"}}`, `{"amount":100}`, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachStore(t, func(t *testing.T, f fixture) {
				c := newProgram(t, f, "Club", true)
				earnOn(t, f, c, tc.rule)
				in := decode[order.Params](t, tc.order)
				in.Status = promo.Ptr(order.StatusPaid)
				in.Customer = &customer.Params{SourceID: promo.Ptr("alice"), Metadata: promo.Metadata{"customer_life_time_value": 10}}
				o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, in))
				card := cardOf(t, f, c, *o.CustomerID)
				if card == nil {
					t.Fatal("the customer got no card (auto_join)")
				}
				if got := card.LoyaltyCard.Points; got != tc.want || card.LoyaltyCard.Balance != tc.want {
					t.Errorf("card points %d, balance %d; want %d", got, card.LoyaltyCard.Balance, tc.want)
				}
			})
		})
	}
}

// An order earns on its first transition into PAID, from an update as
// from a create, once per rule, with a POINTS_ACCRUAL that names the
// order, the event and the rule; a program without auto_join gives a
// non-member nothing; a disabled rule earns nothing.
func TestLoyaltyOrderPaidEarnsOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		closed := newProgram(t, f, "Closed", false)
		r := earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":20},"source":{"banner":"Paid orders"}}`)
		earnOn(t, f, closed, `{"event":"order.paid","loyalty":{"type":"FIXED","points":7}}`)
		orders := f.eng.Orders()
		o := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{SourceID: order.Some("o-1"), Amount: promo.Ptr[int64](1000),
			Customer: &customer.Params{SourceID: promo.Ptr("bob")}}))
		if card := cardOf(t, f, club, *o.CustomerID); card != nil {
			t.Fatalf("a CREATED order earned: %+v", card.LoyaltyCard)
		}
		for range 3 { // PAID, then PAID again: one accrual
			must[*order.Order](t)(orders.Update(ctx, f.project, "o-1", order.Params{Status: promo.Ptr(order.StatusPaid)}))
		}
		must[*order.Order](t)(orders.Update(ctx, f.project, "o-1", order.Params{Status: promo.Ptr(order.StatusCreated)}))
		must[*order.Order](t)(orders.Update(ctx, f.project, "o-1", order.Params{Status: promo.Ptr(order.StatusPaid)}))
		card := cardOf(t, f, club, *o.CustomerID)
		if card == nil || card.LoyaltyCard.Points != 20 || card.LoyaltyCard.Balance != 20 {
			t.Fatalf("card = %+v, want 20 points once", card)
		}
		if c := cardOf(t, f, closed, *o.CustomerID); c != nil {
			t.Errorf("a program without auto_join gave a card: %s", c.Code)
		}
		txs := must[*redemption.TransactionList](t)(f.eng.Loyalties().Transactions(ctx, f.project, club.ID, card.Code, redemption.TransactionListParams{}))
		if len(txs.Data) != 1 {
			t.Fatalf("%d transactions, want one accrual", len(txs.Data))
		}
		tx := txs.Data[0]
		want := redemption.TransactionDetails{
			Balance: &redemption.Balance{Points: promo.Ptr[int64](20), Total: 20, Balance: 20, Type: redemption.BalanceLoyalty,
				OperationType: redemption.OperationAutomatic, Object: "balance", RelatedObject: redemption.BalanceRelated{Type: "voucher", ID: card.ID}},
			Order:       &redemption.TxOrder{ID: o.ID, SourceID: promo.Ptr("o-1")},
			Event:       &redemption.TxEvent{ID: tx.Details.Event.ID, Type: loyalty.EventCustomerOrderPaid},
			EarningRule: &redemption.TxEarningRule{ID: r.ID, Source: redemption.TxEarningSource{Banner: "Paid orders"}},
		}
		if diff := cmp.Diff(want, tx.Details); diff != "" || tx.Type != redemption.TxPointsAccrual || *tx.Source != redemption.SourceAutomation {
			t.Errorf("accrual %s from %v; details (-want +got):\n%s", tx.Type, tx.Source, diff)
		}

		must[*loyalty.EarningRule](t)(f.eng.Loyalties().DisableEarningRule(ctx, f.project, club.ID, r.ID))
		must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](500), Status: promo.Ptr(order.StatusPaid),
			Customer: &customer.Params{SourceID: promo.Ptr("bob")}}))
		if card := cardOf(t, f, club, *o.CustomerID); card.LoyaltyCard.Points != 20 {
			t.Errorf("a disabled rule earned: %d points", card.LoyaltyCard.Points)
		}
	})
}

// 20 concurrent updates of one order to PAID earn the rule's points once
// (done when loyalty issue: "points earned once").
func TestLoyaltyConcurrentPaidUpdatesEarnOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":50}}`)
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{SourceID: order.Some("race"), Amount: promo.Ptr[int64](1000),
			Customer: &customer.Params{SourceID: promo.Ptr("carol")}}))
		// The card exists first, so that the updates race on the earning
		// alone (auto-join's publication is covered above).
		must[*voucher.Voucher](t)(f.eng.Loyalties().AddMember(ctx, f.project, club.ID, loyalty.MemberParams{
			Customer: loyalty.MemberCustomer{Params: customer.Params{ID: o.CustomerID}}}))
		errs := make([]error, 20)
		inParallel(t, 20, func(i int) {
			_, errs[i] = f.eng.Orders().Update(ctx, f.project, "race", order.Params{Status: promo.Ptr(order.StatusPaid)})
		})
		for i, err := range errs {
			if err != nil {
				t.Errorf("update %d: %v", i, err)
			}
		}
		card := cardOf(t, f, club, *o.CustomerID)
		if card.LoyaltyCard.Points != 50 || card.LoyaltyCard.Balance != 50 {
			t.Errorf("card after 20 concurrent PAID updates: %+v, want 50 points once", card.LoyaltyCard)
		}
	})
}

// Members, manual balance changes and the program's rules limit and
// refusals, through the Go API.
func TestLoyaltyMembersAndBalance(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		l := f.eng.Loyalties()
		club := newProgram(t, f, "Club", false)
		if !club.JoinOnce || club.CampaignType != campaign.LoyaltyProgram {
			t.Errorf("program: join_once %v, type %s", club.JoinOnce, club.CampaignType)
		}
		card := must[*voucher.Voucher](t)(l.AddMember(ctx, f.project, "Club", loyalty.MemberParams{
			Customer: decode[loyalty.MemberCustomer](t, `"dana"`)}))
		again := must[*voucher.Voucher](t)(l.AddMember(ctx, f.project, club.ID, loyalty.MemberParams{
			Customer: decode[loyalty.MemberCustomer](t, `{"source_id":"dana"}`)}))
		if again.ID != card.ID || card.HolderID == nil {
			t.Errorf("join once: second add gave %s, first %s (holder %v)", again.Code, card.Code, card.HolderID)
		}
		b := must[*redemption.Balance](t)(l.AddBalance(ctx, f.project, club.ID, card.Code, loyalty.BalanceParams{Points: 100, Reason: promo.Ptr("welcome")}))
		want := &redemption.Balance{Points: promo.Ptr[int64](100), Total: 100, Balance: 100, Type: redemption.BalanceLoyalty,
			OperationType: redemption.OperationManual, Object: "balance", RelatedObject: redemption.BalanceRelated{Type: "voucher", ID: card.ID}}
		if diff := cmp.Diff(want, b); diff != "" {
			t.Errorf("balance (-want +got):\n%s", diff)
		}
		b = must[*redemption.Balance](t)(l.AddBalance(ctx, f.project, "", card.ID, loyalty.BalanceParams{Points: -30}))
		if b.Balance != 70 || b.Total != 70 {
			t.Errorf("after removing 30: %+v", b)
		}
		got := must[*voucher.Voucher](t)(l.Member(ctx, f.project, "", card.Code))
		lc := got.LoyaltyCard
		if lc.Balance != lc.Points-deref(lc.ExpiredPoints)-deref(lc.SubtractedPoints)-deref(got.Redemption.RedeemedPoints) {
			t.Errorf("balance invariant broken: %+v, redeemed %v", lc, got.Redemption.RedeemedPoints)
		}

		other := newProgram(t, f, "Other", false)
		_, err := l.Member(ctx, f.project, other.ID, card.Code)
		wantErr(t, err, 404, "not_found")
		_, err = l.AddBalance(ctx, f.project, club.ID, card.Code, loyalty.BalanceParams{Points: -71})
		wantErr(t, err, 400, "invalid_add_balance_params")
		_, err = l.AddBalance(ctx, f.project, club.ID, card.Code, loyalty.BalanceParams{Points: loyalty.MaxPoints + 1})
		wantErr(t, err, 400, "invalid_payload")
		_, err = l.Program(ctx, f.project, "Nope")
		wantErr(t, err, 404, "not_found")
		if got := must[*voucher.Voucher](t)(l.Member(ctx, f.project, "", card.Code)); got.LoyaltyCard.Balance != 70 {
			t.Errorf("a refused change moved the balance to %d", got.LoyaltyCard.Balance)
		}

		for _, body := range []string{
			`{"event":"order.paid","loyalty":{"type":"FIXED"}}`,
			`{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_TOTAL_AMOUNT","order":{"amount":{"every":1,"points":1}}}}`,
			`{"event":"order.paid","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":0,"points":1}}}}`,
			`{"event":"order.paid","loyalty":{"type":"FIXED","points":-1}}`,
			`{"event":"order.paid","loyalty":{"type":"FIXED","points":5},"pending_points":{"period_type":"DAY","period_value":91}}`,
			`{"event":"page_view","loyalty":{"type":"FIXED","points":5},"pending_points":{"period_type":"DAY","period_value":3}}`,
			`{"event":"customer.segment.entered","loyalty":{"type":"FIXED","points":5}}`,
			`{"event":"page_view","loyalty":{"type":"PROPORTIONAL","calculation_type":"ORDER_AMOUNT","order":{"amount":{"every":1,"points":1}}}}`,
		} {
			_, err := l.CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t, body)})
			wantErr(t, err, 400, "invalid_payload")
		}
		var many []loyalty.EarningRuleParams
		for i := range loyalty.MaxEarningRules {
			many = append(many, decode[loyalty.EarningRuleParams](t, fmt.Sprintf(`{"event":"order.paid","loyalty":{"type":"FIXED","points":%d}}`, i+1)))
		}
		must[[]*loyalty.EarningRule](t)(l.CreateEarningRules(ctx, f.project, club.ID, many))
		_, err = l.CreateEarningRules(ctx, f.project, other.ID, many[:1])
		wantErr(t, err, 400, "invalid_payload")
		rules := must[*promotype.List[*loyalty.EarningRule]](t)(l.ListEarningRules(ctx, f.project, club.ID, promotype.ListParams{Limit: 100}))
		if rules.Total != loyalty.MaxEarningRules {
			t.Errorf("%d rules listed, want %d", rules.Total, loyalty.MaxEarningRules)
		}
	})
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// Worked example X5: a rule on the custom event
// page_view gives 2 points per volume_number of the event's metadata to
// the card the event names (loyalty.code); without a code, the customer's
// card of each program with a rule on the event (joining one with
// auto_join); a rule on another event gives nothing.
func TestLoyaltyCustomEventEarning(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		must[*project.CustomEventSchema](t)(f.eng.CustomEventSchemas().Create(ctx, f.project,
			decode[project.CustomEventSchemaParams](t, `{"name":"page_view","schema":{"properties":{"volume_number":{"type":"number"}}}}`)))
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"page_view","custom_event":{"schema_id":"ms_x"},"loyalty":{"type":"PROPORTIONAL","calculation_type":"CUSTOM_EVENT_METADATA","custom_event":{"metadata":{"every":1,"points":2,"property":"volume_number"}}}}`)
		earnOn(t, f, club, `{"event":"newsletter_signup","loyalty":{"type":"FIXED","points":50}}`)
		card := member(t, f, club, "viv", 0)
		track := func(body string) {
			t.Helper()
			must[*project.Tracked](t)(f.eng.CustomEvents().Track(ctx, f.project, decode[project.TrackParams](t, body)))
		}
		track(`{"event":"page_view","customer":{"source_id":"viv"},"loyalty":{"code":"` + card.Code + `"},"metadata":{"volume_number":4}}`)
		checkCard(t, f, card.Code, 8)
		track(`{"event":"page_view","customer":{"source_id":"wes"},"metadata":{"volume_number":3}}`)
		wes := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "wes"))
		if c := cardOf(t, f, club, wes.ID); c == nil || c.LoyaltyCard.Balance != 6 {
			t.Errorf("auto-joined card of wes: %+v", c)
		}
		txs := must[*redemption.TransactionList](t)(f.eng.Loyalties().Transactions(ctx, f.project, "", card.Code, redemption.TransactionListParams{}))
		if len(txs.Data) != 1 || txs.Data[0].Details.CustomEvent == nil || txs.Data[0].Details.CustomEvent.Type != "page_view" {
			t.Errorf("custom event accruals: %+v", txs.Data)
		}
	})
}

// Worked examples T1 and X8 (loyalty tiers): an order.paid
// rule giving 20 points gives a member 5 in the Bottom tier (CUSTOM 5), 20
// in Middle (not mapped) and 200 in Top (CUSTOM 200); a Bottom member at
// 240 earns 5 (245, still Bottom), and a manual 20 more moves them to
// Middle.
func TestLoyaltyTiersT1(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", false)
		r := earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":20}}`)
		tiers := must[[]*loyalty.Tier](t)(f.eng.Loyalties().CreateTiers(ctx, f.project, club.ID, []loyalty.TierParams{
			decode[loyalty.TierParams](t, `{"name":"Bottom","points":{"from":1,"to":249},"earning_rules":{"`+r.ID+`":{"type":"CUSTOM","points":5}}}`),
			decode[loyalty.TierParams](t, `{"name":"Middle","points":{"from":250,"to":499}}`),
			decode[loyalty.TierParams](t, `{"name":"Top","points":{"from":500,"to":1000},"earning_rules":{"`+r.ID+`":{"type":"CUSTOM","points":200}}}`),
		}))
		tierName := func(code string) string {
			t.Helper()
			l := must[*promotype.List[*loyalty.Tier]](t)(f.eng.Loyalties().MemberTiers(ctx, f.project, code))
			if len(l.Data) == 0 {
				return ""
			}
			return l.Data[0].Name
		}
		pay := func(sourceID string) {
			t.Helper()
			must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](1000), Status: promo.Ptr(order.StatusPaid),
				Customer: &customer.Params{SourceID: promo.Ptr(sourceID)}}))
		}
		for _, tc := range []struct {
			who         string
			start, want int64
			tier        string
		}{{"bottom", 240, 245, "Bottom"}, {"middle", 300, 320, "Middle"}, {"top", 600, 800, "Top"}, {"none", 0, 20, "Bottom"}} {
			card := member(t, f, club, tc.who, tc.start)
			pay(tc.who)
			checkCard(t, f, card.Code, tc.want)
			if got := tierName(card.Code); got != tc.tier {
				t.Errorf("%s at %d holds %q, want %q", tc.who, tc.want, got, tc.tier)
			}
		}
		bottom := cardOf(t, f, club, must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "bottom")).ID)
		must[*redemption.Balance](t)(f.eng.Loyalties().AddBalance(ctx, f.project, club.ID, bottom.Code, loyalty.BalanceParams{Points: 20}))
		if got := tierName(bottom.Code); got != "Middle" {
			t.Errorf("at 265 the member holds %q, want Middle", got)
		}
		mapped := must[*promotype.List[*loyalty.EarningRule]](t)(f.eng.Loyalties().TierEarningRules(ctx, f.project, club.ID, tiers[2].ID, promotype.ListParams{}))
		if len(mapped.Data) != 1 || *mapped.Data[0].Loyalty.Points != 200 {
			t.Errorf("Top's earning rules: %+v", mapped.Data)
		}
		_, err := f.eng.Loyalties().Tier(ctx, f.project, club.ID, "ltr_nope")
		wantErr(t, err, 404, "not_found")
		_, err = f.eng.Loyalties().CreateTiers(ctx, f.project, club.ID, []loyalty.TierParams{
			decode[loyalty.TierParams](t, `{"name":"Bad","points":{"from":1},"earning_rules":{"ern_nope":{"type":"CUSTOM","points":5}}}`)})
		wantErr(t, err, 404, "not_found")
	})
}

// Worked example X9 (pending points): a FIXED 1000
// rule with pending_points 3 days, an order paid 2026-01-15 gives a
// pending entry due 2026-01-18 (card pending_points 1000, balance 0);
// activated by hand it becomes a PENDING_POINTS_ACTIVATION; another is
// adjusted, canceled, and a third activates when due (ActivateDue).
func TestLoyaltyPendingPointsX9(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		f.clock.Set(time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC))
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":1000},"pending_points":{"period_type":"DAY","period_value":3}}`)
		pay := func(id string) {
			t.Helper()
			must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{SourceID: order.Some(id), Amount: promo.Ptr[int64](100),
				Status: promo.Ptr(order.StatusPaid), Customer: &customer.Params{SourceID: promo.Ptr("pia")}}))
		}
		pay("o-1")
		pia := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "pia"))
		card := cardOf(t, f, club, pia.ID)
		if card.LoyaltyCard.Balance != 0 || deref(card.LoyaltyCard.PendingPoints) != 1000 {
			t.Fatalf("card after the paid order: %+v", card.LoyaltyCard)
		}
		l := f.eng.Loyalties()
		pending := must[*loyalty.PendingList](t)(l.ListPending(ctx, f.project, club.ID, card.Code, loyalty.PendingListParams{}))
		if len(pending.Data) != 1 || pending.Data[0].ActivatesAt != "2026-01-18" || pending.Data[0].Points != 1000 || *pending.Data[0].OrderID == "" {
			t.Fatalf("pending entries: %+v", pending.Data)
		}
		first := pending.Data[0].ID
		b := must[*redemption.Balance](t)(l.ActivatePending(ctx, f.project, card.Code, first))
		if *b.Points != 1000 || b.Balance != 1000 {
			t.Errorf("activation answered %+v", b)
		}
		_, err := l.ActivatePending(ctx, f.project, card.Code, first)
		wantErr(t, err, 400, "invalid_pending_points_state")
		got := checkCard(t, f, card.Code, 1000)
		if deref(got.LoyaltyCard.PendingPoints) != 0 {
			t.Errorf("pending after activation: %v", got.LoyaltyCard.PendingPoints)
		}

		pay("o-2")
		pay("o-3")
		pending = must[*loyalty.PendingList](t)(l.ListPending(ctx, f.project, "", card.Code, loyalty.PendingListParams{}))
		if len(pending.Data) != 2 {
			t.Fatalf("%d pending entries, want 2", len(pending.Data))
		}
		second, third := pending.Data[0].ID, pending.Data[1].ID
		adj := must[*redemption.Balance](t)(l.AdjustPending(ctx, f.project, card.Code, second, loyalty.PendingBalanceParams{Points: -400}))
		if adj.Total != 600 {
			t.Errorf("adjusted entry total %d, want 600", adj.Total)
		}
		_, err = l.AdjustPending(ctx, f.project, card.Code, second, loyalty.PendingBalanceParams{Points: -600})
		wantErr(t, err, 400, "invalid_amount")
		must0(t, l.CancelPending(ctx, f.project, card.Code, second))
		_, err = l.AdjustPending(ctx, f.project, card.Code, second, loyalty.PendingBalanceParams{Points: 1})
		wantErr(t, err, 400, "invalid_pending_points_state")

		if n := must[int](t)(l.ActivateDue(ctx, f.project, 100)); n != 0 {
			t.Errorf("%d entries activated before their date", n)
		}
		f.clock.Set(time.Date(2026, 1, 18, 0, 0, 0, 0, time.UTC))
		if n := must[int](t)(l.ActivateDue(ctx, f.project, 100)); n != 1 {
			t.Errorf("%d entries activated on their date, want 1 (%s)", n, third)
		}
		got = checkCard(t, f, card.Code, 2000)
		if deref(got.LoyaltyCard.PendingPoints) != 0 {
			t.Errorf("pending after all: %v", got.LoyaltyCard.PendingPoints)
		}
		txs := must[*redemption.TransactionList](t)(l.Transactions(ctx, f.project, "", card.Code, redemption.TransactionListParams{}))
		if len(txs.Data) != 2 || txs.Data[0].Type != redemption.TxPendingActivation || txs.Data[1].Type != redemption.TxPendingActivation {
			t.Errorf("transactions: %+v", txs.Data)
		}
	})
}

func must0(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A rule earns only inside its validity (in the project's time zone), and
// without its own, inside its program's.
func TestLoyaltyEarningValidity(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":1},"expiration_date":"2025-12-31T00:00:00Z"}`)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":10},"start_date":"2026-02-01T00:00:00Z"}`)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":100},"start_date":"2025-12-01T00:00:00Z","validity_day_of_week":[4]}`)
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](100), Status: promo.Ptr(order.StatusPaid),
			Customer: &customer.Params{SourceID: promo.Ptr("val")}})) // 2026-01-01 is a Thursday
		if c := cardOf(t, f, club, *o.CustomerID); c == nil || c.LoyaltyCard.Balance != 100 {
			t.Errorf("card: %+v, want only the open rule's 100", c)
		}
	})
}

// The background scheduler (started with the async runner) activates
// pending points once their date has come, in every project that has some.
func TestLoyaltySchedulerActivatesDuePoints(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":30},"pending_points":{"period_type":"DAY","period_value":1}}`)
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](100), Status: promo.Ptr(order.StatusPaid),
			Customer: &customer.Params{SourceID: promo.Ptr("sam")}}))
		card := cardOf(t, f, club, *o.CustomerID)
		if more, err := f.eng.Loyalties().RunDue(ctx); err != nil || more {
			t.Fatalf("RunDue before the date: more %v, %v", more, err)
		}
		checkCard(t, f, card.Code, 0)
		f.clock.Advance(24 * time.Hour)
		if err := f.eng.StartAsyncRunner(ctx, async.Config{}); err != nil {
			t.Fatal(err)
		}
		defer f.eng.Close()
		eventually(t, time.Minute, "the scheduler never activated the due points", func() bool {
			c := must[*voucher.Voucher](t)(f.eng.Loyalties().Member(ctx, f.project, "", card.Code))
			return c.LoyaltyCard.Balance == 30
		})
		checkCard(t, f, card.Code, 30)
	})
}

// A disabled program earns nothing from the next order on, and earns
// again once enabled: the engine drops its cached rules and programs when
// a campaign changes.
func TestLoyaltyDisabledProgramEarnsNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":10}}`)
		pay := func() {
			t.Helper()
			must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](100), Status: promo.Ptr(order.StatusPaid),
				Customer: &customer.Params{SourceID: promo.Ptr("dee")}}))
		}
		pay()
		dee := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "dee"))
		card := cardOf(t, f, club, dee.ID)
		must[*campaign.Campaign](t)(f.eng.Campaigns().Disable(ctx, f.project, club.ID))
		pay()
		checkCard(t, f, card.Code, 10)
		must[*campaign.Campaign](t)(f.eng.Campaigns().Enable(ctx, f.project, club.ID))
		pay()
		checkCard(t, f, card.Code, 20)
	})
}
