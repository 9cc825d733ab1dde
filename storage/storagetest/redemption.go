package storagetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

func stackingRulesRow(projectID, id string) *redemption.StackingRules {
	r := redemption.DefaultStackingRules()
	created := promotype.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC))
	r.ID, r.ProjectID, r.CreatedAt = id, projectID, &created
	r.ExclusiveCategories = []string{"cat_x"}
	r.ApplicableRedeemablesCategoryLimits = map[string]int{"cat_y": 3}
	r.RedeemablesApplicationMode = redemption.ModeAll
	return r
}

// testStackingRules: one row per project, isolated, returned as the
// caller's own; a second insert is duplicate_found.
func testStackingRules(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	_, err := s.GetStackingRules(ctx, a)
	wantErr(t, "none stored", err, promotype.ErrNotFound)
	want := stackingRulesRow(a, "stk_001")
	must(t, s.InsertStackingRules(ctx, want))
	got, err := s.GetStackingRules(ctx, a)
	must(t, err)
	diff(t, "stacking rules", want, got)
	got.ExclusiveCategories[0] = "changed"
	got.ApplicableRedeemablesCategoryLimits["cat_y"] = 9
	again, err := s.GetStackingRules(ctx, a)
	must(t, err)
	diff(t, "after mutating a returned value", want, again)

	wantErr(t, "second insert", s.InsertStackingRules(ctx, stackingRulesRow(a, "stk_002")), promotype.ErrDuplicateFound)
	_, err = s.GetStackingRules(ctx, b)
	wantErr(t, "other project", err, promotype.ErrNotFound)
	wantErr(t, "delete in other project", s.DeleteStackingRules(ctx, b), promotype.ErrNotFound)
	must(t, s.InsertStackingRules(ctx, stackingRulesRow(b, "stk_003")))

	upd := want.Clone()
	updated := promotype.NewTime(time.Date(2026, 2, 2, 3, 4, 5, 0, time.UTC))
	upd.UpdatedAt, upd.RedeemablesLimit, upd.JointCategories = &updated, 10, []string{"cat_j"}
	must(t, s.UpdateStackingRules(ctx, upd))
	got, err = s.GetStackingRules(ctx, a)
	must(t, err)
	diff(t, "updated", upd, got)

	must(t, s.DeleteStackingRules(ctx, a))
	_, err = s.GetStackingRules(ctx, a)
	wantErr(t, "deleted", err, promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteStackingRules(ctx, a), promotype.ErrNotFound)
	must(t, s.InsertStackingRules(ctx, stackingRulesRow(a, "stk_004")))
	if _, err := s.GetStackingRules(ctx, b); err != nil {
		t.Fatalf("project b's rules after a's delete: %v", err)
	}
}

// ledgerRow is a redemption row of voucher v (id r_<n>), parent parent.
func ledgerRow(projectID string, n int, v *voucher.Voucher, parent string, sp redemption.Spend) *redemption.Redemption {
	r := &redemption.Redemption{
		ID: fmt.Sprintf("r_%03d", n), Object: redemption.ObjectRedemption, Date: at(n),
		CustomerID: ptr("cust_1"), TrackingID: ptr("track_1"), Metadata: promotype.Metadata{"n": float64(n)},
		Amount: sp.Credits + sp.Points, Result: redemption.ResultSuccess, Status: redemption.StatusSucceeded,
		Channel:           redemption.Channel{ChannelID: "app_1", ChannelType: "API"},
		RelatedObjectType: redemption.RelatedVoucher, RelatedObjectID: v.ID,
		Ledger: redemption.Ledger{ProjectID: projectID, VoucherID: v.ID, VoucherCode: v.Code, Spend: sp},
	}
	if parent != "" {
		r.Redemption, r.Ledger.ParentID = ptr(parent), parent
	}
	return r
}

// redeem writes a redemption of v as a service does: the spend and the
// row in one transaction.
func redeem(s storage.Store, r *redemption.Redemption) error {
	return s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if _, err := tx.SpendVoucher(ctx, r.Ledger.ProjectID, r.Ledger.VoucherID, r.Ledger.Spend); err != nil {
			return err
		}
		return tx.InsertRedemptions(ctx, r)
	})
}

// rollback undoes redemption id as a service does: the conditional mark,
// the spend given back and the rollback row in one transaction. It
// reports false when the redemption was not SUCCEEDED any more.
func rollback(s storage.Store, projectID, id, rollbackID string) (done bool, err error) {
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		r, err := tx.GetRedemption(ctx, projectID, id)
		if err != nil {
			return err
		}
		if done, err = tx.MarkRolledBack(ctx, projectID, id, rollbackID, at(500)); err != nil || !done {
			return err
		}
		if _, err := tx.SpendVoucher(ctx, projectID, r.Ledger.VoucherID, r.Ledger.Spend.Neg()); err != nil {
			return err
		}
		rr := &redemption.Redemption{ID: rollbackID, Object: redemption.ObjectRollback, Date: at(500), Redemption: &id,
			Result: redemption.ResultSuccess, Status: redemption.StatusSucceeded, RelatedObjectType: redemption.RelatedVoucher,
			RelatedObjectID: r.Ledger.VoucherID, Amount: -r.Amount,
			Ledger: redemption.Ledger{ProjectID: projectID, VoucherID: r.Ledger.VoucherID, VoucherCode: r.Ledger.VoucherCode, Spend: r.Ledger.Spend.Neg()}}
		return tx.InsertRedemptions(ctx, rr)
	})
	return done, err
}

func wantLimit(t testing.TB, what string, err error, limit string) {
	t.Helper()
	var le *redemption.LimitError
	if !errors.As(err, &le) || le.Limit != limit {
		t.Fatalf("%s: got %v, want a %s LimitError", what, err, limit)
	}
}

// testRedemptionLedger: rows are stored whole, found by id, idempotency
// key and the list fields, isolated by project, the caller's own; a
// redemption is marked rolled back once.
func testRedemptionLedger(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	v := discountVoucher(a, "camp_1", 1)
	must(t, s.InsertVoucher(ctx, v))
	parent := ledgerRow(a, 1, v, "", redemption.Spend{})
	parent.RelatedObjectType, parent.RelatedObjectID, parent.Ledger.VoucherID, parent.Ledger.VoucherCode = redemption.RelatedRedemption, "r_001", "", ""
	parent.Ledger.Children, parent.Ledger.IdempotencyKey = []string{"r_002"}, "key-1"
	child := ledgerRow(a, 2, v, "r_001", redemption.Spend{Quantity: 1})
	child.Ledger.CampaignID = "camp_1"
	failed := ledgerRow(a, 3, v, "", redemption.Spend{})
	failed.ID, failed.Result, failed.Status, failed.FailureCode = "rf_003", redemption.ResultFailure, redemption.StatusFailed, ptr("quantity_exceeded")
	must(t, s.InsertRedemptions(ctx, parent, child, failed))
	wantErr(t, "second insert", s.InsertRedemptions(ctx, ledgerRow(a, 2, v, "", redemption.Spend{})), promotype.ErrDuplicateFound)

	got, err := s.GetRedemption(ctx, a, "r_002")
	must(t, err)
	diff(t, "child", child, got)
	got.Metadata["n"], got.Ledger.Children = "changed", []string{"x"}
	again, err := s.GetRedemption(ctx, a, "r_002")
	must(t, err)
	diff(t, "after mutating a returned value", child, again)
	byKey, err := s.FindRedemptionByIdempotencyKey(ctx, a, "key-1")
	must(t, err)
	diff(t, "by idempotency key", parent, byKey)
	_, err = s.FindRedemptionByIdempotencyKey(ctx, b, "key-1")
	wantErr(t, "key of another project", err, promotype.ErrNotFound)
	_, err = s.GetRedemption(ctx, b, "r_002")
	wantErr(t, "other project", err, promotype.ErrNotFound)

	ids := func(q promotype.Query) []string {
		t.Helper()
		rs, total, err := s.ListRedemptions(ctx, a, q)
		must(t, err)
		out := []string{}
		for _, r := range rs {
			out = append(out, r.ID)
		}
		if total < len(out) {
			t.Errorf("total %d < page %d", total, len(out))
		}
		return out
	}
	all := promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true}
	diff(t, "newest first", []string{"rf_003", "r_002", "r_001"}, ids(all))
	for _, tc := range []struct {
		field, value string
		want         []string
	}{
		{"result", redemption.ResultFailure, []string{"rf_003"}},
		{"parent_redemption_id", "r_001", []string{"r_002"}},
		{"voucher_code", v.Code, []string{"rf_003", "r_002"}},
		{"failure_code", "quantity_exceeded", []string{"rf_003"}},
		{"related_object_parent_id", "camp_1", []string{"r_002"}},
		{"related_object_type", redemption.RelatedRedemption, []string{"r_001"}},
	} {
		q := all
		q.Filter = promotype.Filter{Junction: promotype.JunctionAnd, Conditions: []promotype.Condition{cond(tc.field, promotype.OpIn, tc.value)}}
		diff(t, "filter "+tc.field, tc.want, ids(q))
	}
	rs, total, err := s.ListRedemptions(ctx, b, all)
	must(t, err)
	if len(rs) != 0 || total != 0 {
		t.Errorf("other project lists %d (total %d), want none", len(rs), total)
	}

	ok, err := s.MarkRolledBack(ctx, a, "r_002", "rr_1", at(9))
	must(t, err)
	if !ok {
		t.Fatal("first MarkRolledBack = false, want true")
	}
	got, err = s.GetRedemption(ctx, a, "r_002")
	must(t, err)
	if got.Status != redemption.StatusRolledBack || got.Ledger.RolledBackBy != "rr_1" || got.Ledger.RolledBackAt == nil || !got.Ledger.RolledBackAt.Equal(at(9)) {
		t.Errorf("after MarkRolledBack: status %s, by %q at %v", got.Status, got.Ledger.RolledBackBy, got.Ledger.RolledBackAt)
	}
	if ok, err = s.MarkRolledBack(ctx, a, "r_002", "rr_2", at(10)); err != nil || ok {
		t.Errorf("second MarkRolledBack = %v, %v; want false, nil", ok, err)
	}
	if ok, err = s.MarkRolledBack(ctx, a, "rf_003", "rr_3", at(10)); err != nil || ok {
		t.Errorf("MarkRolledBack of a failure = %v, %v; want false, nil", ok, err)
	}
	_, err = s.MarkRolledBack(ctx, b, "r_002", "rr_4", at(10))
	wantErr(t, "MarkRolledBack in another project", err, promotype.ErrNotFound)
}

// testVoucherSpend: each limit refuses the whole spend; giving back always
// applies; the voucher shows the counters.
func testVoucherSpend(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	gift := fullVoucher(p, 1) // quantity 5, redeemed 2, balance 900
	gift.HolderID, gift.ReferrerID = nil, nil
	loyal := discountVoucher(p, "", 2)
	loyal.Type, loyal.Discount, loyal.LoyaltyCard = campaign.LoyaltyCard, nil, &voucher.LoyaltyCard{Points: 100, Balance: 40}
	plain := discountVoucher(p, "", 3) // unlimited
	for _, v := range []*voucher.Voucher{gift, loyal, plain} {
		must(t, s.InsertVoucher(ctx, v))
	}
	check := func(what, id string, redeemed, balance int64) {
		t.Helper()
		v, err := s.GetVoucher(ctx, p, id)
		must(t, err)
		got := [2]int64{v.RedeemedQuantity, -1}
		switch {
		case v.Gift != nil:
			got[1] = v.Gift.Balance
		case v.LoyaltyCard != nil:
			got[1] = v.LoyaltyCard.Balance
		}
		diff(t, what, [2]int64{redeemed, balance}, got)
	}
	after, err := s.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Quantity: 1, Credits: 850})
	must(t, err)
	check("gift after a spend", gift.ID, 3, 50)
	if stored, err := s.GetVoucher(ctx, p, gift.ID); err == nil {
		diff(t, "the voucher a spend returns (as stored after it)", stored, after)
	}
	wantLimit(t, "credits over the balance", spendErr(s.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Quantity: 1, Credits: 51})), redemption.LimitGift)
	check("gift after a refused spend", gift.ID, 3, 50)
	must(t, spendErr(s.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Quantity: 2})))
	wantLimit(t, "quantity", spendErr(s.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Quantity: 1})), redemption.LimitQuantity)
	must(t, spendErr(s.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Quantity: 1, Credits: 850}.Neg())))
	check("gift given back", gift.ID, 4, 900)

	wantLimit(t, "points", spendErr(s.SpendVoucher(ctx, p, loyal.ID, redemption.Spend{Quantity: 1, Points: 41})), redemption.LimitPoints)
	must(t, spendErr(s.SpendVoucher(ctx, p, loyal.ID, redemption.Spend{Quantity: 1, Points: 40})))
	check("loyalty", loyal.ID, 1, 0)
	wantLimit(t, "credits of a card without gift", spendErr(s.SpendVoucher(ctx, p, plain.ID, redemption.Spend{Credits: 1})), redemption.LimitGift)
	for range 3 {
		must(t, spendErr(s.SpendVoucher(ctx, p, plain.ID, redemption.Spend{Quantity: 1})))
	}
	check("unlimited", plain.ID, 3, -1)
	wantErr(t, "missing voucher", spendErr(s.SpendVoucher(ctx, p, "v_none", redemption.Spend{Quantity: 1})), promotype.ErrNotFound)
	wantErr(t, "other project", spendErr(s.SpendVoucher(ctx, "proj_b", plain.ID, redemption.Spend{Quantity: 1})), promotype.ErrNotFound)
	// A refused spend in a transaction leaves the transaction usable.
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		wantLimit(t, "in a transaction", spendErr(tx.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Credits: 10_000})), redemption.LimitGift)
		return spendErr(tx.SpendVoucher(ctx, p, gift.ID, redemption.Spend{Credits: 100}))
	})
	must(t, err)
	check("after a refusal and a spend in one transaction", gift.ID, 4, 800)
}

// testRedemptionCounters: counters add up, a limit refuses, absent keys
// read 0.
func testRedemptionCounters(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	k1, k2 := redemption.VoucherCustomerKey("v_1", "cust_1"), redemption.CampaignCustomerKey("camp_1", "cust_1")
	must(t, s.AddCounters(ctx, p, redemption.CounterDelta{Key: k1, Delta: 1, Max: ptr(int64(2))}, redemption.CounterDelta{Key: k2, Delta: 5}))
	must(t, s.AddCounters(ctx, p, redemption.CounterDelta{Key: k1, Delta: 1, Max: ptr(int64(2))}))
	wantLimit(t, "over the max", s.AddCounters(ctx, p, redemption.CounterDelta{Key: k1, Delta: 1, Max: ptr(int64(2))}), redemption.LimitCounter)
	wantLimit(t, "a first delta over the max", s.AddCounters(ctx, p, redemption.CounterDelta{Key: "fresh", Delta: 3, Max: ptr(int64(2))}), redemption.LimitCounter)
	must(t, s.AddCounters(ctx, p, redemption.CounterDelta{Key: k1, Delta: -1, Max: ptr(int64(2))}))
	got, err := s.Counters(ctx, p, k1, k2, "fresh")
	must(t, err)
	diff(t, "counters", map[string]int64{k1: 1, k2: 5, "fresh": 0}, got)
	got, err = s.Counters(ctx, "proj_b", k1)
	must(t, err)
	diff(t, "other project", map[string]int64{k1: 0}, got)

	// AddCountersRead answers the values after the change: of capped and
	// unlimited keys it changes, and of keys it does not change.
	got, err = s.AddCountersRead(ctx, p, []string{k1, k2, "fresh", "untouched"},
		redemption.CounterDelta{Key: k1, Delta: 1, Max: ptr(int64(2))}, redemption.CounterDelta{Key: k2, Delta: -2},
		redemption.CounterDelta{Key: "fresh", Delta: 4}, redemption.CounterDelta{Key: "other", Delta: 1})
	must(t, err)
	diff(t, "AddCountersRead", map[string]int64{k1: 2, k2: 3, "fresh": 4, "untouched": 0}, got)
	_, err = s.AddCountersRead(ctx, p, []string{k1}, redemption.CounterDelta{Key: k1, Delta: 1, Max: ptr(int64(2))})
	wantLimit(t, "AddCountersRead over the max", err, redemption.LimitCounter)
	got, err = s.Counters(ctx, p, k1, k2, "fresh", "other")
	must(t, err)
	diff(t, "after AddCountersRead", map[string]int64{k1: 2, k2: 3, "fresh": 4, "other": 1}, got)
}

// testRedemptionConcurrency: limits hold under concurrent redemptions and
// rollbacks, and every counter equals its ledger afterwards.
func testRedemptionConcurrency(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	const n = 40
	run := func(what string, n int, f func(i int) error) (int, []error) {
		return runConcurrently(t, what, n, f)
	}
	ledgerSum := func(voucherID string) (spent redemption.Spend) {
		t.Helper()
		rs, _, err := s.ListRedemptions(ctx, p, promotype.Query{Limit: 10 * n, OrderBy: "created_at"})
		must(t, err)
		for _, r := range rs {
			if r.Ledger.VoucherID == voucherID && r.Result == redemption.ResultSuccess {
				spent.Quantity += r.Ledger.Spend.Quantity
				spent.Credits += r.Ledger.Spend.Credits
				spent.Points += r.Ledger.Spend.Points
			}
		}
		return spent
	}

	t.Run("QuantityLimit", func(t *testing.T) {
		const q = 5
		v := discountVoucher(p, "", 10)
		v.RedemptionQuantity = ptr(int64(q))
		must(t, s.InsertVoucher(ctx, v))
		ok, errs := run("redeem", n, func(i int) error {
			return redeem(s, ledgerRow(p, 1000+i, v, "", redemption.Spend{Quantity: 1}))
		})
		for _, err := range errs {
			wantLimit(t, "a refused redemption", err, redemption.LimitQuantity)
		}
		if ok != q || len(errs) != n-q {
			t.Errorf("successes %d, refusals %d; want %d and %d", ok, len(errs), q, n-q)
		}
		got, err := s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		if got.RedeemedQuantity != q || ledgerSum(v.ID).Quantity != q {
			t.Errorf("redeemed_quantity %d, ledger %d; want %d", got.RedeemedQuantity, ledgerSum(v.ID).Quantity, q)
		}
	})

	t.Run("GiftBalance", func(t *testing.T) {
		const balance, x = 1000, 70
		v := discountVoucher(p, "", 11)
		v.Type, v.Discount, v.Gift = campaign.GiftVoucher, nil, &voucher.Gift{Amount: balance, Balance: balance}
		must(t, s.InsertVoucher(ctx, v))
		ok, errs := run("debit", n, func(i int) error {
			return redeem(s, ledgerRow(p, 2000+i, v, "", redemption.Spend{Quantity: 1, Credits: x}))
		})
		for _, err := range errs {
			wantLimit(t, "a refused debit", err, redemption.LimitGift)
		}
		got, err := s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		if ok*x > balance || ok != balance/x || got.Gift.Balance != balance-int64(ok)*x || ledgerSum(v.ID).Credits != int64(ok)*x {
			t.Errorf("successes %d × %d, balance %d, ledger %d; want %d successes, balance %d", ok, x, got.Gift.Balance, ledgerSum(v.ID).Credits, balance/x, balance-balance/x*x)
		}
	})

	t.Run("RedemptionsAndRollbacks", func(t *testing.T) {
		const q = 3
		v := discountVoucher(p, "", 12)
		v.RedemptionQuantity = ptr(int64(q))
		v.Type, v.Discount, v.Gift = campaign.GiftVoucher, nil, &voucher.Gift{Amount: 500, Balance: 500}
		must(t, s.InsertVoucher(ctx, v))
		// Even goroutines redeem; odd ones roll back an earlier attempt
		// (two of them the same one), whether or not it succeeded.
		run("redeem and roll back", n, func(i int) error {
			if i%2 == 0 {
				return redeem(s, ledgerRow(p, 3000+i, v, "", redemption.Spend{Quantity: 1, Credits: 50}))
			}
			_, err := rollback(s, p, fmt.Sprintf("r_%03d", 3000+(i/4)*4), fmt.Sprintf("rr_%d", i))
			if errors.Is(err, promotype.ErrNotFound) {
				return nil // not redeemed (yet, or refused)
			}
			return err
		})
		got, err := s.GetVoucher(ctx, p, v.ID)
		must(t, err)
		sum := ledgerSum(v.ID)
		if got.RedeemedQuantity != sum.Quantity || got.Gift.Balance != 500-sum.Credits || got.RedeemedQuantity > q {
			t.Errorf("redeemed_quantity %d, balance %d; ledger says %d and %d (limit %d)", got.RedeemedQuantity, got.Gift.Balance, sum.Quantity, 500-sum.Credits, q)
		}
		rs, _, err := s.ListRedemptions(ctx, p, promotype.Query{Limit: 10 * n, OrderBy: "created_at"})
		must(t, err)
		undone := map[string]int{}
		for _, r := range rs {
			if r.Object == redemption.ObjectRollback && r.Ledger.VoucherID == v.ID {
				undone[*r.Redemption]++
			}
		}
		for id, k := range undone {
			if k != 1 {
				t.Errorf("%s rolled back %d times", id, k)
			}
		}
	})

	t.Run("PerCustomerLimit", func(t *testing.T) {
		key := redemption.VoucherCustomerKey("v_x", "cust_1")
		ok, errs := run("count", n, func(int) error {
			return s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				return tx.AddCounters(ctx, p, redemption.CounterDelta{Key: key, Delta: 1, Max: ptr(int64(2))})
			})
		})
		for _, err := range errs {
			wantLimit(t, "a refused count", err, redemption.LimitCounter)
		}
		got, err := s.Counters(ctx, p, key)
		must(t, err)
		if ok != 2 || got[key] != 2 {
			t.Errorf("successes %d, counter %d; want 2 and 2", ok, got[key])
		}
	})
}

// testCounterReadBack: what the history rules rely on (redemption's
// distinct-customer counts and per-customer limits). A counter read in
// the transaction that just added to it returns that transaction's value,
// and no concurrent transaction changes it before the end, so "the count
// went from 0 to 1" is decided once; a Max holds among many goroutines;
// a refused or failed transaction changes nothing.
func testCounterReadBack(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	const n = 24
	const seen, distinct, capped = "campaign:c:h:cc:cust_1:all", "campaign:c:h:customers:all", "voucher:v:h:c:cust_1:all"
	errRefused := errors.New("refused on purpose")
	var wg sync.WaitGroup
	var mu sync.Mutex
	firsts, limited := 0, 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				if err := tx.AddCounters(ctx, p, redemption.CounterDelta{Key: capped, Delta: 1, Max: ptr(int64(5))},
					redemption.CounterDelta{Key: seen, Delta: 1}); err != nil {
					return err
				}
				got, err := tx.Counters(ctx, p, seen)
				if err != nil {
					return err
				}
				if got[seen] == 1 {
					if err := tx.AddCounters(ctx, p, redemption.CounterDelta{Key: distinct, Delta: 1}); err != nil {
						return err
					}
					mu.Lock()
					firsts++
					mu.Unlock()
				}
				if i%7 == 6 {
					return errRefused // undoes its deltas
				}
				return nil
			})
			var le *redemption.LimitError
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.As(err, &le):
				limited++
			case err != nil && !errors.Is(err, errRefused):
				t.Errorf("transaction %d: %v", i, err)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%d transactions did not finish in 60s", n)
	}
	got, err := s.Counters(ctx, p, seen, distinct, capped)
	must(t, err)
	if got[capped] != 5 || got[seen] != 5 || got[distinct] != 1 || limited == 0 {
		t.Errorf("counters %v after %d limited; want %s and %s at 5 (the max), %s at 1", got, limited, capped, seen, distinct)
	}
	if firsts < 1 {
		t.Errorf("no transaction saw the first count")
	}
}

// giftCard is a gift card v_<n> holding balance.
func giftCard(projectID string, n int, balance int64) *voucher.Voucher {
	v := discountVoucher(projectID, "", n)
	v.Type, v.Discount, v.Gift = campaign.GiftVoucher, nil, &voucher.Gift{Amount: balance, Balance: balance}
	return v
}

// movement is a transaction of card v moving amount, with the balance
// and total after it.
func movement(projectID, id string, v *voucher.Voucher, typ string, amount int64, n int) *redemption.Transaction {
	return &redemption.Transaction{ID: id, VoucherID: v.ID, CampaignID: v.CampaignID, Type: typ, CreatedAt: at(n), ProjectID: projectID,
		Source: ptr(redemption.SourceAPI), SourceID: ptr("src-" + id), Reason: ptr("why " + id),
		Details: redemption.TransactionDetails{Balance: &redemption.Balance{Amount: ptr(amount), Total: v.Gift.Amount - v.Gift.SubtractedAmount,
			Balance: v.Gift.Balance, Type: redemption.BalanceGift, Object: "balance",
			RelatedObject: redemption.BalanceRelated{Type: "voucher", ID: v.ID}}}}
}

func txIDs(ts []*redemption.Transaction) []string {
	return ids(ts, func(t *redemption.Transaction) string { return t.ID })
}

// testVoucherTransactions: a card's transactions are stored whole, listed
// in the order they were stored (or the reverse) from a cursor, isolated
// by project and by card, the caller's own; an id is stored once.
func testVoucherTransactions(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	v, w, x := giftCard(a, 1, 1000), giftCard(a, 2, 500), giftCard(a, 3, 100)
	w.CampaignID, x.CampaignID = ptr("camp_1"), ptr("camp_1")
	must(t, s.InsertVoucher(ctx, x))
	must(t, s.InsertVoucher(ctx, v))
	must(t, s.InsertVoucher(ctx, w))
	// Ids that do not sort as they were made: order is the order of storing.
	order := []string{"vtx_m", "vtx_c", "vtx_x", "vtx_a", "vtx_k"}
	var want []*redemption.Transaction
	for i, id := range order {
		tr := movement(a, id, v, redemption.TxCreditsAddition, int64(10*(i+1)), i)
		if i == 2 {
			tr.Type, tr.Source, tr.SourceID, tr.Reason = redemption.TxCreditsRedemption, nil, nil, nil
			tr.Details.Order = &redemption.TxOrder{ID: "ord_1"}
			tr.Details.Redemption = &redemption.TxRef{ID: "r_1"}
		}
		want = append(want, tr)
		must(t, s.InsertTransactions(ctx, tr.Clone()))
	}
	must(t, s.InsertTransactions(ctx, movement(a, "vtx_w1", w, redemption.TxCreditsRemoval, -5, 9), movement(a, "vtx_x1", x, redemption.TxCreditsAddition, 7, 9),
		movement(a, "vtx_w2", w, redemption.TxCreditsAddition, 5, 10)))
	wantErr(t, "a taken id", s.InsertTransactions(ctx, movement(a, "vtx_c", v, redemption.TxCreditsAddition, 1, 11)), promotype.ErrDuplicateFound)
	must(t, s.InsertTransactions(ctx, movement(b, "vtx_c", v, redemption.TxCreditsAddition, 1, 11))) // ids are per project

	list := func(voucherID string, p redemption.TransactionPage) []*redemption.Transaction {
		t.Helper()
		p.VoucherID = voucherID
		got, err := s.ListTransactions(ctx, a, p)
		must(t, err)
		return got
	}
	got := list(v.ID, redemption.TransactionPage{Limit: 10})
	diff(t, "oldest first", want, got)
	diff(t, "newest first", []string{"vtx_k", "vtx_a", "vtx_x", "vtx_c", "vtx_m"}, txIDs(list(v.ID, redemption.TransactionPage{Limit: 10, Desc: true})))
	diff(t, "a page", []string{"vtx_m", "vtx_c"}, txIDs(list(v.ID, redemption.TransactionPage{Limit: 2})))
	diff(t, "after a cursor", []string{"vtx_x", "vtx_a"}, txIDs(list(v.ID, redemption.TransactionPage{Limit: 2, AfterID: "vtx_c"})))
	diff(t, "after a cursor, newest first", []string{"vtx_c", "vtx_m"}, txIDs(list(v.ID, redemption.TransactionPage{Limit: 5, AfterID: "vtx_x", Desc: true})))
	diff(t, "after the last", []string{}, txIDs(list(v.ID, redemption.TransactionPage{Limit: 5, AfterID: "vtx_k"})))
	diff(t, "another card", []string{"vtx_w1", "vtx_w2"}, txIDs(list(w.ID, redemption.TransactionPage{Limit: 5})))
	camp := func(p redemption.TransactionPage) []string {
		t.Helper()
		p.CampaignID = "camp_1"
		got, err := s.ListTransactions(ctx, a, p)
		must(t, err)
		return txIDs(got)
	}
	diff(t, "a campaign's cards", []string{"vtx_w1", "vtx_x1", "vtx_w2"}, camp(redemption.TransactionPage{Limit: 5}))
	diff(t, "a campaign's cards, newest first after a cursor", []string{"vtx_x1", "vtx_w1"}, camp(redemption.TransactionPage{Limit: 5, Desc: true, AfterID: "vtx_w2"}))
	cond := func(field string, op promotype.Op, vals ...string) promotype.Condition {
		return promotype.Condition{Field: field, Op: op, Values: vals}
	}
	diff(t, "a campaign's transactions of one card", []string{"vtx_x1"},
		camp(redemption.TransactionPage{Limit: 5, Filter: promotype.Filter{Conditions: []promotype.Condition{cond("voucher_id", promotype.OpIs, x.ID)}}}))
	diff(t, "a campaign's transactions by id or card (or)", []string{"vtx_w1", "vtx_x1"},
		camp(redemption.TransactionPage{Limit: 5, Filter: promotype.Filter{Junction: promotype.JunctionOr, Conditions: []promotype.Condition{
			cond("id", promotype.OpIn, "vtx_w1", "vtx_m"), cond("voucher_id", promotype.OpIs, x.ID)}}}))
	diff(t, "a filter after a cursor the filter drops", []string{"vtx_w2"},
		camp(redemption.TransactionPage{Limit: 5, AfterID: "vtx_x1", Filter: promotype.Filter{Conditions: []promotype.Condition{cond("voucher_id", promotype.OpIsNot, x.ID)}}}))
	_, err := s.ListTransactions(ctx, a, redemption.TransactionPage{CampaignID: "camp_1", Limit: 5, AfterID: "vtx_m"})
	wantErr(t, "a cursor outside the campaign", err, promotype.ErrNotFound)
	_, err = s.ListTransactions(ctx, a, redemption.TransactionPage{VoucherID: v.ID, Limit: 5, AfterID: "vtx_w1"})
	wantErr(t, "a cursor of another card", err, promotype.ErrNotFound)
	_, err = s.ListTransactions(ctx, a, redemption.TransactionPage{VoucherID: v.ID, Limit: 5, AfterID: "vtx_none"})
	wantErr(t, "an unknown cursor", err, promotype.ErrNotFound)
	other, err := s.ListTransactions(ctx, b, redemption.TransactionPage{VoucherID: v.ID, Limit: 10})
	must(t, err)
	diff(t, "project b sees its own only", []string{"vtx_c"}, txIDs(other))
	none, err := s.ListTransactions(ctx, a, redemption.TransactionPage{VoucherID: "v_none", Limit: 10})
	must(t, err)
	diff(t, "a card without transactions", []string{}, txIDs(none))

	got[0].Details.Balance.Balance, *got[0].Reason = -1, "changed"
	diff(t, "after mutating a returned value", want, list(v.ID, redemption.TransactionPage{Limit: 10}))

	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.InsertTransactions(ctx, movement(a, "vtx_gone", v, redemption.TxCreditsAddition, 1, 12)))
		return errors.New("undo")
	})
	if err == nil {
		t.Fatal("the failed transaction committed")
	}
	diff(t, "after a rolled-back insert", order, txIDs(list(v.ID, redemption.TransactionPage{Limit: 10})))
}

// testVoucherTransactionConcurrency: manual balance changes (under the
// card's lock) interleaved with redemptions and rollbacks (the spend's
// conditional update) lose no update, and the card's transactions, in
// their stored order, chain from the first balance to the last: each
// balance is the previous one plus its amount.
func testVoucherTransactionConcurrency(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	const initial, n = 1000, 48
	v := giftCard(p, 1, initial)
	must(t, s.InsertVoucher(ctx, v))
	// after reads the card in tx and writes its transaction.
	after := func(ctx context.Context, tx storage.Tx, id, typ string, amount int64, k int) error {
		cur, err := tx.GetVoucher(ctx, p, v.ID)
		if err != nil {
			return err
		}
		return tx.InsertTransactions(ctx, movement(p, id, cur, typ, amount, k))
	}
	change := func(k int, amount int64) error {
		return s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if err := tx.LockVoucher(ctx, p, v.ID); err != nil {
				return err
			}
			cur, err := tx.GetVoucher(ctx, p, v.ID)
			if err != nil {
				return err
			}
			typ := redemption.TxCreditsAddition
			if amount < 0 {
				if cur.Gift.Balance+amount < 0 {
					return &redemption.LimitError{Limit: redemption.LimitGift, Key: v.ID}
				}
				typ = redemption.TxCreditsRemoval
				cur.Gift.SubtractedAmount -= amount
			} else {
				cur.Gift.Amount += amount
			}
			cur.Gift.Balance += amount
			if err := tx.UpdateVoucher(ctx, cur); err != nil {
				return err
			}
			return after(ctx, tx, fmt.Sprintf("vtx_%03d", k), typ, amount, k)
		})
	}
	spend := func(k int, credits int64) error {
		return s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			r := ledgerRow(p, 5000+k, v, "", redemption.Spend{Quantity: 1, Credits: credits})
			if _, err := tx.SpendVoucher(ctx, p, v.ID, r.Ledger.Spend); err != nil {
				return err
			}
			if err := tx.InsertRedemptions(ctx, r); err != nil {
				return err
			}
			return after(ctx, tx, fmt.Sprintf("vtx_%03d", k), redemption.TxCreditsRedemption, -credits, k)
		})
	}
	var mu sync.Mutex
	var added, removed, spent int64
	var wg sync.WaitGroup
	done := make(chan struct{})
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			var sum *int64
			var amount int64
			switch k % 3 {
			case 0:
				amount, sum = int64(100+k), &added
				err = change(k, amount)
			case 1:
				amount, sum = int64(150+k), &removed
				err = change(k, -amount)
			default:
				amount, sum = int64(120+k), &spent
				err = spend(k, amount)
			}
			var le *redemption.LimitError
			if err != nil && !errors.As(err, &le) {
				t.Errorf("change %d: %v", k, err)
				return
			}
			if err == nil {
				mu.Lock()
				*sum += amount
				mu.Unlock()
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%d balance changes did not finish in 60s", n)
	}
	got, err := s.GetVoucher(ctx, p, v.ID)
	must(t, err)
	if want := initial + added - removed - spent; got.Gift.Balance != want {
		t.Errorf("balance %d, want %d = %d + %d added − %d removed − %d spent", got.Gift.Balance, want, initial, added, removed, spent)
	}
	ts, err := s.ListTransactions(ctx, p, redemption.TransactionPage{VoucherID: v.ID, Limit: 2 * n})
	must(t, err)
	bal, sum := int64(initial), int64(initial)
	for i, tr := range ts {
		b := tr.Details.Balance
		sum += *b.Amount
		if b.Balance != bal+*b.Amount {
			t.Errorf("transaction %d (%s %+d): balance %d, want %d + %d", i, tr.Type, *b.Amount, b.Balance, bal, *b.Amount)
		}
		bal = b.Balance
	}
	if sum != got.Gift.Balance || bal != got.Gift.Balance {
		t.Errorf("the transactions sum to %d and end at %d; the card holds %d", sum, bal, got.Gift.Balance)
	}
}

// spendErr is the error of a SpendVoucher call (the voucher it returns is
// checked where it matters).
func spendErr(_ *voucher.Voucher, err error) error { return err }

// testQualificationStore: the candidate reads of a qualification. A
// customer's wallet gives its live vouchers with the role, in holder id
// order; the public vouchers are the live, active, holder-less vouchers
// without a campaign or of a STANDALONE campaign, newest first, never a
// generated campaign's; campaigns are read by id, binned ones left out.
// Everything stays inside its project, and changes (a publication, a
// deactivation, a delete) are seen at once.
func testQualificationStore(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	standalone := bareCampaign(p, 1, campaign.DiscountCoupons)
	standalone.Type = campaign.Standalone
	generated := bareCampaign(p, 2, campaign.DiscountCoupons)
	generated.Active = true
	binnedCamp := bareCampaign(p, 3, campaign.DiscountCoupons)
	binnedCamp.Active = true
	for _, c := range []*campaign.Campaign{standalone, generated, binnedCamp} {
		must(t, s.InsertCampaign(ctx, c))
	}
	must(t, s.BinCampaign(ctx, p, binnedCamp.ID, at(1)))
	// Public: v_001 (no campaign), v_002 (standalone campaign). Not
	// public: inactive, held, binned, of a generated campaign (alone or
	// in a batch), another project's.
	noCampaign, inStandalone := discountVoucher(p, "", 1), discountVoucher(p, standalone.ID, 2)
	must(t, s.InsertVoucher(ctx, noCampaign))
	must(t, s.InsertVoucher(ctx, inStandalone))
	inactive := discountVoucher(p, "", 3)
	inactive.Active = false
	held := discountVoucher(p, "", 4)
	held.HolderID = ptr("cust_1")
	binned := discountVoucher(p, "", 5)
	for _, v := range []*voucher.Voucher{inactive, held, binned, discountVoucher(p, generated.ID, 6), discountVoucher(other, "", 7)} {
		must(t, s.InsertVoucher(ctx, v))
	}
	must(t, s.BinVoucher(ctx, p, binned.ID, at(2)))
	must(t, second(s.InsertBatch(ctx, batchOf(p, generated.ID, 1, 3, at(3)))))

	publicBetween := func(project string, after, until *redemption.OfferKey, limit int) []string {
		t.Helper()
		vs, err := s.PublicVouchers(ctx, project, after, until, limit)
		must(t, err)
		return ids(vs, func(v *voucher.Voucher) string { return v.ID })
	}
	public := func(limit int) []string { t.Helper(); return publicBetween(p, nil, nil, limit) }
	keyOf := func(v *voucher.Voucher) *redemption.OfferKey {
		return &redemption.OfferKey{CreatedAt: v.CreatedAt, ID: v.Code}
	}
	// Newest first.
	diff(t, "public vouchers", []string{"v_002", "v_001"}, public(10))
	diff(t, "public vouchers, limit 1", []string{"v_002"}, public(1))
	diff(t, "public vouchers after v_002", []string{"v_001"}, publicBetween(p, keyOf(inStandalone), nil, 10))
	diff(t, "public vouchers until v_001", []string{"v_002"}, publicBetween(p, nil, keyOf(noCampaign), 10))
	diff(t, "public vouchers from v_002's instant", []string{"v_002", "v_001"},
		publicBetween(p, &redemption.OfferKey{CreatedAt: inStandalone.CreatedAt}, nil, 10))
	// Publishing one takes it out; a new one without campaign comes in.
	_, _, err := s.PublishVoucher(ctx, p, "v_001", "cust_2", at(4))
	must(t, err)
	must(t, s.InsertVoucher(ctx, discountVoucher(p, "", 8)))
	diff(t, "after a publication", []string{"v_008", "v_002"}, public(10))
	must(t, s.DeleteVoucher(ctx, p, "v_008"))
	diff(t, "after a delete", []string{"v_002"}, public(10))
	diff(t, "other project", []string{"v_007"}, publicBetween(other, nil, nil, 10))

	// Wallets: cust_1 holds v_004 (alone), a batch voucher and a deleted
	// one; cust_2 holds v_001.
	must(t, s.InsertHolder(ctx, holderRow(p, 3, "cust_1", "v_b1_0001")))
	must(t, s.InsertHolder(ctx, holderRow(p, 1, "cust_1", held.ID)))
	gone := discountVoucher(p, "", 9)
	must(t, s.InsertVoucher(ctx, gone))
	must(t, s.InsertHolder(ctx, holderRow(p, 2, "cust_1", gone.ID)))
	must(t, s.DeleteVoucher(ctx, p, gone.ID))
	referrer := holderRow(p, 4, "cust_2", "v_001")
	referrer.HolderRole = "REFERRER"
	must(t, s.InsertHolder(ctx, referrer))
	wallet := func(project, customer string, limit int, after ...string) []string {
		t.Helper()
		hs, err := s.HeldVouchers(ctx, project, customer, strings.Join(after, ""), limit)
		must(t, err)
		out := []string{}
		for _, h := range hs {
			out = append(out, h.Role+":"+h.Voucher.ID)
		}
		return out
	}
	diff(t, "cust_1's wallet", []string{"OWNER:v_004", "OWNER:v_b1_0001"}, wallet(p, "cust_1", 10))
	diff(t, "cust_1's wallet, limit 1", []string{"OWNER:v_004"}, wallet(p, "cust_1", 1))
	diff(t, "cust_1's wallet after rh_001", []string{"OWNER:v_b1_0001"}, wallet(p, "cust_1", 10, "rh_001"))
	diff(t, "cust_2's wallet", []string{"REFERRER:v_001"}, wallet(p, "cust_2", 10))
	diff(t, "cust_1 in another project", []string{}, wallet(other, "cust_1", 10))

	cs, err := s.CampaignsByID(ctx, p, []string{generated.ID, binnedCamp.ID, "camp_none", standalone.ID})
	must(t, err)
	got := ids(cs, func(c *campaign.Campaign) string { return c.ID })
	slices.Sort(got)
	diff(t, "campaigns by id", []string{standalone.ID, generated.ID}, got)
	cs, err = s.CampaignsByID(ctx, other, []string{generated.ID})
	must(t, err)
	diff(t, "another project's campaign", []string{}, ids(cs, func(c *campaign.Campaign) string { return c.ID }))
	testCampaignOffers(t, s, p, other)
}

// testCampaignOffers: the campaigns a qualification offers are the live,
// active DISCOUNT_COUPONS and GIFT_VOUCHERS campaigns that are not
// STANDALONE and hold a free voucher, newest first, each with its free
// voucher of lowest id (held alone or generated), between keyset bounds.
// camp_002 (generated, at 2) holds v_006 and the batch v_b1_*; cust_1
// holds v_b1_0001.
func testCampaignOffers(t *testing.T, s storage.Store, p, other string) {
	t.Helper()
	gift := bareCampaign(p, 10, campaign.GiftVouchers) // active, no voucher: left out
	gift.Active = true
	promo := bareCampaign(p, 11, campaign.Promotion) // no codes
	promo.Active = true
	newest := bareCampaign(p, 12, campaign.DiscountCoupons)
	newest.Active = true
	off := bareCampaign(p, 13, campaign.DiscountCoupons) // inactive
	for _, c := range []*campaign.Campaign{gift, promo, newest, off} {
		must(t, s.InsertCampaign(ctx, c))
	}
	taken := discountVoucher(p, newest.ID, 20)
	taken.HolderID = ptr("cust_1")
	for _, v := range []*voucher.Voucher{taken, discountVoucher(p, newest.ID, 22), discountVoucher(p, newest.ID, 21), discountVoucher(p, off.ID, 23)} {
		must(t, s.InsertVoucher(ctx, v))
	}
	offers := func(project string, after *redemption.OfferKey, limit int, until ...*redemption.OfferKey) []string {
		t.Helper()
		var u *redemption.OfferKey
		if len(until) > 0 {
			u = until[0]
		}
		os, err := s.CampaignOffers(ctx, project, after, u, limit)
		must(t, err)
		return ids(os, func(o *redemption.CampaignOffer) string { return o.Campaign.ID + ":" + o.Voucher.ID })
	}
	diff(t, "offers", []string{"camp_012:v_021", "camp_002:v_006"}, offers(p, nil, 10))
	diff(t, "offers, limit 1", []string{"camp_012:v_021"}, offers(p, nil, 1))
	diff(t, "offers after camp_012", []string{"camp_002:v_006"}, offers(p, &redemption.OfferKey{CreatedAt: at(12), ID: "camp_012"}, 10))
	diff(t, "offers until camp_002", []string{"camp_012:v_021"}, offers(p, nil, 10, &redemption.OfferKey{CreatedAt: at(2), ID: "camp_002"}))
	diff(t, "offers until before camp_002", []string{"camp_012:v_021", "camp_002:v_006"}, offers(p, nil, 10, &redemption.OfferKey{CreatedAt: at(2), ID: "camp_003"}))
	// Publishing the first free one offers the next (a generated one).
	_, _, err := s.PublishVoucher(ctx, p, "v_006", "cust_2", at(14))
	must(t, err)
	diff(t, "after a publication", []string{"camp_012:v_021", "camp_002:v_b1_0000"}, offers(p, nil, 10))
	diff(t, "another project", []string{}, offers(other, nil, 10))
}

// testCampaignTotals: a campaign's totals count its redemptions (failed
// ones too) and rollbacks, sum the orders, discounts, credits and points
// of the successful redemptions and, apart, of those rolled back since,
// count its publications, all within the window; other campaigns' and
// projects' rows count nothing.
func testCampaignTotals(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	v := discountVoucher(a, "camp_1", 1)
	must(t, s.InsertVoucher(ctx, v))
	row := func(n int, result, status string, amount, discount, credits int64, campaignID string) *redemption.Redemption {
		r := ledgerRow(a, n, v, "", redemption.Spend{})
		r.Result, r.Status, r.Ledger.CampaignID = result, status, campaignID
		r.Order = &order.Order{Amount: amount, TotalAppliedDiscountAmount: discount}
		if credits != 0 {
			r.Gift = &redemption.GiftAmount{Amount: credits}
		}
		return r
	}
	rolled := row(1, redemption.ResultSuccess, redemption.StatusRolledBack, 2000, 300, 0, "camp_1")
	kept := row(2, redemption.ResultSuccess, redemption.StatusSucceeded, 1000, 100, 500, "camp_1")
	failed := row(3, redemption.ResultFailure, redemption.StatusFailed, 0, 0, 0, "camp_1")
	failed.ID, failed.Order = "rf_003", nil
	back := row(4, redemption.ResultSuccess, redemption.StatusSucceeded, 2000, 0, 0, "camp_1")
	back.ID, back.Object, back.Order = "rr_004", redemption.ObjectRollback, nil
	other := row(5, redemption.ResultSuccess, redemption.StatusSucceeded, 9000, 900, 0, "camp_2")
	late := row(50, redemption.ResultSuccess, redemption.StatusSucceeded, 7000, 700, 0, "camp_1")
	must(t, s.InsertRedemptions(ctx, rolled, kept, failed, back, other, late))
	pb := ledgerRow(b, 6, v, "", redemption.Spend{})
	pb.Ledger.CampaignID = "camp_1"
	must(t, s.InsertRedemptions(ctx, pb))
	must(t, s.InsertPublication(ctx, pubRow(a, 7, "cust_1", ptr("camp_1"), "C1")))
	failedPub := pubRow(a, 8, "cust_2", ptr("camp_1"), "C2")
	failedPub.Result = "FAILURE"
	must(t, s.InsertPublication(ctx, failedPub))
	must(t, s.InsertPublication(ctx, pubRow(a, 9, "cust_3", ptr("camp_2"), "C3")))

	all := redemption.CampaignTotals{Redemptions: 4, RedemptionsSucceeded: 3, Rollbacks: 1, RollbacksSucceeded: 1,
		OrdersAmount: 10000, DiscountedAmount: 1100, GiftAmount: 500, OrdersRolledBack: 2000, DiscountedRolledBack: 300,
		Publications: 2, PublicationsSucceeded: 1}
	got, err := s.CampaignTotals(ctx, a, "camp_1", nil, nil)
	must(t, err)
	diff(t, "all", all, got)
	upTo := redemption.CampaignTotals{Redemptions: 3, RedemptionsSucceeded: 2, Rollbacks: 1, RollbacksSucceeded: 1,
		OrdersAmount: 3000, DiscountedAmount: 400, GiftAmount: 500, OrdersRolledBack: 2000, DiscountedRolledBack: 300,
		Publications: 2, PublicationsSucceeded: 1}
	from, to := at(1), at(9)
	got, err = s.CampaignTotals(ctx, a, "camp_1", &from, &to)
	must(t, err)
	diff(t, "minutes 1 to 9", upTo, got)
	from = at(10)
	got, err = s.CampaignTotals(ctx, a, "camp_1", &from, nil)
	must(t, err)
	diff(t, "from minute 10", redemption.CampaignTotals{Redemptions: 1, RedemptionsSucceeded: 1, OrdersAmount: 7000, DiscountedAmount: 700}, got)
	got, err = s.CampaignTotals(ctx, b, "camp_1", nil, nil)
	must(t, err)
	diff(t, "project b", redemption.CampaignTotals{Redemptions: 1, RedemptionsSucceeded: 1}, got)
	got, err = s.CampaignTotals(ctx, a, "camp_missing", nil, nil)
	must(t, err)
	diff(t, "missing campaign", redemption.CampaignTotals{}, got)
}
