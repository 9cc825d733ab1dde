package promo_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// sqlStateError is a driver error with an SQLSTATE, as pgconn.PgError is.
type sqlStateError struct{ code string }

func (e *sqlStateError) Error() string    { return "ERROR: injected (SQLSTATE " + e.code + ")" }
func (e *sqlStateError) SQLState() string { return e.code }

// flakyStore is a store whose transactions fail with err, the first left
// times, right after MarkRolledBack wrote: as a rollback does whose
// transaction PostgreSQL picks as a deadlock's victim after it locked the
// redemption, when a redemption holds the voucher it goes on to.
type flakyStore struct {
	storage.Store
	mu   sync.Mutex
	left int
	err  error
}

func (s *flakyStore) fail(left int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.left, s.err = left, err
}

func (s *flakyStore) take() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.left == 0 {
		return nil
	}
	s.left--
	return s.err
}

func (s *flakyStore) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	return s.Store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return fn(ctx, flakyTx{tx, s}) })
}

type flakyTx struct {
	storage.Tx
	s *flakyStore
}

func (t flakyTx) MarkRolledBack(ctx context.Context, projectID, id, rollbackID string, at promotype.Time) (bool, error) {
	done, err := t.Tx.MarkRolledBack(ctx, projectID, id, rollbackID, at)
	if err != nil {
		return done, err
	}
	if err := t.s.take(); err != nil {
		return false, fmt.Errorf("store: mark rolled back: %w", err)
	}
	return done, nil
}

// A rollback whose transaction meets a deadlock, a serialization failure
// or a connection lost before its commit runs again and succeeds, undoing
// the redemption once; one that keeps failing past the retry budget is a
// 503 with Retry-After that changed nothing, never a 500.
func TestRollbackRetriesTransientFailures(t *testing.T) {
	lostBeforeCommit := fmt.Errorf("%w: %w", promotype.ErrRetryable, &sqlStateError{"57P01"})
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			store := &flakyStore{Store: newStore(t)}
			eng, err := promo.New(store, promo.WithClock(promotype.NewManualClock(t0)))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = eng.Close() })
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			creds := must[auth.Credentials](t)(eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{}))
			h := httpadapter.New(eng, httpadapter.WithLogger(quietLogger()))
			redeem := func(code string) string {
				t.Helper()
				in := js[voucher.Params](t, `{"type":"GIFT_VOUCHER","gift":{"amount":2000}}`)
				in.Code = &code
				must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p.ID, in))
				r := must[*redemption.Redemptions](t)(eng.Redemptions().Redeem(ctx, p.ID,
					js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"`+code+`"}],"order":{"amount":1500}}`), redemption.RedeemOptions{}))
				return r.Redemptions[0].ID
			}
			balance := func(code string) int64 {
				t.Helper()
				return must[*voucher.Voucher](t)(store.FindVoucherByCode(ctx, p.ID, code)).Gift.Balance
			}
			tests := []struct {
				name     string
				failures int
				err      error
				status   int
				balance  int64 // after the rollback
			}{
				{"deadlock twice", 2, &sqlStateError{"40P01"}, 200, 2000},
				{"serialization failure up to the last run", promotype.RetryAttempts - 1, &sqlStateError{"40001"}, 200, 2000},
				{"connection lost before commit", 1, lostBeforeCommit, 200, 2000},
				{"deadlock past the budget", 1000, &sqlStateError{"40P01"}, 503, 500},
			}
			for i, tc := range tests {
				code := fmt.Sprintf("GIFT%d", i)
				id := redeem(code)
				store.fail(tc.failures, tc.err)
				r := httptest.NewRequest(http.MethodPost, "/v1/redemptions/"+id+"/rollback", strings.NewReader(`{}`))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("X-App-Id", creds.ID)
				r.Header.Set("X-App-Token", creds.Secret)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				store.fail(0, nil)
				if rec.Code != tc.status {
					t.Errorf("%s: status %d, want %d: %s", tc.name, rec.Code, tc.status, rec.Body)
				}
				if retry := rec.Header().Get("Retry-After"); (retry != "") != (tc.status == 503) {
					t.Errorf("%s: Retry-After %q on a %d", tc.name, retry, rec.Code)
				}
				if tc.status == 503 && !strings.Contains(rec.Body.String(), `"key":"service_unavailable"`) {
					t.Errorf("%s: body %s", tc.name, rec.Body)
				}
				if got := balance(code); got != tc.balance {
					t.Errorf("%s: balance %d after the rollback, want %d (undone once, or not at all)", tc.name, got, tc.balance)
				}
				rd := must[*redemption.Redemption](t)(eng.Redemptions().Get(ctx, p.ID, id))
				rolledBack := rd.Status == redemption.StatusRolledBack
				if rolledBack != (tc.status == 200) {
					t.Errorf("%s: redemption %s after the rollback answered %d", tc.name, rd.Status, rec.Code)
				}
				if tc.status == 503 { // nothing changed: a later rollback succeeds
					must[*redemption.Redemption](t)(eng.Redemptions().Rollback(ctx, p.ID, id, redemption.RollbackParams{}))
					if got := balance(code); got != 2000 {
						t.Errorf("%s: balance %d after a later rollback, want 2000", tc.name, got)
					}
				}
			}
		})
	}
}
