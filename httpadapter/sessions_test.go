package httpadapter_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// sessionFixture adds to the validation fixture a voucher of quantity 1.
func sessionFixture(h *harness) map[string]string {
	ids := validationFixture(h)
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ONCE",
		body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":500},"redemption":{"quantity":1}}`}, http.StatusOK)
	return ids
}

func release(code, key string) req {
	return req{method: http.MethodDelete, target: "/v1/vouchers/" + code + "/sessions/" + key}
}

// TestSessions walks a LOCK session through HTTP (and W6's last
// sentence): the echo, the unit it holds refused to others, used by
// the legacy redemption that bears its key, and DELETE's 204 and 404s.
func TestSessions(t *testing.T) {
	h := newHarness(t)
	ids := sessionFixture(h)
	once := `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}`
	gift := func(credits, session string) req {
		return validation(`{"redeemables":[{"object":"voucher","id":"M3X8IwW8","gift":{"credits":`+credits+`}}],"order":{"amount":10000}`+session+`}`, ids)
	}
	h.run(t, "sessions", []step{
		{"lock", validation(once+`,"session":{"type":"LOCK","key":"cart-1","ttl":2,"ttl_unit":"HOURS"}}`, ids), 200},
		{"others_quantity_exceeded", validation(once+`}`, ids), 200},
		{"redeem_without_key", req{method: http.MethodPost, target: "/v1/redemptions", body: once + `,"customer":{"source_id":"alice"}}`}, 400},
		{"legacy_validate_with_key", req{method: http.MethodPost, target: "/v1/vouchers/ONCE/validate", body: `{"customer":{"source_id":"alice"},"order":{"amount":1000},"session":{"key":"cart-1"}}`}, 200},
		{"legacy_redeem_with_key", req{method: http.MethodPost, target: "/v1/vouchers/ONCE/redemption", body: `{"customer":{"source_id":"alice"},"order":{"amount":1000},"session":{"key":"cart-1"}}`}, 200},
		{"release_consumed", release("ONCE", "cart-1"), 404},
		{"lock_gift_default_ttl", gift("4000", `,"session":{"type":"LOCK"}`), 200},
		{"gift_others_exceeded", gift("2000", ""), 200},
		{"legacy_lock_gift", req{method: http.MethodPost, target: "/v1/vouchers/M3X8IwW8/validate",
			body: `{"customer":{"source_id":"alice"},"gift":{"credits":1000},"order":{"amount":10000},"session":{"type":"LOCK","key":"cart-3","ttl":30,"ttl_unit":"MINUTES"}}`}, 200},
		{"release_unknown_voucher", release("NOPE", "cart-3"), 404},
		{"release_unknown_session", release("M3X8IwW8", "cart-9"), 404},
		{"release", release("M3X8IwW8", "cart-3"), 204},
		// Points of a loyalty card: 60 of its 100 held.
		{"lock_points", validation(`{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"{coin}","points":60}}],"order":{"amount":10000},"session":{"type":"LOCK","key":"pts"}}`, ids), 200},
		{"points_others_exceeded", validation(`{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"{coin}","points":41}}],"order":{"amount":10000}}`, ids), 200},
		{"points_own_key", validation(`{"redeemables":[{"object":"voucher","id":"AnsvocvP","reward":{"id":"{coin}","points":100}}],"order":{"amount":10000},"session":{"key":"pts"}}`, ids), 200},
	})
	// The 30-minute session is gone; the default one (7 days) still holds
	// 4000 of the 5000 credits.
	rec := h.do(gift("1000", ""))
	if !strings.Contains(rec.Body.String(), `"valid":true`) {
		t.Fatalf("1000 credits beside a 4000 lock: %s", rec.Body)
	}
	h.clock.Advance(7*24*time.Hour + time.Second)
	rec = h.do(gift("5000", ""))
	if !strings.Contains(rec.Body.String(), `"valid":true`) {
		t.Fatalf("the whole balance once the lock expired: %s", rec.Body)
	}
}

// TestSessionRefusals: bad session values are 400s in the Error shape and
// reserve nothing.
func TestSessionRefusals(t *testing.T) {
	h := newHarness(t)
	ids := sessionFixture(h)
	once := `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000},"session":`
	h.run(t, "sessions/refusals", []step{
		{"unknown_type", validation(once+`{"type":"SOFT"}}`, ids), 400},
		{"zero_ttl", validation(once+`{"type":"LOCK","ttl":0}}`, ids), 400},
		{"text_ttl", validation(once+`{"type":"LOCK","ttl":"7"}}`, ids), 400},
		{"unknown_unit", validation(once+`{"type":"LOCK","ttl":1,"ttl_unit":"WEEKS"}}`, ids), 400},
		{"long_key", validation(once+`{"type":"LOCK","key":"`+strings.Repeat("k", 201)+`"}}`, ids), 400},
		{"redeem_bad_ttl", req{method: http.MethodPost, target: "/v1/redemptions", body: once + `{"type":"LOCK","ttl":-1}}`}, 400},
		{"legacy_bad_unit", req{method: http.MethodPost, target: "/v1/vouchers/ONCE/validate", body: `{"session":{"type":"LOCK","ttl_unit":"YEARS"}}`}, 400},
	})
	// Nothing was reserved: the only unit is still there.
	h.mustDo(req{method: http.MethodPost, target: "/v1/vouchers/ONCE/redemption", body: `{"order":{"amount":1000}}`}, http.StatusOK)
}

// Isolation rows of sessions (isolation_test.go): project B cannot release
// project A's session.
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		h.mustDo(req{method: http.MethodPost, target: "/v1/validations",
			body: `{"redeemables":[{"object":"voucher","id":"` + ids["code"] + `"}],"order":{"amount":1000},"session":{"type":"LOCK","key":"iso-session"}}`}, http.StatusOK)
		ids["sessionKey"] = "iso-session"
	})
	isolationRows = append(isolationRows,
		isolationRow{"release session", http.MethodDelete, "/v1/vouchers/{code}/sessions/{sessionKey}", ""},
	)
}
