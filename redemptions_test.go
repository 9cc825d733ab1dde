package promo_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/memory"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// redeemSummary is what the redemption tests compare of an answer.
type redeemSummary struct {
	Children    int
	Parent      bool
	Status      order.Status
	Total, Disc int64
	Entries     int
}

func summarize(r *redemption.Redemptions) redeemSummary {
	return redeemSummary{Children: len(r.Redemptions), Parent: r.ParentRedemption != nil, Status: r.Order.Status,
		Total: r.Order.TotalAmount, Disc: r.Order.TotalDiscountAmount, Entries: len(r.Order.Redemptions)}
}

// TestRedeemWorkedExamples reproduces W2 (a stacked redemption: parent,
// three children, the order stored PAID with one entry), W3 (a second
// redemption on a stored order) and W6 (a single-use voucher redeemed
// twice) through the Go API on every store.
func TestRedeemWorkedExamples(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			red := f.eng.Redemptions()
			w2 := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":100}},{"object":"voucher","id":"39vnjyS8"},`+
				`{"object":"promotion_tier","id":"`+f.ids["tier8000"]+`"}],"order":{"amount":200000}}`)
			got := must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, w2, redemption.RedeemOptions{}))
			diff(t, "W2", redeemSummary{Children: 3, Parent: true, Status: order.StatusPaid, Total: 151920, Disc: 48080, Entries: 1}, summarize(got))
			parent := got.ParentRedemption
			entry := got.Order.Redemptions[parent.ID]
			diff(t, "W2 order entry", []string{redemption.RelatedRedemption, parent.ID, got.Redemptions[0].ID, got.Redemptions[1].ID, got.Redemptions[2].ID},
				append([]string{entry.RelatedObjectType, entry.RelatedObjectID}, entry.Stacked...))
			gift := got.Redemptions[0]
			if gift.Amount != 100 || gift.Gift.Amount != 100 || gift.Voucher.Gift.Balance != 20400 || *gift.Redemption != parent.ID || gift.Result != "SUCCESS" {
				t.Errorf("W2 gift child: amount %d, gift %+v, balance %d, parent %v", gift.Amount, gift.Gift, gift.Voucher.Gift.Balance, gift.Redemption)
			}
			stored := must[*voucher.Voucher](t)(f.store.FindVoucherByCode(ctx, f.project, "dBj56oqJ"))
			if stored.RedeemedQuantity != 1 || stored.Gift.Balance != 20400 {
				t.Errorf("W2 card stored: redeemed %d, balance %d", stored.RedeemedQuantity, stored.Gift.Balance)
			}

			w3 := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"id":"`+f.ids["order"]+`"}}`)
			got = must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, w3, redemption.RedeemOptions{}))
			diff(t, "W3", redeemSummary{Children: 1, Status: order.StatusPaid, Total: 0, Disc: 10000, Entries: 1}, summarize(got))
			if got.Order.ID != f.ids["order"] || got.Redemptions[0].Order.AppliedDiscountAmount != 800 {
				t.Errorf("W3: order %s, applied %d; want %s and 800", got.Order.ID, got.Redemptions[0].Order.AppliedDiscountAmount, f.ids["order"])
			}

			once := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`)
			_, err := red.Redeem(ctx, f.project, once, redemption.RedeemOptions{})
			e := wantErr(t, err, 400, "quantity_exceeded")
			if e.ResourceType != "redemption" || len(e.ResourceID) < 3 || e.ResourceID[:3] != "rf_" {
				t.Errorf("W6 failure points at %s %s, want a stored rf_ redemption", e.ResourceType, e.ResourceID)
			}
		})
	}
}

// TestRollback reproduces W4 (a gift card redeemed then rolled back: its
// credits and unit back, the order CANCELED), W6 (a rolled-back
// single-use voucher redeems again) and the refusals of a rollback.
func TestRollback(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			red := f.eng.Redemptions()
			code := "CODE14"
			in := js[voucher.Params](t, `{"type":"GIFT_VOUCHER","gift":{"amount":2000},"redemption":{"quantity":18}}`)
			in.Code = &code
			must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
			w4 := js[redemption.ValidationParams](t, `{"customer":{"source_id":"ann"},"redeemables":[{"object":"voucher","id":"CODE14"}],"order":{"amount":6000}}`)
			got := must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, w4, redemption.RedeemOptions{}))
			r := got.Redemptions[0]
			v := r.Voucher
			diff(t, "W4 redemption", []int64{2000, 2000, 2000, 4000, 0, 1, 2000},
				[]int64{r.Amount, r.Gift.Amount, got.Order.DiscountAmount, got.Order.TotalAmount, v.Gift.Balance, v.Redemption.RedeemedQuantity, *v.Redemption.RedeemedAmount})
			if got.ParentRedemption != nil || got.Order.Redemptions[r.ID].RelatedObjectType != "voucher" {
				t.Errorf("W4: a single redemption has no parent and a voucher entry; got %+v", got.Order.Redemptions)
			}

			rb := must[*redemption.RollbackStack](t)(red.Rollback(ctx, f.project, r.ID, redemption.RollbackParams{Reason: ptrTo("wrong card")})).Head()
			v = rb.Voucher
			diff(t, "W4 rollback", []int64{-2000, -2000, 2000, 0, 0, 6000, 6000},
				[]int64{rb.Amount, rb.Gift.Amount, v.Gift.Balance, v.Redemption.RedeemedQuantity, *v.Redemption.RedeemedAmount, rb.Order.Amount, rb.Order.TotalAmount})
			entry := rb.Order.Redemptions[r.ID]
			if rb.Order.Status != order.StatusCanceled || entry.RollbackID == nil || *entry.RollbackID != rb.ID || *rb.Redemption != r.ID || *rb.Reason != "wrong card" {
				t.Errorf("W4 rollback: order %s, entry %+v, redemption %v", rb.Order.Status, entry, rb.Redemption)
			}
			undone := must[*redemption.Redemption](t)(red.Get(ctx, f.project, r.ID))
			if undone.Status != redemption.StatusRolledBack || undone.RelatedRedemptions == nil || undone.RelatedRedemptions.Rollbacks[0].ID != rb.ID {
				t.Errorf("the redemption after its rollback: %s, %+v", undone.Status, undone.RelatedRedemptions)
			}
			_, err := red.Rollback(ctx, f.project, r.ID, redemption.RollbackParams{})
			if e := wantErr(t, err, 400, "already_rolled_back"); e.ResourceType != "redemption_rollback" || e.ResourceID[:4] != "rrf_" {
				t.Errorf("already_rolled_back points at %s %s", e.ResourceType, e.ResourceID)
			}

			// W6: ONCE was used up by the fixture; free its unit through a
			// redemption of a fresh single-use voucher and its rollback.
			single := "SINGLE"
			in = js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1}}`)
			in.Code = &single
			must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
			once := js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"SINGLE"}],"order":{"amount":1000}}`)
			first := must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, once, redemption.RedeemOptions{}))
			_, err = red.Redeem(ctx, f.project, once, redemption.RedeemOptions{})
			wantErr(t, err, 400, "quantity_exceeded")
			must[*redemption.RollbackStack](t)(red.Rollback(ctx, f.project, first.Redemptions[0].ID, redemption.RollbackParams{}))
			must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, once, redemption.RedeemOptions{}))

			// A stack: SingleOnly (the hosted single endpoint) refuses the
			// parent; a child is refused alone; Rollback rolls every child
			// back.
			stack := must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, js[redemption.ValidationParams](t,
				`{"redeemables":[{"object":"voucher","id":"dBj56oqJ","gift":{"credits":100}},{"object":"voucher","id":"39vnjyS8"}],"order":{"amount":1000}}`), redemption.RedeemOptions{}))
			_, err = red.Rollback(ctx, f.project, stack.ParentRedemption.ID, redemption.RollbackParams{}, redemption.SingleOnly())
			wantErr(t, err, 400, "invalid_redemption")
			_, err = red.Rollback(ctx, f.project, stack.Redemptions[0].ID, redemption.RollbackParams{}, redemption.SingleOnly())
			wantErr(t, err, 400, "invalid_redemption_parent")
			_, err = red.Rollback(ctx, f.project, stack.Redemptions[0].ID, redemption.RollbackParams{})
			wantErr(t, err, 400, "invalid_redemption_parent")
			_, err = red.Rollback(ctx, f.project, stack.ParentRedemption.ID, redemption.RollbackParams{Customer: js[*customer.Params](t, `{"source_id":"nobody"}`)})
			wantErr(t, err, 404, "not_found")
			_, err = red.Rollback(ctx, f.project, stack.ParentRedemption.ID, redemption.RollbackParams{Order: &redemption.OrderRef{ID: ptrTo(f.ids["order"])}})
			wantErr(t, err, 400, "invalid_order")
			all := must[*redemption.RollbackStack](t)(red.Rollback(ctx, f.project, stack.ParentRedemption.ID, redemption.RollbackParams{}))
			if len(all.Rollbacks) != 2 || all.ParentRollback == nil || all.Head() != all.ParentRollback || all.Order.Status != order.StatusCanceled || len(all.Order.Redemptions[stack.ParentRedemption.ID].RollbackStacked) != 2 {
				t.Errorf("stack rollback: %d rollbacks, parent %v, order %+v", len(all.Rollbacks), all.ParentRollback != nil, all.Order)
			}
			card := must[*voucher.Voucher](t)(f.store.FindVoucherByCode(ctx, f.project, "dBj56oqJ"))
			if card.Gift.Balance != 20500 || card.RedeemedQuantity != 0 {
				t.Errorf("card after the stack rollback: balance %d, redeemed %d", card.Gift.Balance, card.RedeemedQuantity)
			}
			_, err = red.Rollback(ctx, f.project, stack.ParentRedemption.ID, redemption.RollbackParams{})
			wantErr(t, err, 400, "already_rolled_back")
			_, err = red.Rollback(ctx, f.project, "r_none", redemption.RollbackParams{})
			wantErr(t, err, 404, "not_found")
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestRedeemTotalsEqualValidation is a property: for the same request and
// state, a redemption's order totals and each redeemable's running order
// equal the validation's. Requests are random subsets of the fixture's
// redeemables over random order amounts; each redemption is rolled back so
// the next request meets the same state.
func TestRedeemTotalsEqualValidation(t *testing.T) {
	f := newStackFixture(t, memory.New())
	pool := []string{
		`{"object":"voucher","id":"dBj56oqJ","gift":{"credits":%d}}`,
		`{"object":"voucher","id":"39vnjyS8"}`,
		`{"object":"voucher","id":"a2pl4qJw"}`,
		`{"object":"voucher","id":"M3X8IwW8"}`,
		`{"object":"promotion_tier","id":"` + f.ids["tier40"] + `"}`,
		`{"object":"promotion_tier","id":"` + f.ids["tier8000"] + `"}`,
		`{"object":"voucher","id":"AnsvocvP","reward":{"id":"` + f.ids["coin"] + `","points":%d}}`,
	}
	rng := rand.New(rand.NewPCG(1, 2))
	totals := func(o *order.Order) [6]int64 {
		return [6]int64{o.Amount, o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount, o.TotalAmount, o.TotalAppliedDiscountAmount}
	}
	checked := 0
	for i := range 60 {
		var parts []string
		for _, k := range rng.Perm(len(pool))[:1+rng.IntN(len(pool))] {
			p := pool[k]
			if strings.Contains(p, "%d") {
				p = fmt.Sprintf(p, 1+rng.IntN(5000))
			}
			parts = append(parts, p)
		}
		body := fmt.Sprintf(`{"redeemables":[%s],"order":{"amount":%d}}`, strings.Join(parts, ","), 1000+rng.IntN(300000))
		in := js[redemption.ValidationParams](t, body)
		val := must[*redemption.Validation](t)(f.eng.Validations().Validate(ctx, f.project, in))
		got, err := f.eng.Redemptions().Redeem(ctx, f.project, in, redemption.RedeemOptions{})
		if !val.Valid {
			if err == nil {
				t.Fatalf("case %d %s: validation invalid, redemption succeeded", i, body)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d %s: validation valid, redemption: %v", i, body, err)
		}
		checked++
		diff(t, fmt.Sprintf("case %d %s: order totals", i, body), totals(val.Order), totals(got.Order))
		var want, have [][6]int64
		for _, r := range val.Redeemables {
			want = append(want, totals(r.Order))
		}
		for _, r := range got.Redemptions {
			have = append(have, totals(r.Order))
		}
		diff(t, fmt.Sprintf("case %d: running orders", i), want, have)
		id := got.Redemptions[0].ID
		if got.ParentRedemption != nil {
			id = got.ParentRedemption.ID
		}
		must[*redemption.RollbackStack](t)(f.eng.Redemptions().Rollback(ctx, f.project, id, redemption.RollbackParams{}))
	}
	if checked < 20 {
		t.Errorf("only %d of 60 random requests were valid; the property needs more", checked)
	}
}

// TestRedeemConcurrency: many concurrent redemptions through the engine
// (two engines on one database for PostgreSQL) give exactly the quantity's
// successes, never overdraw a gift card, and leave the counters equal to
// the ledger when rollbacks interleave.
func TestRedeemConcurrency(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			f := newStackFixture(t, st)
			// A second engine over the same store (the same database for
			// PostgreSQL): its own caches, the same rows.
			other := must[*promo.Engine](t)(promo.New(st, promo.WithClock(promotype.NewManualClock(t0)), promo.WithIDGenerator(promotype.RandomIDs{})))
			engines := []*promo.Engine{f.eng, other}
			create := func(code, body string) {
				in := js[voucher.Params](t, body)
				in.Code = &code
				must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
			}
			const n = 24
			parallel := func(fn func(i int) error) (ok int, errs []error) {
				var mu sync.Mutex
				inParallel(t, n, func(i int) {
					err := fn(i)
					mu.Lock()
					defer mu.Unlock()
					if err == nil {
						ok++
					} else {
						errs = append(errs, err)
					}
				})
				return ok, errs
			}
			redeem := func(i int, body string) (*redemption.Redemptions, error) {
				return engines[i%2].Redemptions().Redeem(ctx, f.project, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{})
			}
			keys := func(errs []error) map[string]int {
				m := map[string]int{}
				for _, err := range errs {
					m[promotype.AsError(err).Key]++
				}
				return m
			}

			const q = 4
			create("Q4", `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10},"redemption":{"quantity":4}}`)
			ok, errs := parallel(func(i int) error {
				_, err := redeem(i, `{"redeemables":[{"object":"voucher","id":"Q4"}],"order":{"amount":1000}}`)
				return err
			})
			diff(t, "quantity: outcomes", []any{q, map[string]int{"quantity_exceeded": n - q}}, []any{ok, keys(errs)})
			led := must[*redemption.VoucherRedemptions](t)(f.eng.Redemptions().ForVoucher(ctx, f.project, "Q4"))
			succ, fail := 0, 0
			for _, r := range led.RedemptionEntries {
				if r.Result == redemption.ResultSuccess {
					succ++
				} else {
					fail++
				}
			}
			diff(t, "quantity: counter and ledger", []int{q, q, n - q}, []int{int(led.RedeemedQuantity), succ, fail})

			const balance, x = 1000, 70
			create("GIFT1000", `{"type":"GIFT_VOUCHER","gift":{"amount":1000}}`)
			ok, _ = parallel(func(i int) error {
				_, err := redeem(i, `{"redeemables":[{"object":"voucher","id":"GIFT1000","gift":{"credits":70}}],"order":{"amount":100000}}`)
				return err
			})
			card := must[*voucher.Voucher](t)(st.FindVoucherByCode(ctx, f.project, "GIFT1000"))
			if ok*x > balance || card.Gift.Balance != balance-int64(ok)*x || ok != min(n, balance/x) {
				t.Errorf("gift: %d debits of %d, balance %d; want %d debits, balance %d", ok, x, card.Gift.Balance, min(n, balance/x), balance-min(n, balance/x)*x)
			}

			// Voucher updates (a read-modify-write of the whole voucher)
			// between concurrent spends never write back a stale balance or
			// redeemed quantity.
			create("GIFTUPD", `{"type":"GIFT_VOUCHER","gift":{"amount":2000}}`)
			var spent atomic.Int64
			_, errs = parallel(func(i int) error {
				if i%2 == 1 {
					_, err := engines[i%2].Vouchers().Update(ctx, f.project, "GIFTUPD", js[voucher.UpdateParams](t, fmt.Sprintf(`{"metadata":{"n":%d}}`, i)))
					return err
				}
				_, err := redeem(i, `{"redeemables":[{"object":"voucher","id":"GIFTUPD","gift":{"credits":50}}],"order":{"amount":100000}}`)
				if err == nil {
					spent.Add(1)
				}
				return err
			})
			if len(errs) != 0 {
				t.Errorf("updates beside redemptions: %v", errs)
			}
			upd := must[*redemption.VoucherRedemptions](t)(f.eng.Redemptions().ForVoucher(ctx, f.project, "GIFTUPD"))
			card = must[*voucher.Voucher](t)(st.FindVoucherByCode(ctx, f.project, "GIFTUPD"))
			diff(t, "updates beside redemptions: balance and redeemed quantity", []int64{2000 - 50*spent.Load(), spent.Load()},
				[]int64{card.Gift.Balance, upd.RedeemedQuantity})

			// One new order named by source id in every request: they are
			// serialized on it, none is lost or refused.
			ok, errs = parallel(func(i int) error {
				_, err := redeem(i, `{"redeemables":[{"object":"voucher","id":"a2pl4qJw"}],"order":{"source_id":"shared-cart","amount":100000}}`)
				return err
			})
			shared := must[*order.Order](t)(f.eng.Orders().Get(ctx, f.project, "shared-cart"))
			if ok != n || len(shared.Redemptions) != n || shared.DiscountAmount != n*1000 {
				t.Errorf("one order: %d successes (%v), %d entries, discount %d; want %d, %d, %d", ok, keys(errs), len(shared.Redemptions), shared.DiscountAmount, n, n, n*1000)
			}

			create("MIXED", `{"type":"GIFT_VOUCHER","gift":{"amount":500},"redemption":{"quantity":3}}`)
			var mu sync.Mutex
			var done []string
			parallel(func(i int) error {
				if i%3 != 2 {
					r, err := redeem(i, `{"redeemables":[{"object":"voucher","id":"MIXED","gift":{"credits":50}}],"order":{"amount":1000}}`)
					if err == nil {
						mu.Lock()
						done = append(done, r.Redemptions[0].ID)
						mu.Unlock()
					}
					return err
				}
				mu.Lock()
				var id string
				if len(done) > 0 {
					id = done[len(done)-1]
				}
				mu.Unlock()
				if id == "" {
					return nil
				}
				_, err := engines[i%2].Redemptions().Rollback(ctx, f.project, id, redemption.RollbackParams{})
				return err
			})
			led = must[*redemption.VoucherRedemptions](t)(f.eng.Redemptions().ForVoucher(ctx, f.project, "MIXED"))
			var qty, credits int64
			for _, r := range led.RedemptionEntries {
				if r.Result != redemption.ResultSuccess {
					continue
				}
				qty += r.Ledger.Spend.Quantity
				credits += r.Ledger.Spend.Credits
			}
			card = must[*voucher.Voucher](t)(st.FindVoucherByCode(ctx, f.project, "MIXED"))
			if card.RedeemedQuantity != qty || card.Gift.Balance != 500-credits || card.RedeemedQuantity > 3 {
				t.Errorf("mixed: redeemed %d, balance %d; ledger %d and %d", card.RedeemedQuantity, card.Gift.Balance, qty, 500-credits)
			}
		})
	}
}

// TestCustomerSummaryW9 reproduces W9: four redemptions and one rollback
// leave total_redeemed 4, total_succeeded 4, total_rolled_back 1,
// total_rollback_succeeded 1 (a rollback does not lower total_succeeded);
// a refused attempt counts as redeemed and failed.
func TestCustomerSummaryW9(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			f := newStackFixture(t, newStore(t))
			red := f.eng.Redemptions()
			body := js[redemption.ValidationParams](t, `{"customer":{"source_id":"w9"},"redeemables":[{"object":"voucher","id":"39vnjyS8"}],"order":{"amount":70000}}`)
			var first string
			for i := range 4 {
				r := must[*redemption.Redemptions](t)(red.Redeem(ctx, f.project, body, redemption.RedeemOptions{}))
				if i == 0 {
					first = r.Redemptions[0].ID
				}
			}
			must[*redemption.RollbackStack](t)(red.Rollback(ctx, f.project, first, redemption.RollbackParams{}))
			c := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "w9"))
			got := c.Summary.Redemptions
			diff(t, "W9", []int64{4, 4, 0, 1, 1}, []int64{got.TotalRedeemed, got.TotalSucceeded, got.TotalFailed, got.TotalRolledBack, got.TotalRollbackSucceeded})
			_, err := red.Redeem(ctx, f.project, js[redemption.ValidationParams](t, `{"customer":{"source_id":"w9"},"redeemables":[{"object":"voucher","id":"ONCE"}],"order":{"amount":1000}}`), redemption.RedeemOptions{})
			wantErr(t, err, 400, "quantity_exceeded")
			got = must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "w9")).Summary.Redemptions
			diff(t, "after a failure", []int64{5, 4, 1}, []int64{got.TotalRedeemed, got.TotalSucceeded, got.TotalFailed})
		})
	}
}

// TestRedemptionEvents: a redemption, a failed attempt, a rollback and a
// refused rollback each append their event in their transaction, with the
// data keys the hosted service documents.
func TestRedemptionEvents(t *testing.T) {
	f := newOutboxFixture(t)
	e, p := f.eng, f.project
	code := "EV1"
	in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":1}}`)
	in.Code = &code
	must[*voucher.Voucher](t)(e.Vouchers().Create(ctx, p, in))
	body := js[redemption.ValidationParams](t, `{"customer":{"source_id":"eve"},"redeemables":[{"object":"voucher","id":"EV1"}],"order":{"amount":1000}}`)
	redemptionEvents := func(from int) []outboxEvent {
		var out []outboxEvent
		for _, x := range f.since(t, from) {
			if strings.HasPrefix(x.Type, "redemption.") {
				out = append(out, x)
			}
		}
		return out
	}
	keys := []string{"redemption", "customer", "order", "voucher", "promotion_tier=null", "created_at=", "campaign=null"}

	n := f.count()
	r := must[*redemption.Redemptions](t)(e.Redemptions().Redeem(ctx, p, body, redemption.RedeemOptions{})).Redemptions[0]
	diff(t, "succeeded", []outboxEvent{ev(redemption.EventSucceeded, r.ID, keys...)}, redemptionEvents(n))

	n = f.count()
	_, err := e.Redemptions().Redeem(ctx, p, body, redemption.RedeemOptions{})
	failed := wantErr(t, err, 400, "quantity_exceeded").ResourceID
	diff(t, "failed", []outboxEvent{ev(redemption.EventFailed, failed, "redemption", "customer", "order=null", "voucher=null", "promotion_tier=null", "campaign=null", "created_at=")}, redemptionEvents(n))

	n = f.count()
	rb := must[*redemption.RollbackStack](t)(e.Redemptions().Rollback(ctx, p, r.ID, redemption.RollbackParams{})).Head()
	rbKeys := append([]string{}, keys...)
	rbKeys[0] = "redemption=redemption_rollback"
	diff(t, "rollback succeeded", []outboxEvent{ev(redemption.EventRollbackSucceeded, rb.ID, rbKeys...)}, redemptionEvents(n))

	n = f.count()
	_, err = e.Redemptions().Rollback(ctx, p, r.ID, redemption.RollbackParams{})
	refused := wantErr(t, err, 400, "already_rolled_back").ResourceID
	diff(t, "rollback failed", []outboxEvent{ev(redemption.EventRollbackFailed, refused, "redemption=redemption_rollback", "customer", "order=null", "voucher=null", "promotion_tier=null", "campaign=null", "created_at=")}, redemptionEvents(n))
}
