package storagetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage"
)

// testWriteBehind covers the optional write-behind ability
// (storage.WriteBehindStore) on every store that has it: a transaction run
// by RunInTxWriteBehind reads its own writes and commits or rolls back as
// one; a taken key fails the transaction, whatever fn returned (inside a
// savepoint, the savepoint); the events it appends are kept as heard.
func testWriteBehind(t *testing.T, newStore Factory) {
	if _, ok := newStore(t).(storage.WriteBehindStore); !ok {
		t.Skip("the store has no write-behind transactions (storage.WriteBehindStore)")
	}
	open := func(t *testing.T) (storage.WriteBehindStore, string) {
		s := newStore(t).(storage.WriteBehindStore)
		return s, outboxProject(t, s, "proj_a")
	}
	t.Run("ReadYourWrites", func(t *testing.T) {
		s, p := open(t)
		v := discountVoucher(p, "", 1)
		must(t, s.InsertVoucher(ctx, v))
		o, r, c := orderFixture(p, 1), ledgerRow(p, 1, v, "", redemption.Spend{Quantity: 1}), customerFixture(p, 1)
		must(t, s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
			must(t, tx.InsertCustomer(ctx, c))
			got, err := tx.FindCustomerBySourceID(ctx, p, *c.SourceID)
			must(t, err)
			diff(t, "the customer read back in the transaction", c, got)
			must(t, tx.InsertOrder(ctx, o))
			gotOrder, err := tx.GetOrder(ctx, p, o.ID)
			must(t, err)
			diff(t, "the order read back in the transaction", o, gotOrder)
			if _, err := tx.SpendVoucher(ctx, p, v.ID, r.Ledger.Spend); err != nil {
				return err
			}
			must(t, tx.InsertRedemptions(ctx, r))
			_, total, err := tx.ListRedemptions(ctx, p, promotype.Query{Limit: 10, OrderBy: "id"})
			must(t, err)
			if total != 1 {
				t.Errorf("redemptions listed in the transaction = %d, want 1", total)
			}
			return nil
		}))
		got, err := s.GetOrder(ctx, p, o.ID)
		must(t, err)
		diff(t, "the committed order", o, got)
		_, err = s.GetRedemption(ctx, p, r.ID)
		must(t, err)
		gotCustomer, err := s.GetCustomer(ctx, p, c.ID)
		must(t, err)
		diff(t, "the committed customer", c, gotCustomer)
	})
	t.Run("Counters", func(t *testing.T) {
		s, p := open(t)
		must(t, s.AddCounters(ctx, p, redemption.CounterDelta{Key: "k1", Delta: 1}))
		must(t, s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
			got, err := tx.AddCountersRead(ctx, p, nil, redemption.CounterDelta{Key: "k2", Delta: 5}, redemption.CounterDelta{Key: "k1", Delta: 2})
			must(t, err)
			diff(t, "nothing read back", map[string]int64{}, got)
			must(t, tx.AddCounters(ctx, p, redemption.CounterDelta{Key: "k1", Delta: 1}))
			got, err = tx.Counters(ctx, p, "k1", "k2")
			must(t, err)
			diff(t, "counters read in the transaction", map[string]int64{"k1": 4, "k2": 5}, got)
			capped := redemption.CounterDelta{Key: "k1", Delta: 1, Max: ptr(int64(4))}
			wantLimit(t, "a capped delta over its limit", tx.Savepoint(ctx, func(ctx context.Context) error { return tx.AddCounters(ctx, p, capped) }),
				redemption.LimitCounter)
			return tx.AddCounters(ctx, p, redemption.CounterDelta{Key: "k2", Delta: -1})
		}))
		got, err := s.Counters(ctx, p, "k1", "k2")
		must(t, err)
		diff(t, "committed counters", map[string]int64{"k1": 4, "k2": 4}, got)
		err = s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
			must(t, tx.AddCounters(ctx, p, redemption.CounterDelta{Key: "k1", Delta: 10}))
			return errBoom
		})
		if err != errBoom {
			t.Fatalf("RunInTxWriteBehind = %v, want the callback's error", err)
		}
		got, err = s.Counters(ctx, p, "k1")
		must(t, err)
		diff(t, "counters after a rollback", map[string]int64{"k1": 4}, got)
	})
	t.Run("TakenKeyFailsTheTransaction", func(t *testing.T) {
		s, p := open(t)
		v := discountVoucher(p, "", 1)
		must(t, s.InsertVoucher(ctx, v))
		must(t, s.InsertOrder(ctx, orderFixture(p, 1)))
		must(t, redeem(s, ledgerRow(p, 1, v, "", redemption.Spend{})))
		dup := orderFixture(p, 2)
		dup.SourceID = orderFixture(p, 1).SourceID
		must(t, s.InsertCustomer(ctx, customerFixture(p, 2)))
		dupCustomer := customerFixture(p, 4)
		dupCustomer.SourceID = customerFixture(p, 2).SourceID
		cases := []struct {
			name string
			fn   func(ctx context.Context, tx storage.Tx) error
		}{
			{"an order's source id", func(ctx context.Context, tx storage.Tx) error { return tx.InsertOrder(ctx, dup) }},
			{"a customer's source id", func(ctx context.Context, tx storage.Tx) error { return tx.InsertCustomer(ctx, dupCustomer) }},
			{"a redemption's id", func(ctx context.Context, tx storage.Tx) error {
				return tx.InsertRedemptions(ctx, ledgerRow(p, 1, v, "", redemption.Spend{}))
			}},
			{"then a read that succeeds or not", func(ctx context.Context, tx storage.Tx) error {
				_ = tx.InsertOrder(ctx, dup)
				_, _ = tx.GetOrder(ctx, p, "ord_001")
				return nil // the transaction fails all the same
			}},
		}
		for _, c := range cases {
			err := s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
				must(t, tx.InsertCustomer(ctx, customerFixture(p, 1)))
				must(t, tx.InsertOrder(ctx, orderFixture(p, 3)))
				return c.fn(ctx, tx)
			})
			wantErr(t, c.name, err, promotype.ErrDuplicateFound)
			wantErr(t, c.name+": the customer written before", second(s.GetCustomer(ctx, p, "cust_001")), promotype.ErrNotFound)
			wantErr(t, c.name+": the order written before", second(s.GetOrder(ctx, p, "ord_003")), promotype.ErrNotFound)
		}
	})
	t.Run("Rollback", func(t *testing.T) {
		s, p := open(t)
		must(t, s.InsertWebhook(ctx, hook(p, "wh_1", 0, true, "campaign.created")))
		err := s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
			must(t, tx.InsertOrder(ctx, orderFixture(p, 1)))
			must(t, tx.AppendEvents(ctx, event(p, "evt_1", 1, "campaign.created")))
			return errBoom
		})
		if err != errBoom {
			t.Fatalf("RunInTxWriteBehind = %v, want the callback's error", err)
		}
		wantErr(t, "the rolled-back order", second(s.GetOrder(ctx, p, "ord_001")), promotype.ErrNotFound)
		if events, _ := fanOut(t, s, 10, &planner{}); events != 0 {
			t.Errorf("a rolled-back event was stored (%d taken)", events)
		}
	})
	t.Run("Savepoint", func(t *testing.T) {
		s := newStore(t).(storage.WriteBehindStore)
		testSavepointIn(t, s, s.RunInTxWriteBehind)
	})
	t.Run("EventsAsHeard", func(t *testing.T) {
		s, p := open(t)
		q := outboxProject(t, s, "proj_b")
		insertListeners(t, s, p, q)
		must(t, s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
			return tx.AppendEvents(ctx, event(p, "evt_1", 10, "campaign.created"), event(p, "evt_2", 11, "voucher.created"),
				event(p, "evt_3", 30, "campaign.created"), event(q, "evt_4", 1, "campaign.created"), event(q, "evt_5", 1, "voucher.created"))
		}))
		var pl planner
		if events, sendouts := fanOut(t, s, 10, &pl); events != 3 || sendouts != 3 {
			t.Errorf("fan-out = %d events, %d sendouts; want the three heard, 3", events, sendouts)
		}
		diff(t, "heard events", map[string][]string{"evt_2": {"wh_other"}, "evt_3": {"wh_late"}, "evt_4": {"wh_b"}}, pl.seen)
	})
	t.Run("ManyRows", func(t *testing.T) {
		s, p := open(t)
		must(t, s.InsertWebhook(ctx, hook(p, "wh_1", 0, true, "campaign.created")))
		const orders, events = 300, 700
		must(t, s.RunInTxWriteBehind(ctx, func(ctx context.Context, tx storage.Tx) error {
			for i := range orders {
				if err := tx.InsertOrder(ctx, orderFixture(p, i+1)); err != nil {
					return err
				}
			}
			evs := make([]*promotype.Event, events) // in one call: more rows than one statement binds
			for i := range evs {
				evs[i] = event(p, fmt.Sprintf("evt_%04d", i), 1, "campaign.created")
			}
			if err := tx.AppendEvents(ctx, evs...); err != nil {
				return err
			}
			return nil
		}))
		_, total, err := s.ListOrders(ctx, p, promotype.Query{Limit: 1, OrderBy: "created_at"})
		must(t, err)
		if got, _ := fanOut(t, s, 1000, &planner{}); total != orders || got != events {
			t.Errorf("stored %d orders and %d events, want %d and %d", total, got, orders, events)
		}
	})
}
