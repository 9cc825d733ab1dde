package promo_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
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
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
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
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%d redemptions did not finish in 3 minutes", n)
	}

	ids, failures := map[string]bool{}, map[string]int{}
	for i, o := range outcomes {
		if o.id != "" {
			ids[o.id] = true
		} else {
			failures[o.key]++
		}
		if i < keyed && outcomes[i+keyed] != o {
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
	diff(t, "successful redemption ids = ledger SUCCESS rows", ids, stored)
	// Each pair sharing a key answers once: the n - keyed distinct
	// requests split into q successes and the rest refused, every
	// refusal a quantity_exceeded.
	succeeded, refused, answers := 0, 0, 0
	for i, o := range outcomes {
		if o.id != "" {
			answers++
		}
		switch {
		case i >= keyed && i < 2*keyed: // the second of a pair
		case o.id != "":
			succeeded++
		default:
			refused++
		}
	}
	diff(t, "distinct successes, redeemed quantity, ledger rows, refusals, failures",
		[]any{q, int64(q), q, n - keyed - q, map[string]int{"quantity_exceeded": n - answers}},
		[]any{succeeded, v.RedeemedQuantity, rows.Total, refused, failures})
}
