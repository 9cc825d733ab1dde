package promo_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// TestRedeemHotVoucher: 200 concurrent redemptions of one voucher of
// quantity 50 through two engines over one store (one database for
// PostgreSQL; each engine combines its own requests, never the other's)
// give exactly 50 successes and 150 quantity_exceeded, and the voucher's
// redeemed quantity, the successful ledger rows and the successes agree.
// Requests that share an idempotency key (two per key, through different
// engines) get one answer between them, so a combined batch holding a
// request that fails on its key does not fail the others.
func TestRedeemHotVoucher(t *testing.T) {
	for name, newStore := range storeFactories {
		for _, alone := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/alone=%t", name, alone), func(t *testing.T) { testRedeemHotVoucher(t, newStore(t), alone) })
		}
	}
}

// testRedeemHotVoucher is TestRedeemHotVoucher over st, with spend
// combining off when alone.
func testRedeemHotVoucher(t *testing.T, st storage.Store, alone bool) {
	opts := []promo.Option{promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{})}
	if alone {
		opts = append(opts, promo.WithoutSpendCombining())
	}
	var engines []*promo.Engine
	for range 2 {
		engines = append(engines, must[*promo.Engine](t)(promo.New(st, opts...)))
	}
	p := must[*project.Project](t)(engines[0].Projects().Create(ctx, project.Params{Name: "Shop"})).ID
	code := "HOT50"
	in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":50}}`)
	in.Code = &code
	must[*voucher.Voucher](t)(engines[0].Vouchers().Create(ctx, p, in))

	const n, q, keyed = 200, 50, 20 // requests i and i+keyed (i < keyed) share a key
	type outcome struct {
		id  string // the redemption's id when it succeeded
		key string // the error's key when it failed
	}
	outcomes := make([]outcome, n)
	inParallel(t, n, func(i int) {
		opt := redemption.RedeemOptions{}
		if i < 2*keyed {
			opt.IdempotencyKey = fmt.Sprintf("hot-%d", i%keyed)
		}
		body := fmt.Sprintf(`{"customer":{"source_id":"hot-%d"},"redeemables":[{"object":"voucher","id":"HOT50"}],"order":{"amount":1000}}`, i%30)
		res, err := engines[i%2].Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), opt)
		if err != nil {
			outcomes[i].key = promotype.AsError(err).Key
			return
		}
		outcomes[i].id = res.Redemptions[0].ID
	})

	// A request the store could not serve in time (the 5 s statement
	// deadline on a loaded machine) answers service_unavailable and
	// commits nothing: a client retries it. Every other request is
	// judged in full.
	const unavailable = "service_unavailable"
	ids, failures := map[string]bool{}, map[string]int{}
	for i, o := range outcomes {
		if o.id != "" {
			ids[o.id] = true
		} else {
			failures[o.key]++
		}
		if i < keyed && outcomes[i+keyed] != o && o.key != unavailable && outcomes[i+keyed].key != unavailable {
			t.Errorf("requests %d and %d share a key but answered %+v and %+v", i, i+keyed, o, outcomes[i+keyed])
		}
	}
	v := must[*voucher.Voucher](t)(engines[1].Vouchers().Get(ctx, p, code))
	rows := must[*promotype.List[*redemption.Redemption]](t)(engines[1].Redemptions().List(ctx, p,
		redemption.ListParams{ListParams: promotype.ListParams{Limit: 100}, Result: []string{redemption.ResultSuccess}}))
	stored := map[string]bool{}
	for _, r := range rows.Data {
		stored[r.ID] = true
	}
	// No redemption commits unanswered: the ids answered are the ledger's
	// SUCCESS rows, exactly q of them, and the voucher's count says q.
	diff(t, "successful redemption ids = ledger SUCCESS rows", ids, stored)
	diff(t, "distinct successes, redeemed quantity, ledger rows", []any{q, int64(q), q}, []any{len(ids), v.RedeemedQuantity, rows.Total})
	for key, k := range failures {
		if key != "quantity_exceeded" && key != unavailable {
			t.Errorf("%d requests failed with %s, want quantity_exceeded (or %s under load)", k, key, unavailable)
		}
	}
	if failures[unavailable] > 0 {
		t.Logf("%d of %d requests answered %s", failures[unavailable], n, unavailable)
	}
}

// failingEngine is an engine over failingStore{st} with a project, group
// commit on whatever the store; it returns the engine, the project's id and
// the savepoints counted.
func failingEngine(t *testing.T, st storage.Store) (*promo.Engine, string, *atomic.Int64) {
	t.Helper()
	savepoints := &atomic.Int64{}
	eng := must[*promo.Engine](t)(promo.New(failingStore{Store: st, savepoints: savepoints},
		promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{}), promo.WithGroupCommit(true)))
	return eng, must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"})).ID, savepoints
}

// failingStore fails InsertRedemptions of any row whose metadata holds
// "fail": true, inside transactions, and counts savepoints.
type failingStore struct {
	storage.Store
	savepoints *atomic.Int64
}

var errInjected = errors.New("injected failure")

func (s failingStore) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	return s.Store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		return fn(ctx, failingTx{Tx: tx, savepoints: s.savepoints})
	})
}

// RunInTxWriteBehind is the store's own when it writes behind (the
// redemption's path on PostgreSQL), else RunInTx.
func (s failingStore) RunInTxWriteBehind(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	wb, ok := s.Store.(storage.WriteBehindStore)
	if !ok {
		return s.RunInTx(ctx, fn)
	}
	return wb.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
		return fn(ctx, failingTx{Tx: tx, savepoints: s.savepoints})
	})
}

type failingTx struct {
	storage.Tx
	savepoints *atomic.Int64
}

func (t failingTx) InsertRedemptions(ctx context.Context, rs ...*redemption.Redemption) error {
	for _, r := range rs {
		if r.Metadata["fail"] == true {
			return errInjected
		}
	}
	return t.Tx.InsertRedemptions(ctx, rs...)
}

func (t failingTx) Savepoint(ctx context.Context, fn func(ctx context.Context) error) error {
	t.savepoints.Add(1)
	return t.Tx.Savepoint(ctx, fn)
}

// TestRedeemCombinedFailureIsolated: concurrent redemptions of one voucher,
// some of which fail while writing (not on a limit), fail only themselves:
// every other one succeeds, and the voucher's redeemed quantity counts
// exactly the successes, whether or not they were combined into one
// transaction.
func TestRedeemCombinedFailureIsolated(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			eng, p, savepoints := failingEngine(t, newStore(t))
			code := "HOT100"
			in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":100}}`)
			in.Code = &code
			must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
			const n = 60
			errs := make([]error, n)
			inParallel(t, n, func(i int) {
				body := fmt.Sprintf(`{"redeemables":[{"object":"voucher","id":"HOT100"}],"order":{"amount":1000},"metadata":{"fail":%t}}`, i%4 == 0)
				_, errs[i] = eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
			})
			ok, failed := 0, 0
			for i, err := range errs {
				switch {
				case i%4 == 0 && errors.Is(err, errInjected):
					failed++
				case i%4 != 0 && err == nil:
					ok++
				default:
					t.Errorf("redemption %d (fail %t): %v", i, i%4 == 0, err)
				}
			}
			v := must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p, code))
			diff(t, "successes, injected failures, redeemed quantity", []int64{n - n/4, n / 4, n - n/4}, []int64{int64(ok), int64(failed), v.RedeemedQuantity})
			t.Logf("%d savepoints (redemptions written in a combined transaction)", savepoints.Load())
		})
	}
}

// TestRedeemGroupedVouchers: concurrent redemptions of many vouchers, each
// alone on its voucher at the moment it writes (group commit across
// vouchers), keep every voucher's limit and fail only themselves. 24
// vouchers of quantity 2 get 4 requests each (by new customers) and give
// exactly 2 successes and 2 quantity_exceeded apiece; 24 other requests,
// one per voucher of their own, fail while writing and leave their
// vouchers unspent; every success has its ledger row and its customer.
func TestRedeemGroupedVouchers(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			eng, p, _ := failingEngine(t, newStore(t))
			const vouchers, per, q = 24, 4, 2
			for i := range vouchers {
				for _, c := range []struct {
					code string
					qty  int
				}{{fmt.Sprintf("G%02d", i), q}, {fmt.Sprintf("F%02d", i), 100}} {
					in := js[voucher.Params](t, fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":%d}}`, c.qty))
					in.Code = &c.code
					must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
				}
			}
			const n = vouchers*per + vouchers
			errs := make([]error, n)
			inParallel(t, n, func(i int) {
				code, fail := fmt.Sprintf("G%02d", i%vouchers), false
				if i >= vouchers*per {
					code, fail = fmt.Sprintf("F%02d", i%vouchers), true
				}
				body := fmt.Sprintf(`{"customer":{"source_id":"g-%d"},"redeemables":[{"object":"voucher","id":%q}],"order":{"amount":1000},"metadata":{"fail":%t}}`, i, code, fail)
				_, errs[i] = eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
			})
			outcomes := map[string]int{}
			perVoucher := map[string]int{}
			for i, err := range errs {
				switch {
				case err == nil:
					outcomes["succeeded"]++
					perVoucher[fmt.Sprintf("G%02d", i%vouchers)]++
				case errors.Is(err, errInjected):
					outcomes["injected"]++
				default:
					outcomes[promotype.AsError(err).Key]++
				}
			}
			diff(t, "outcomes", map[string]int{"succeeded": vouchers * q, "quantity_exceeded": vouchers * (per - q), "injected": vouchers}, outcomes)
			for i := range vouchers {
				g := must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p, fmt.Sprintf("G%02d", i)))
				f := must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p, fmt.Sprintf("F%02d", i)))
				ok := succeededRows(t, eng, p, g.Code)
				diff(t, g.Code+": successes, redeemed quantity, successful ledger rows; "+f.Code+": redeemed quantity",
					[]int64{q, q, q, 0}, []int64{int64(perVoucher[g.Code]), g.RedeemedQuantity, int64(ok), f.RedeemedQuantity})
			}
			customers := must[*promotype.List[*customer.Customer]](t)(eng.Customers().List(ctx, p, customer.ListParams{}))
			if customers.Total < vouchers*q || customers.Total > n {
				t.Errorf("%d customers, want between %d (one per success) and %d (one per request)", customers.Total, vouchers*q, n)
			}
		})
	}
}

// TestRedeemGroupedTwoEngines: two engines on one store redeem vouchers of
// three campaigns for twelve shared customers at once, so group
// transactions of both engines and both lanes lock the same customers'
// counters (in any order: a deadlock the database breaks is evaluated
// again). Every voucher of quantity 3 gives exactly 3 successes and 2
// quantity_exceeded, its redeemed quantity equals its successful ledger
// rows, and the customers' summaries add up to the successes.
func TestRedeemGroupedTwoEngines(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			opts := []promo.Option{promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{}), promo.WithGroupCommit(true)}
			engines := []*promo.Engine{must[*promo.Engine](t)(promo.New(st, opts...)), must[*promo.Engine](t)(promo.New(st, opts...))}
			eng := engines[0]
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"})).ID
			const campaigns, perCampaign, q, per, customers = 3, 8, 3, 5, 12
			var codes []string
			for c := range campaigns {
				camp := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t, fmt.Sprintf(
					`{"name":"C%d","campaign_type":"DISCOUNT_COUPONS","type":"STANDALONE","voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}}`, c))))
				if _, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10}); err != nil {
					t.Fatal(err) // the campaign's (empty) generation
				}
				for v := range perCampaign {
					in := js[voucher.Params](t, fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":%d}}`, q))
					code := fmt.Sprintf("C%d-%d", c, v)
					in.Code, in.CampaignID = &code, &camp.ID
					must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
					codes = append(codes, code)
				}
			}
			n := len(codes) * per
			errs := make([]error, n)
			inParallel(t, n, func(i int) {
				body := fmt.Sprintf(`{"customer":{"source_id":"k%d"},"redeemables":[{"object":"voucher","id":%q}],"order":{"amount":1000}}`, i%customers, codes[i%len(codes)])
				_, errs[i] = engines[i%2].Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
			})
			outcomes := map[string]int{}
			for _, err := range errs {
				if err == nil {
					outcomes["succeeded"]++
				} else {
					outcomes[promotype.AsError(err).Key]++
				}
			}
			diff(t, "outcomes", map[string]int{"succeeded": len(codes) * q, "quantity_exceeded": len(codes) * (per - q)}, outcomes)
			for _, code := range codes {
				v := must[*voucher.Voucher](t)(eng.Vouchers().Get(ctx, p, code))
				ok := succeededRows(t, eng, p, code)
				diff(t, code+": redeemed quantity, successful ledger rows", []int64{q, q}, []int64{v.RedeemedQuantity, int64(ok)})
			}
			var succeeded int64
			for k := range customers {
				c := must[*customer.Customer](t)(eng.Customers().Get(ctx, p, fmt.Sprintf("k%d", k)))
				succeeded += c.Summary.Redemptions.TotalSucceeded
			}
			diff(t, "the customers' total_succeeded, summed", int64(len(codes)*q), succeeded)
		})
	}
}

// succeededRows is how many successful ledger rows voucher code has.
func succeededRows(t *testing.T, eng *promo.Engine, projectID, code string) int {
	t.Helper()
	ok := 0
	for _, r := range must[*redemption.VoucherRedemptions](t)(eng.Redemptions().ForVoucher(ctx, projectID, code)).RedemptionEntries {
		if r.Result == redemption.ResultSuccess {
			ok++
		}
	}
	return ok
}
