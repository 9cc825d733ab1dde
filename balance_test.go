package promo_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// TestBalanceConcurrency: manual balance additions and removals
// interleaved with redemptions of the card and their rollbacks, through
// two engines on one store, lose no update: the final balance is the
// initial one plus the additions, less the removals and the credits of
// the redemptions not rolled back, and the card's transactions sum to it.
func TestBalanceConcurrency(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			f := newStackFixture(t, st)
			other := must[*promo.Engine](t)(promo.New(st, promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{})))
			engines := []*promo.Engine{f.eng, other}
			const initial, n = 5000, 32
			in := js[voucher.Params](t, fmt.Sprintf(`{"type":"GIFT_VOUCHER","gift":{"amount":%d}}`, initial))
			in.Code = ptrTo("CONC")
			must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))

			var mu sync.Mutex
			var added, removed, spent int64
			inParallel(t, n, func(i int) {
				red := engines[i%2].Redemptions()
				var err error
				switch i % 4 {
				case 0:
					amount := int64(300 + i)
					if _, err = red.AddBalance(ctx, f.project, "CONC", redemption.BalanceParams{Amount: &amount}); err == nil {
						mu.Lock()
						added += amount
						mu.Unlock()
					}
				case 1:
					amount := int64(400 + i)
					_, err = red.AddBalance(ctx, f.project, "CONC", redemption.BalanceParams{Amount: ptrTo(-amount)})
					if e := promotype.AsError(err); err != nil && e.Key == "invalid_add_balance_params" {
						err = nil // refused: the balance was too small then
					} else if err == nil {
						mu.Lock()
						removed += amount
						mu.Unlock()
					}
				default:
					credits := int64(200 + i)
					body := fmt.Sprintf(`{"redeemables":[{"object":"voucher","id":"CONC","gift":{"credits":%d}}],"order":{"amount":100000}}`, credits)
					var out *redemption.Redemptions
					out, err = red.Redeem(ctx, f.project, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
					if e := promotype.AsError(err); err != nil && e.Code == 400 {
						err = nil // refused: the balance was too small then
						break
					}
					if err != nil {
						break
					}
					if i%8 == 2 { // some are rolled back
						_, err = red.Rollback(ctx, f.project, out.Redemptions[0].ID, redemption.RollbackParams{})
						if err == nil {
							break
						}
					}
					mu.Lock()
					spent += credits
					mu.Unlock()
				}
				if err != nil {
					t.Errorf("goroutine %d: %v", i, err)
				}
			})
			card := must[*voucher.Voucher](t)(st.FindVoucherByCode(ctx, f.project, "CONC"))
			want := initial + added - removed - spent
			if card.Gift.Balance != want {
				t.Errorf("balance %d, want %d = %d + %d − %d − %d", card.Gift.Balance, want, initial, added, removed, spent)
			}
			sum, last, after := int64(initial), int64(initial), ""
			for range 100 {
				page := must[*redemption.TransactionList](t)(f.eng.Redemptions().Transactions(ctx, f.project, "CONC",
					redemption.TransactionListParams{Limit: 7, Order: "id", StartingAfterID: after}))
				for _, tr := range page.Data {
					b := tr.Details.Balance
					if b.Balance != last+*b.Amount {
						t.Errorf("%s %s %+d: balance %d, want %d", tr.ID, tr.Type, *b.Amount, b.Balance, last+*b.Amount)
					}
					sum, last = sum+*b.Amount, b.Balance
				}
				if !page.HasMore {
					break
				}
				after = *page.MoreStartingAfter
			}
			if sum != card.Gift.Balance {
				t.Errorf("the transactions sum to %d, the card holds %d", sum, card.Gift.Balance)
			}
			_, err := f.eng.Redemptions().Transactions(ctx, f.project, "NOSUCH", redemption.TransactionListParams{})
			if !errors.Is(err, promotype.ErrNotFound) {
				t.Errorf("transactions of an unknown card: %v, want not_found", err)
			}
		})
	}
}
