package promo_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// sessionCall is what the session tests send: one voucher, its gift
// credits (0: none) and the session.
func sessionCall(code string, credits int64, s *redemption.SessionParams) redemption.ValidationParams {
	r := redemption.RedeemableParams{Object: redemption.ObjectVoucher, ID: code}
	if credits > 0 {
		r.Gift = &redemption.GiftParams{Credits: &credits}
	}
	amount := int64(100_000)
	return redemption.ValidationParams{Redeemables: []redemption.RedeemableParams{r}, Session: s, Order: &order.Params{Amount: &amount}}
}

// lock is a LOCK session with key (ttl and unit optional).
func lock(key string) *redemption.SessionParams {
	return &redemption.SessionParams{Type: redemption.SessionLock, Key: key}
}

// outcome is "valid" or the key of the first inapplicable redeemable.
func outcome(t testing.TB, v *redemption.Validation, err error) string {
	t.Helper()
	if err != nil {
		t.Fatalf("validation: %v", err)
	}
	if v.Valid {
		return "valid"
	}
	for _, r := range v.InapplicableRedeemables {
		return r.Result.Error.Key
	}
	return "invalid"
}

func sessionVoucher(t testing.TB, eng *promo.Engine, p, code, body string) *voucher.Voucher {
	t.Helper()
	in := js[voucher.Params](t, body)
	in.Code = &code
	return must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
}

// TestSessionsLock walks LOCK sessions through the Go API on every store:
// the echo, units and credits held from every other
// request, a key's own unit used by its redemption (once), DELETE, key
// reuse, expiry on the engine clock and W6 with a session holding the
// only unit.
func TestSessionsLock(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		val, red := f.eng.Validations(), f.eng.Redemptions()
		validate := func(code string, credits int64, s *redemption.SessionParams) string {
			t.Helper()
			v, err := val.Validate(ctx, f.project, sessionCall(code, credits, s))
			return outcome(t, v, err)
		}
		redeem := func(code string, s *redemption.SessionParams) (*redemption.Redemptions, error) {
			return red.Redeem(ctx, f.project, sessionCall(code, 0, s), redemption.RedeemOptions{})
		}
		q2 := sessionVoucher(t, f.eng, f.project, "Q2", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":2}}`)

		v := must[*redemption.Validation](t)(val.Validate(ctx, f.project, sessionCall("Q2", 0, lock("cart-1"))))
		diff(t, "echo", &redemption.Session{Key: "cart-1", Type: "LOCK", TTL: 7, TTLUnit: "DAYS"}, v.Session)
		diff(t, "sessions", []string{"valid", "valid", "quantity_exceeded", "quantity_exceeded", "valid"},
			[]string{validate("Q2", 0, lock("cart-2")), // the second unit
				validate("Q2", 0, lock("cart-2")), // reuse: cart-2 still holds one unit, not two
				validate("Q2", 0, lock("cart-3")), validate("Q2", 0, nil), validate("Q2", 0, &redemption.SessionParams{Key: "cart-1"})})
		_, err := redeem("Q2", nil)
		wantErr(t, err, 400, "quantity_exceeded")
		out := must[*redemption.Redemptions](t)(redeem("Q2", &redemption.SessionParams{Key: "cart-1"}))
		diff(t, "the redemption's session", &redemption.RedemptionSession{Key: "cart-1"}, out.Redemptions[0].Session)
		_, err = redeem("Q2", &redemption.SessionParams{Key: "cart-1"}) // its unit is consumed
		wantErr(t, err, 400, "quantity_exceeded")
		must[struct{}](t)(struct{}{}, val.ReleaseSession(ctx, f.project, q2.ID, "cart-2")) // by voucher id
		wantErr(t, val.ReleaseSession(ctx, f.project, "Q2", "cart-2"), 404, "not_found")
		wantErr(t, val.ReleaseSession(ctx, f.project, "NOPE", "cart-1"), 404, "not_found")
		must[*redemption.Redemptions](t)(redeem("Q2", nil))
		diff(t, "redeemed", int64(2), must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "Q2")).RedeemedQuantity)

		// Credits: a key's next LOCK overwrites its reservation.
		sessionVoucher(t, f.eng, f.project, "G1000", `{"type":"GIFT_VOUCHER","gift":{"amount":1000}}`)
		diff(t, "credits", []string{"valid", "valid", "valid", "gift_amount_exceeded", "gift_amount_exceeded"},
			[]string{validate("G1000", 600, lock("g1")), validate("G1000", 300, lock("g1")), validate("G1000", 700, nil),
				validate("G1000", 701, nil), validate("G1000", 800, lock("g2"))})
		_, err = red.Redeem(ctx, f.project, sessionCall("G1000", 701, nil), redemption.RedeemOptions{})
		wantErr(t, err, 400, "gift_amount_exceeded")
		must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, sessionCall("G1000", 300, &redemption.SessionParams{Key: "g1"}), redemption.RedeemOptions{}))
		diff(t, "after g1's redemption", "valid", validate("G1000", 700, nil))

		// Expiry on the engine clock; W6 with a session holding the only unit.
		sessionVoucher(t, f.eng, f.project, "ONCE", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":1}}`)
		ttl := 30.0
		diff(t, "30-minute lock", "valid", validate("ONCE", 0, &redemption.SessionParams{Type: "LOCK", Key: "t1", TTL: &ttl, TTLUnit: "MINUTES"}))
		diff(t, "W6 validation", "quantity_exceeded", validate("ONCE", 0, nil))
		_, err = redeem("ONCE", nil)
		wantErr(t, err, 400, "quantity_exceeded")
		_, err = red.RedeemVoucher(ctx, f.project, "ONCE", redemption.LegacyRedeemParams{}, redemption.RedeemOptions{})
		if e := wantErr(t, err, 400, "quantity_exceeded"); e.ResourceType != "redemption" || e.ResourceID == "" {
			t.Errorf("legacy refusal names %s %s, want the failed redemption", e.ResourceType, e.ResourceID)
		}
		f.clock.Advance(29 * time.Minute)
		diff(t, "before expiry", "quantity_exceeded", validate("ONCE", 0, nil))
		f.clock.Advance(2 * time.Minute)
		diff(t, "after expiry", "valid", validate("ONCE", 0, nil))
		wantErr(t, val.ReleaseSession(ctx, f.project, "ONCE", "t1"), 404, "not_found")
		must[*redemption.Redemptions](t)(redeem("ONCE", nil))
	})
}

// TestSessionsStacked: one key locks every voucher of a stacked call;
// DELETE releases one voucher's lock only; a key's
// LOCK that no voucher applies to drops what it held.
func TestSessionsStacked(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		val := f.eng.Validations()
		for _, c := range []string{"A1", "B1"} {
			sessionVoucher(t, f.eng, f.project, c, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":1}}`)
		}
		both := sessionCall("A1", 0, lock("cart"))
		both.Redeemables = append(both.Redeemables, redemption.RedeemableParams{Object: redemption.ObjectVoucher, ID: "B1"})
		diff(t, "stacked lock", "valid", outcome(t, must[*redemption.Validation](t)(val.Validate(ctx, f.project, both)), nil))
		check := func(what string, want ...string) {
			t.Helper()
			got := []string{}
			for _, c := range []string{"A1", "B1"} {
				v, err := val.Validate(ctx, f.project, sessionCall(c, 0, nil))
				got = append(got, outcome(t, v, err))
			}
			diff(t, what, want, got)
		}
		check("both held", "quantity_exceeded", "quantity_exceeded")
		must[struct{}](t)(struct{}{}, val.ReleaseSession(ctx, f.project, "A1", "cart"))
		check("A1 released", "valid", "quantity_exceeded")
		// The key's next LOCK on A1 alone replaces its B1 reservation.
		diff(t, "relock A1", "valid", outcome(t, must[*redemption.Validation](t)(val.Validate(ctx, f.project, sessionCall("A1", 0, lock("cart")))), nil))
		check("A1 held, B1 free", "quantity_exceeded", "valid")
		// A LOCK on nothing applicable drops the key's reservations.
		diff(t, "lock on a missing code", "not_found", outcome(t, must[*redemption.Validation](t)(val.Validate(ctx, f.project, sessionCall("NOPE", 0, lock("cart")))), nil))
		check("nothing held", "valid", "valid")
		// Under ALL, one failure makes the answer invalid: nothing is held.
		mode := redemption.ModeAll
		must[*redemption.StackingRules](t)(f.eng.StackingRules().Create(ctx, f.project, redemption.StackingRulesParams{RedeemablesApplicationMode: &mode}))
		allOrNothing := sessionCall("A1", 0, lock("cart"))
		allOrNothing.Redeemables = append(allOrNothing.Redeemables, redemption.RedeemableParams{Object: redemption.ObjectVoucher, ID: "NOPE"})
		v := must[*redemption.Validation](t)(val.Validate(ctx, f.project, allOrNothing))
		diff(t, "ALL with a failure", []any{false, "cart"}, []any{v.Valid, v.Session.Key})
		check("ALL: nothing held", "valid", "valid")
	})
}

// TestSessionsRefusals: bad session values are 400 invalid_payload and
// reserve nothing.
func TestSessionsRefusals(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		sessionVoucher(t, f.eng, f.project, "ONCE", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":1}}`)
		zero, neg, huge := 0.0, -1.0, 1e300
		long := make([]byte, redemption.MaxSessionKey+1)
		for i := range long {
			long[i] = 'k'
		}
		for name, s := range map[string]*redemption.SessionParams{
			"type": {Type: "SOFT"}, "zero ttl": {Type: "LOCK", TTL: &zero}, "negative ttl": {Type: "LOCK", TTL: &neg},
			"huge ttl": {Type: "LOCK", TTL: &huge}, "unit": {Type: "LOCK", TTLUnit: "WEEKS"}, "long key": {Type: "LOCK", Key: string(long)},
			"control key": {Type: "LOCK", Key: "a\x00b"},
		} {
			_, err := f.eng.Validations().Validate(ctx, f.project, sessionCall("ONCE", 0, s))
			if e := promotype.AsError(err); err == nil || e.Code != 400 || e.Key != "invalid_payload" {
				t.Errorf("%s: %v, want 400 invalid_payload", name, err)
			}
			_, err = f.eng.Redemptions().Redeem(ctx, f.project, sessionCall("ONCE", 0, s), redemption.RedeemOptions{})
			if e := promotype.AsError(err); err == nil || e.Code != 400 || e.Key != "invalid_payload" {
				t.Errorf("%s (redemption): %v, want 400 invalid_payload", name, err)
			}
		}
		diff(t, "the unit is free", "valid", outcome(t, must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, sessionCall("ONCE", 0, nil))), nil))
	})
}

// TestSessionsConcurrency: N ≫ Q concurrent LOCK validations with distinct
// keys on a voucher of quantity Q get exactly Q reservations; sessions
// racing redemptions without a key hand out Q units in all, each success
// accounted for (redeemed_quantity and live reservations).
func TestSessionsConcurrency(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			clock := promotype.NewManualClock(t0)
			eng := must[*promo.Engine](t)(promo.New(st, promo.WithClock(clock), promo.WithIDGenerator(promotype.RandomIDs{})))
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"})).ID
			const n, q = 24, 4
			parallel := func(fn func(i int) string) map[string]int {
				t.Helper()
				var mu sync.Mutex
				got := map[string]int{}
				inParallel(t, n, func(i int) {
					o := fn(i)
					mu.Lock()
					got[o]++
					mu.Unlock()
				})
				return got
			}
			lockOutcome := func(code string, i int) string {
				v, err := eng.Validations().Validate(ctx, p, sessionCall(code, 0, lock(fmt.Sprintf("k%d", i))))
				if err != nil {
					return "error: " + err.Error()
				}
				return "lock " + outcome(t, v, nil)
			}
			sessionVoucher(t, eng, p, "Q4", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":4}}`)
			diff(t, "sessions", map[string]int{"lock valid": q, "lock quantity_exceeded": n - q}, parallel(func(i int) string { return lockOutcome("Q4", i) }))

			m := sessionVoucher(t, eng, p, "M4", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":4}}`)
			got := parallel(func(i int) string {
				if i%2 == 0 {
					return lockOutcome("M4", i)
				}
				_, err := eng.Redemptions().Redeem(ctx, p, sessionCall("M4", 0, nil), redemption.RedeemOptions{})
				if err != nil {
					return "redeem " + promotype.AsError(err).Key
				}
				return "redeem ok"
			})
			if got["lock valid"]+got["redeem ok"] != q || got["lock valid"]+got["lock quantity_exceeded"]+got["redeem ok"]+got["redeem quantity_exceeded"] != n {
				t.Fatalf("mixed outcomes %v: want %d successes in all and only quantity_exceeded refusals", got, q)
			}
			rs := must[[]*redemption.Reservation](t)(st.Reservations(ctx, p, m.ID, clock.Now()))
			redeemed := must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p, "M4")).RedeemedQuantity
			diff(t, "accounted", []int64{int64(got["redeem ok"]), int64(got["lock valid"])}, []int64{redeemed, int64(len(rs))})
		})
	}
}
