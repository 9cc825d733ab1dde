package promo_test

import (
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// historyVoucher creates a voucher guarded by one validation rule set.
func historyVoucher(t *testing.T, eng *promo.Engine, projectID, code, rules string) {
	t.Helper()
	in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`)
	in.Code = &code
	v := must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, projectID, in))
	vr := must[*rule.ValidationRule](t)(eng.ValidationRules().Create(ctx, projectID, ruleParams(t, rules)))
	must[*rule.Assignment](t)(eng.ValidationRules().Assign(ctx, projectID, vr.ID, rule.AssignmentParams{RelatedObjectID: v.ID}, false))
}

func redeemBody(code, customer string) string {
	return `{"redeemables":[{"object":"voucher","id":"` + code + `"}],"customer":{"source_id":"` + customer + `"},"order":{"amount":1000}}`
}

// TestHistoryRulePerCustomerConcurrent: N concurrent redemptions by one
// customer under redemption.count.per_customer ≤ L succeed exactly L
// times on every store, the others fail with redemption_rules_violated and
// the rule's message; another customer still can; a rollback gives one
// back.
func TestHistoryRulePerCustomerConcurrent(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		const n, l = 16, 3
		historyVoucher(t, f.eng, f.project, "PERCUST", `{"name":"per customer","rules":{"logic":"1","1":{"name":"redemption.count.per_customer","conditions":{"$less_than_or_equal":[3]},"error":{"message":"three per customer"}}}}`)
		var mu sync.Mutex
		ok, keys, ids := 0, map[string]int{}, []string{}
		inParallel(t, n, func(int) {
			out, err := f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("PERCUST", "alice")), redemption.RedeemOptions{})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				e := promotype.AsError(err)
				keys[e.Key+"/"+e.Message]++
				if e.Key == "internal_error" {
					t.Logf("internal: %v", err)
				}
				return
			}
			ok++
			ids = append(ids, out.Redemptions[0].ID)
		})
		diff(t, "outcomes", []any{l, map[string]int{"redemption_rules_violated/redemption does not match validation rules": n - l}}, []any{ok, keys})

		// The rule's own message is the error's error.message.
		_, err := f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("PERCUST", "alice")), redemption.RedeemOptions{})
		if e := promotype.AsError(err); e.Err == nil || e.Err.Message != "three per customer" {
			t.Errorf("error.message of the refusal: %+v", e)
		}
		// Another customer has its own count.
		must[*redemption.Redemptions](t)(f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("PERCUST", "bob")), redemption.RedeemOptions{}))
		// Validation reads the same count.
		v := must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("PERCUST", "alice"))))
		if v.Valid || len(v.InapplicableRedeemables) != 1 || v.InapplicableRedeemables[0].Result.Error.Key != "redemption_rules_violated" {
			t.Errorf("validation at the limit: valid %v, %+v", v.Valid, v.InapplicableRedeemables)
		}
		// A rollback gives one back.
		must[*redemption.RollbackStack](t)(f.eng.Redemptions().Rollback(ctx, f.project, ids[0], redemption.RollbackParams{}))
		must[*redemption.Redemptions](t)(f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("PERCUST", "alice")), redemption.RedeemOptions{}))
		_, err = f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody("PERCUST", "alice")), redemption.RedeemOptions{})
		wantErr(t, err, 400, "redemption_rules_violated")
		// Without a customer the rule cannot be checked.
		_, err = f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"PERCUST"}],"order":{"amount":1000}}`), redemption.RedeemOptions{})
		wantErr(t, err, 400, "missing_customer")
	})
}

// TestHistoryRuleDailyResets: a daily limit counts the day in the
// project's time zone and resets when the (injected) clock reaches the
// next day there, not at midnight UTC.
func TestHistoryRuleDailyResets(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		p := must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Tokyo", TimeZone: "Asia/Tokyo"}))
		// 2026-01-01 14:00 UTC is 23:00 in Tokyo.
		f.clock.Set(time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC))
		historyVoucher(t, f.eng, p.ID, "DAILY2", `{"name":"daily","rules":{"logic":"1","1":{"name":"redemption.count.daily","conditions":{"$less_than":[3]}}}}`)
		redeem := func(who string) error {
			_, err := f.eng.Redemptions().Redeem(ctx, p.ID, js[redemption.ValidationParams](t, redeemBody("DAILY2", who)), redemption.RedeemOptions{})
			return err
		}
		if err := redeem("a"); err != nil {
			t.Fatal(err)
		}
		if err := redeem("b"); err != nil {
			t.Fatal(err)
		}
		wantErr(t, redeem("c"), 400, "redemption_rules_violated")
		// 14:59 UTC: still 23:59 in Tokyo.
		f.clock.Set(time.Date(2026, 1, 1, 14, 59, 0, 0, time.UTC))
		wantErr(t, redeem("c"), 400, "redemption_rules_violated")
		// 15:00 UTC: the next day in Tokyo, the count starts again.
		f.clock.Set(time.Date(2026, 1, 1, 15, 0, 0, 0, time.UTC))
		if err := redeem("c"); err != nil {
			t.Fatalf("first redemption of the next Tokyo day: %v", err)
		}
		if err := redeem("d"); err != nil {
			t.Fatal(err)
		}
		wantErr(t, redeem("e"), 400, "redemption_rules_violated")
	})
}

// TestHistoryRuleCampaignCounters: distinct customers count once per
// customer while it has a net redemption; the campaign budget includes the
// redemption being made.
func TestHistoryRuleCampaignCounters(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		historyVoucher(t, f.eng, f.project, "TWOCUST", `{"name":"two customers","rules":{"logic":"1","1":{"name":"campaign.redemptions.customers_count","conditions":{"$less_than_or_equal":[2]}}}}`)
		redeem := func(code, who string) (*redemption.Redemptions, error) {
			return f.eng.Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, redeemBody(code, who)), redemption.RedeemOptions{})
		}
		a1 := must[*redemption.Redemptions](t)(redeem("TWOCUST", "a"))
		must[*redemption.Redemptions](t)(redeem("TWOCUST", "a")) // the same customer again: still one
		must[*redemption.Redemptions](t)(redeem("TWOCUST", "b"))
		_, err := redeem("TWOCUST", "c")
		wantErr(t, err, 400, "redemption_rules_violated")
		// a's first redemption undone: a still has one, c still cannot.
		must[*redemption.RollbackStack](t)(f.eng.Redemptions().Rollback(ctx, f.project, a1.Redemptions[0].ID, redemption.RollbackParams{}))
		_, err = redeem("TWOCUST", "c")
		wantErr(t, err, 400, "redemption_rules_violated")

		// Budget: 100 off each; at most 250 discounted in all.
		historyVoucher(t, f.eng, f.project, "BUDGET", `{"name":"budget","rules":{"logic":"1","1":{"name":"campaign.orders.amount_discounted","conditions":{"$less_than_or_equal":[250]}}}}`)
		must[*redemption.Redemptions](t)(redeem("BUDGET", "a"))
		must[*redemption.Redemptions](t)(redeem("BUDGET", "b"))
		_, err = redeem("BUDGET", "c")
		wantErr(t, err, 400, "redemption_rules_violated")
	})
}
