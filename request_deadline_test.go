package promo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// stallingStore is a store whose transactions, while stalling is set, do
// all their writes and then stall until their context ends, as a database
// that stops answering before the commit; the transaction's work itself
// succeeded.
type stallingStore struct {
	storage.Store
	stalling atomic.Bool
}

func (s *stallingStore) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	return s.Store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		err := fn(ctx, tx)
		if err == nil && s.stalling.Load() {
			<-ctx.Done()
		}
		return err
	})
}

// A redemption whose store stalls past the request's deadline is rolled
// back and answered 503 with Retry-After, well before a server's write
// timeout: no redemption commits without an answer. Retried with its
// Idempotency-Key once the store answers again, it redeems once.
func TestRequestDeadlineRollsBackAndAnswers503(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			store := &stallingStore{Store: newStore(t)}
			eng, err := promo.New(store, promo.WithClock(promotype.NewManualClock(t0)), promo.WithLogger(quietLogger()))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = eng.Close() })
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			creds := must[auth.Credentials](t)(eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{}))
			in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","code":"ONCE","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1}}`)
			must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p.ID, in))
			// The stalled request has a short deadline; the retries, on a
			// store that answers, the default one (a loaded machine may
			// take more than 300 ms to redeem).
			short := httpadapter.New(eng, httpadapter.WithLogger(quietLogger()), httpadapter.WithRequestTimeout(300*time.Millisecond))
			normal := httpadapter.New(eng, httpadapter.WithLogger(quietLogger()))
			redeem := func(h http.Handler) *httptest.ResponseRecorder {
				r := httptest.NewRequest(http.MethodPost, "/v1/redemptions", strings.NewReader(
					`{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000},"customer":{"source_id":"c1"}}`))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("X-App-Id", creds.ID)
				r.Header.Set("X-App-Token", creds.Secret)
				r.Header.Set("Idempotency-Key", "k1")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				return rec
			}
			store.stalling.Store(true)
			start := time.Now()
			rec := redeem(short)
			took := time.Since(start)
			store.stalling.Store(false)
			if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" ||
				!strings.Contains(rec.Body.String(), `"key":"service_unavailable"`) {
				t.Fatalf("stalled redemption: %d, Retry-After %q, %s; want 503 service_unavailable with Retry-After",
					rec.Code, rec.Header().Get("Retry-After"), rec.Body)
			}
			if took > 10*time.Second {
				t.Errorf("stalled redemption answered after %v, want soon after its 300ms deadline", took)
			}
			v := must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p.ID, "ONCE"))
			if v.Redemption.RedeemedQuantity != 0 {
				t.Errorf("redeemed quantity %d after the 503, want 0 (rolled back)", v.Redemption.RedeemedQuantity)
			}
			list := must[*promotype.List[*redemption.Redemption]](t)(eng.Redemptions().List(ctx, p.ID, redemption.ListParams{}))
			if len(list.Data) != 0 {
				t.Errorf("%d redemptions stored after the 503, want none", len(list.Data))
			}
			if rec := redeem(normal); rec.Code != http.StatusOK {
				t.Fatalf("retry with the Idempotency-Key: %d %s", rec.Code, rec.Body)
			}
			if rec := redeem(normal); rec.Code != http.StatusOK {
				t.Fatalf("second retry with the Idempotency-Key: %d %s", rec.Code, rec.Body)
			}
			v = must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p.ID, "ONCE"))
			if v.Redemption.RedeemedQuantity != 1 {
				t.Errorf("redeemed quantity %d after the retries, want 1", v.Redemption.RedeemedQuantity)
			}
		})
	}
}
