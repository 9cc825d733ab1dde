package promo_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// The mixed load of two engines over one store (two servers over one
// PostgreSQL): stacked redemptions of one quantity voucher and one gift
// card, and rollbacks of them, more than the voucher's quantity and the
// card's credits allow. No call answers 500; the voucher's redeemed
// quantity and the card's balance are the sums of the ledger's rows (the
// redemptions' spends less the rollbacks'), and what the callers were
// answered: nothing is oversold, no acknowledged write is lost and none
// that was refused stays.
func TestStackedMixTwoEngines(t *testing.T) {
	const quantity, credits, spend = 10, 150, 10 // room for 10 and 15 spends
	const workers, rounds = 8, 6                 // 48 redemptions asked
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			store := newStore(t)
			engines := make([]*promo.Engine, 2)
			for i := range engines {
				engines[i] = must[*promo.Engine](t)(promo.New(store, promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{})))
				t.Cleanup(func() { _ = engines[i].Close() })
			}
			p := must[*project.Project](t)(engines[0].Projects().Create(ctx, project.Params{Name: "Shop"})).ID
			createCodes(t, engines[0], p, map[string]string{
				"Q": fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":%d}}`, quantity),
				"G": fmt.Sprintf(`{"type":"GIFT_VOUCHER","gift":{"amount":%d}}`, credits),
			})
			var mu sync.Mutex
			statuses := &statusCount{t: t}
			record := statuses.record
			var redeemed, rolledBack int64 // acknowledged
			held := map[string]int64{}     // by voucher code: units the acknowledged answers spent
			spent := map[string][]string{} // by redemption id: the codes it spent
			apply := func(id string, d int64) {
				for _, code := range spent[id] {
					held[code] += d
				}
			}
			inParallel(t, workers, func(w int) {
				eng := engines[w%2]
				var mine []string // this worker's parent redemptions not rolled back yet
				for r := range rounds {
					body := fmt.Sprintf(`{"customer":{"source_id":"mix-%d"},"redeemables":[{"object":"voucher","id":"Q"},`+
						`{"object":"voucher","id":"G","gift":{"credits":%d}}],"order":{"amount":5000}}`, w%3, spend)
					res, err := eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
					record(err)
					if err == nil {
						id := res.Redemptions[0].ID // stacked, or one that redeemed only the card
						if res.ParentRedemption != nil {
							id = res.ParentRedemption.ID
						}
						mu.Lock()
						redeemed++
						for _, c := range res.Redemptions {
							spent[id] = append(spent[id], c.Ledger.VoucherCode)
						}
						apply(id, 1)
						mu.Unlock()
						mine = append(mine, id)
					}
					if r%2 == 1 && len(mine) > 0 {
						_, err := eng.Redemptions().Rollback(ctx, p, mine[0], redemption.RollbackParams{})
						record(err)
						if err == nil {
							mu.Lock()
							rolledBack++
							apply(mine[0], -1)
							mu.Unlock()
						}
						mine = mine[1:]
					}
				}
			})
			t.Logf("outcomes by status %v", statuses.by)

			q := must[*voucher.Voucher](t)(engines[1].Vouchers().Get(ctx, p, "Q"))
			g := must[*voucher.Voucher](t)(engines[1].Vouchers().Get(ctx, p, "G"))
			sums := map[string]redemption.Spend{}
			for page := 1; ; page++ {
				rows := must[*promotype.List[*redemption.Redemption]](t)(engines[0].Redemptions().List(ctx, p,
					redemption.ListParams{ListParams: promotype.ListParams{Limit: 100, Page: page}, Result: []string{redemption.ResultSuccess}}))
				for _, r := range rows.Data {
					if r.Ledger.VoucherID == "" {
						continue
					}
					s := sums[r.Ledger.VoucherCode]
					s.Quantity += r.Ledger.Spend.Quantity
					s.Credits += r.Ledger.Spend.Credits
					sums[r.Ledger.VoucherCode] = s
				}
				if len(rows.Data) < 100 {
					break
				}
			}
			type state struct{ QRedeemed, QLedger, GSpent, GLedger int64 }
			got := state{q.RedeemedQuantity, sums["Q"].Quantity, credits - g.Gift.Balance, sums["G"].Credits}
			want := state{held["Q"], held["Q"], spend * held["G"], spend * held["G"]}
			if got != want {
				t.Errorf("voucher and card against the ledger and the answers: got %+v, want %+v", got, want)
			}
			if q.RedeemedQuantity > quantity || g.Gift.Balance < 0 {
				t.Errorf("oversold: Q redeemed %d of %d, G balance %d", q.RedeemedQuantity, quantity, g.Gift.Balance)
			}
			if redeemed == 0 || rolledBack == 0 {
				t.Errorf("%d redemptions and %d rollbacks succeeded: the mix did not run", redeemed, rolledBack)
			}
		})
	}
}
