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
					must[*redemption.RollbackStack](t)(eng.Redemptions().Rollback(ctx, p.ID, id, redemption.RollbackParams{}))
					if got := balance(code); got != 2000 {
						t.Errorf("%s: balance %d after a later rollback, want 2000", tc.name, got)
					}
				}
			}
		})
	}
}

// retrySpy counts the transactions that failed retryable (and ran again).
type retrySpy struct {
	storage.Store
	mu      sync.Mutex
	retried int
}

func (s *retrySpy) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	err := s.Store.RunInTx(ctx, fn)
	if promotype.Retryable(err) {
		s.mu.Lock()
		s.retried++
		s.mu.Unlock()
	}
	return err
}

// Rollbacks of stacked redemptions (a quantity voucher and a gift card)
// racing new redemptions of the same vouchers for the same customer, from
// two engines over one store: on PostgreSQL they deadlock, and a deadlock
// runs again inside the engine. No call fails with anything but a 4xx of
// its own or a 503 (the retry budget spent, a store deadline passed):
// never a 500, which a deadlock was before.
func TestRollbacksRacingRedemptions(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			spy := &retrySpy{Store: newStore(t)}
			engines := make([]*promo.Engine, 2)
			for i := range engines {
				engines[i] = must[*promo.Engine](t)(promo.New(spy, promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{})))
				t.Cleanup(func() { _ = engines[i].Close() })
			}
			p := must[*project.Project](t)(engines[0].Projects().Create(ctx, project.Params{Name: "Shop"})).ID
			createCodes(t, engines[0], p, map[string]string{
				"Q": `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":100000}}`,
				"G": `{"type":"GIFT_VOUCHER","gift":{"amount":100000000}}`,
			})
			const workers, rounds = 6, 4
			statuses := &statusCount{t: t}
			record := statuses.record
			inParallel(t, workers, func(w int) {
				eng := engines[w%2]
				var mine []string // parent redemptions of this worker, not rolled back yet
				for r := range rounds {
					body := fmt.Sprintf(`{"customer":{"source_id":"shared-%d"},"redeemables":[{"object":"voucher","id":"G","gift":{"credits":10}},`+
						`{"object":"voucher","id":"Q"}],"order":{"amount":5000}}`, r%2)
					if w%2 == 1 { // the other order of the same two vouchers
						body = fmt.Sprintf(`{"customer":{"source_id":"shared-%d"},"redeemables":[{"object":"voucher","id":"Q"},`+
							`{"object":"voucher","id":"G","gift":{"credits":10}}],"order":{"amount":5000}}`, r%2)
					}
					res, err := eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
					record(err)
					if err == nil && res.ParentRedemption != nil {
						mine = append(mine, res.ParentRedemption.ID)
					}
					if len(mine) > 0 {
						_, err := eng.Redemptions().Rollback(ctx, p, mine[0], redemption.RollbackParams{})
						record(err)
						mine = mine[1:]
					}
				}
			})
			t.Logf("outcomes by status %v; %d transactions ran again after a retryable failure", statuses.by, spy.retried)
		})
	}
}

// createCodes creates, through eng in project p, a voucher of each code
// with the body bodies gives it.
func createCodes(t *testing.T, eng *promo.Engine, p string, bodies map[string]string) {
	t.Helper()
	for code, body := range bodies {
		in := js[voucher.Params](t, body)
		in.Code = &code
		must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
	}
}

// statusCount counts the statuses concurrent calls are answered with over
// HTTP and fails the test at a 500.
type statusCount struct {
	t  *testing.T
	mu sync.Mutex
	by map[int]int
}

// record counts the status of a call that returned err: 200 for nil, a
// transient failure (a store deadline, say) the 503 the HTTP adapter
// answers.
func (s *statusCount) record(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	code := 200
	if err != nil {
		code = promotype.AsError(err).Code
	}
	if code == 500 && promotype.Transient(err) {
		code = 503
	}
	if s.by == nil {
		s.by = map[int]int{}
	}
	s.by[code]++
	if code == 500 {
		s.t.Errorf("a 500: %v", err)
	}
}
