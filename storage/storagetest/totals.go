package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// totalIs checks that a list's total is exact for the query q: that it
// equals want and the number of rows its pages hold, on the first page,
// on a short page (limit 1), and past the end (an empty page, where a
// store may count apart).
func totalIs[V any](t *testing.T, what string, want int, q promotype.Query,
	list func(q promotype.Query) ([]*V, int, error),
) {
	t.Helper()
	seen := 0
	for page := 0; ; page++ {
		q.Limit, q.Offset = 100, page*100
		items, total, err := list(q)
		must(t, err)
		if total != want {
			t.Errorf("%s: total on page %d = %d, want %d", what, page+1, total, want)
		}
		seen += len(items)
		if len(items) < 100 {
			break
		}
	}
	if seen != want {
		t.Errorf("%s: the pages hold %d rows, want %d", what, seen, want)
	}
	for _, c := range []struct{ limit, offset int }{{1, 0}, {1, want + 5}} {
		q.Limit, q.Offset = c.limit, c.offset
		_, total, err := list(q)
		must(t, err)
		if total != want {
			t.Errorf("%s: total with limit %d offset %d = %d, want %d", what, c.limit, c.offset, total, want)
		}
	}
}

// testListTotals checks that list totals stay exact through every way
// rows come and go: single and batch inserts (rejected rows not counted),
// bulk transactions, bins, deletes of live and binned rows, and rollbacks,
// for the project's list, a campaign's list and a filtered list. A store
// that keeps counters instead of counting rows must keep them exactly.
func testListTotals(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	inCampaign := promotype.Query{Must: []promotype.Condition{cond("campaign_id", promotype.OpIs, "camp_1")}}
	inFilter := promotype.Query{Filter: promotype.Filter{Junction: promotype.JunctionAnd,
		Conditions: []promotype.Condition{cond("campaign_id", promotype.OpIs, "camp_1")}}}
	inactive := promotype.Query{Must: []promotype.Condition{cond("active", promotype.OpIs, "false")}}
	vouchers := func(p string) func(q promotype.Query) ([]*voucher.Voucher, int, error) {
		return func(q promotype.Query) ([]*voucher.Voucher, int, error) { return s.ListVouchers(ctx, p, q) }
	}
	check := func(t *testing.T, what string, all, camp1, off int) {
		t.Helper()
		totalIs(t, what+": project", all, promotype.Query{OrderBy: "created_at", Desc: true}, vouchers(p))
		totalIs(t, what+": campaign camp_1", camp1, inCampaign, vouchers(p))
		totalIs(t, what+": campaign camp_1 as a filter", camp1, inFilter, vouchers(p))
		totalIs(t, what+": inactive", off, inactive, vouchers(p))
	}
	voucherN := func(campaignID string, n int, active bool) *voucher.Voucher {
		v := discountVoucher(p, campaignID, n)
		v.Active = active
		return v
	}

	// Another project's rows never count.
	must(t, s.InsertVoucher(ctx, discountVoucher(other, "camp_1", 900)))
	must(t, second(s.InsertBatch(ctx, batchOf(other, "camp_1", 9, 7, at(9)))))

	check(t, "empty", 0, 0, 0)
	must(t, s.InsertVoucher(ctx, voucherN("camp_1", 1, true)))
	must(t, s.InsertVoucher(ctx, voucherN("camp_2", 2, false)))
	must(t, s.InsertVoucher(ctx, voucherN("", 3, true)))
	wantErr(t, "a taken code", s.InsertVoucher(ctx, voucherN("camp_1", 1, true)), promotype.ErrDuplicateFound)
	check(t, "single inserts", 3, 1, 1)

	// A multi-row insert counts the rows it stored, not those it rejected.
	taken := voucherN("camp_1", 4, true)
	taken.Code = "CODE-001"
	rejected, err := s.InsertVouchers(ctx, []*voucher.Voucher{voucherN("camp_1", 5, true), taken, voucherN("camp_1", 6, false)})
	must(t, err)
	diff(t, "rejected", []int{1}, rejected)
	check(t, "multi-row insert", 5, 3, 2)

	b := batchOf(p, "camp_1", 1, 120, at(10))
	b.Add("v_taken", "CODE-005") // taken: rejected
	rejected, err = s.InsertBatch(ctx, b)
	must(t, err)
	diff(t, "batch rejected", []int{120}, rejected)
	check(t, "batch insert", 125, 123, 2)

	if bs, ok := s.(storage.BulkTxStore); ok {
		must(t, bs.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if _, err := tx.InsertBatch(ctx, batchOf(p, "camp_1", 2, 30, at(11))); err != nil {
				return err
			}
			// A batch with a taken code takes the store's fallback path.
			b := batchOf(p, "camp_2", 3, 4, at(12))
			b.Add("v_taken2", "CODE-006")
			rejected, err := tx.InsertBatch(ctx, b)
			if len(rejected) != 1 {
				t.Errorf("bulk batch rejected %v, want the taken code", rejected)
			}
			return err
		}))
		err := bs.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if _, err := tx.InsertBatch(ctx, batchOf(p, "camp_1", 4, 30, at(13))); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("RunInBulkTx returned %v, want the callback's error", err)
		}
	} else {
		must(t, second(s.InsertBatch(ctx, batchOf(p, "camp_1", 2, 30, at(11)))))
		must(t, second(s.InsertBatch(ctx, batchOf(p, "camp_2", 3, 4, at(12)))))
	}
	check(t, "bulk transactions", 159, 153, 2)

	// A rolled-back transaction changes no total, whatever it did.
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := tx.InsertVoucher(ctx, voucherN("camp_1", 7, false)); err != nil {
			return err
		}
		if err := tx.BinVoucher(ctx, p, "v_001", at(20)); err != nil {
			return err
		}
		if err := tx.DeleteVoucher(ctx, p, "v_002"); err != nil {
			return err
		}
		if _, err := tx.BinCampaignVouchers(ctx, p, "camp_1", at(20), 10); err != nil {
			return err
		}
		if _, err := tx.DeleteCampaignVouchers(ctx, p, "camp_2", 100); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("RunInTx returned %v, want the callback's error", err)
	}
	check(t, "rollback", 159, 153, 2)

	must(t, s.BinVoucher(ctx, p, "v_001", at(20)))
	must(t, s.BinVoucher(ctx, p, "v_006", at(20)))
	check(t, "bins", 157, 151, 1)
	must(t, s.DeleteVoucher(ctx, p, "v_001")) // in the bin: no change
	must(t, s.DeleteVoucher(ctx, p, "v_003")) // live, standalone
	check(t, "deletes", 156, 151, 1)
	// A campaign bin in a transaction (as the delete action runs it), and
	// a single bin after it in the same transaction: each counts once.
	var n1 int
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		var err error
		if n1, err = tx.BinCampaignVouchers(ctx, p, "camp_1", at(21), 50); err != nil {
			return err
		}
		return tx.BinVoucher(ctx, p, "v_002", at(21))
	}))
	if n1 < 50 || n1 > 151 {
		t.Fatalf("binned %d campaign vouchers, want 50 to 151 (a store may bin more than asked)", n1)
	}
	check(t, "campaign bin", 155-n1, 151-n1, 0)
	n2, err := s.BinCampaignVouchers(ctx, p, "camp_1", at(22), 30) // outside a transaction
	must(t, err)
	if (n2 < 1 && n1 < 151) || n1+n2 > 151 {
		t.Fatalf("binned %d more campaign vouchers after %d, want 1 to %d", n2, n1, 151-n1)
	}
	check(t, "campaign bin outside a transaction", 155-n1-n2, 151-n1-n2, 0)
	n, err := s.DeleteCampaignVouchers(ctx, p, "camp_1", 1000) // live and binned
	must(t, err)
	if n != 152 {
		t.Fatalf("deleted %d campaign vouchers, want 152", n)
	}
	check(t, "campaign delete", 4, 0, 0)
	v := voucherN("camp_1", 8, true)
	must(t, s.InsertVoucher(ctx, v))
	check(t, "insert after delete", 5, 1, 0)
	totalIs(t, "other project", 8, promotype.Query{}, vouchers(other))

	t.Run("other lists", func(t *testing.T) { testOtherListTotals(t, s, p) })
}

// testOtherListTotals checks the totals of campaigns, products, SKUs,
// orders and async actions through inserts, bins, deletes and rollbacks.
func testOtherListTotals(t *testing.T, s storage.Store, p string) {
	campaigns := func(q promotype.Query) ([]*campaign.Campaign, int, error) { return s.ListCampaigns(ctx, p, q) }
	for i := range 3 {
		must(t, s.InsertCampaign(ctx, bareCampaign(p, 10+i, campaign.DiscountCoupons)))
	}
	totalIs(t, "campaigns", 3, promotype.Query{}, campaigns)
	must(t, s.BinCampaign(ctx, p, "camp_010", at(30)))
	totalIs(t, "campaigns after a bin", 2, promotype.Query{}, campaigns)
	must(t, s.DeleteCampaign(ctx, p, "camp_010"))
	must(t, s.DeleteCampaign(ctx, p, "camp_011"))
	totalIs(t, "campaigns after deletes", 1, promotype.Query{}, campaigns)

	for i := range 4 {
		must(t, s.InsertProduct(ctx, product(p, 10+i)))
		must(t, s.InsertSKU(ctx, sku(p, fmt.Sprintf("prod_%03d", 10+i), 10+i)))
	}
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := tx.BinProduct(ctx, p, "prod_010", at(30)); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("RunInTx returned %v, want the callback's error", err)
	}
	checkCatalog := func(what string, wantProducts, wantSKUs int) {
		t.Helper()
		totalIs(t, what+": products", wantProducts, promotype.Query{}, func(q promotype.Query) ([]*catalog.Product, int, error) {
			return s.ListProducts(ctx, p, q)
		})
		totalIs(t, what+": skus", wantSKUs, promotype.Query{}, func(q promotype.Query) ([]*catalog.SKU, int, error) {
			return s.ListSKUs(ctx, p, "", q)
		})
	}
	checkCatalog("inserts and a rollback", 4, 4)
	must(t, s.BinProduct(ctx, p, "prod_010", at(30))) // bins its SKU too
	must(t, s.BinSKU(ctx, p, "sku_011", at(30)))
	checkCatalog("bins", 3, 2)
	must(t, s.DeleteProduct(ctx, p, "prod_012"))
	checkCatalog("delete", 2, 1)

	for i := range 3 {
		must(t, s.InsertOrder(ctx, orderFixture(p, 10+i)))
		must(t, s.InsertAsyncAction(ctx, action(p, 10+i, at(10+i))))
	}
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		if err := tx.InsertOrder(ctx, orderFixture(p, 20)); err != nil {
			return err
		}
		if err := tx.InsertAsyncAction(ctx, action(p, 20, at(20))); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("RunInTx returned %v, want the callback's error", err)
	}
	totalIs(t, "orders", 3, promotype.Query{}, func(q promotype.Query) ([]*order.Order, int, error) {
		return s.ListOrders(ctx, p, q)
	})
	totalIs(t, "async actions", 3, promotype.Query{}, func(q promotype.Query) ([]*async.Action, int, error) {
		return s.ListAsyncActions(ctx, p, q)
	})
}
