package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/rule"
)

// An earning rule's validation_rule_id gates it: an order.paid rule gated
// by "order.amount more than 5000" earns on an order of 6000, not on one
// of 3000; a gate on customer metadata earns for the customer it admits;
// an unknown validation rule is 404, and an update can lift the gate.
func TestLoyaltyEarningRuleGate(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", true)
		big := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"Big orders","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[5000]}}}}`)))
		vip := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, ruleParams(t,
			`{"name":"VIPs","rules":{"1":{"name":"customer.metadata","property":"vip","conditions":{"$is":[true]}}}}`)))
		gated := earnOn(t, f, club, `{"event":"order.paid","validation_rule_id":"`+big.ID+`","loyalty":{"type":"FIXED","points":10}}`)
		earnOn(t, f, club, `{"event":"order.paid","validation_rule_id":"`+vip.ID+`","loyalty":{"type":"FIXED","points":100}}`)
		pay := func(who string, amount int64, meta map[string]any) int64 {
			t.Helper()
			o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr(amount), Status: promo.Ptr(order.StatusPaid),
				Customer: &customer.Params{SourceID: promo.Ptr(who), Metadata: meta}}))
			card := cardOf(t, f, club, *o.CustomerID)
			if card == nil {
				return 0
			}
			return card.LoyaltyCard.Balance
		}
		if got := pay("amy", 3000, nil); got != 0 {
			t.Errorf("an order of 3000 earned %d, want 0", got)
		}
		if got := pay("amy", 6000, nil); got != 10 {
			t.Errorf("an order of 6000 earned %d, want 10", got)
		}
		if got := pay("vic", 3000, map[string]any{"vip": true}); got != 100 {
			t.Errorf("a VIP's order of 3000 earned %d, want 100", got)
		}
		l := f.eng.Loyalties()
		_, err := l.CreateEarningRules(ctx, f.project, club.ID, []loyalty.EarningRuleParams{decode[loyalty.EarningRuleParams](t,
			`{"event":"order.paid","validation_rule_id":"val_nope","loyalty":{"type":"FIXED","points":1}}`)})
		wantErr(t, err, 404, "not_found")
		_, err = l.UpdateEarningRule(ctx, f.project, club.ID, gated.ID, loyalty.EarningRuleUpdate{ValidationRuleID: promo.Ptr("val_nope")})
		wantErr(t, err, 404, "not_found")
		lifted := must[*loyalty.EarningRule](t)(l.UpdateEarningRule(ctx, f.project, club.ID, gated.ID, loyalty.EarningRuleUpdate{ValidationRuleID: promo.Ptr("")}))
		if lifted.ValidationRuleID != nil {
			t.Errorf("the gate stays: %v", *lifted.ValidationRuleID)
		}
		if got := pay("amy", 3000, nil); got != 20 {
			t.Errorf("after lifting the gate an order of 3000 earned up to %d, want 20", got)
		}
	})
}

// Points a rule's pending entry gives expire by the rule's own
// expiration_rules, counted from the activation: earned on 15 January,
// pending 3 days, MONTH 1 → activated on 18 January, last day 18
// February; the program has no rules of its own.
func TestLoyaltyPendingExpiresByItsRule(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		f.clock.Set(time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC))
		club := newProgram(t, f, "Club", true)
		earnOn(t, f, club, `{"event":"order.paid","loyalty":{"type":"FIXED","points":100},"pending_points":{"period_type":"DAY","period_value":3},
			"expiration_rules":{"period_type":"MONTH","period_value":1}}`)
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Amount: promo.Ptr[int64](100), Status: promo.Ptr(order.StatusPaid),
			Customer: &customer.Params{SourceID: promo.Ptr("pat")}}))
		f.clock.Set(time.Date(2026, 1, 18, 0, 0, 0, 0, time.UTC))
		if n := must[int](t)(f.eng.Loyalties().ActivateDue(ctx, f.project, 100)); n != 1 {
			t.Fatalf("%d entries activated, want 1", n)
		}
		card := checkCard(t, f, cardOf(t, f, club, *o.CustomerID).Code, 100)
		diff(t, "next expiration", [2]any{"2026-02-18", int64(100)}, [2]any{derefStr(card.LoyaltyCard.NextExpirationDate), deref(card.LoyaltyCard.NextExpirationPoints)})
	})
}
