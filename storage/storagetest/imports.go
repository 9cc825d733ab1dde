package storagetest

import (
	"context"
	"errors"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// testImports checks the imports port: the pages of an action's input
// (stored, read back, scoped by project, removed, rolled back with their
// transaction) and the multi-row inserts of products and SKUs (taken
// source ids and ids rejected, the rest stored).
func testImports(t *testing.T, newStore Factory) {
	t.Run("Pages", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		b := newProject(t, s, "proj_b")
		must(t, s.InsertImportPages(ctx, p, "aa_1", [][]byte{[]byte(`[1,2]`), []byte(`[3]`)}))
		must(t, s.InsertImportPages(ctx, b, "aa_1", [][]byte{[]byte(`["b"]`)}))
		got, err := s.GetImportPage(ctx, p, "aa_1", 1)
		must(t, err)
		diff(t, "page 1", `[3]`, string(got))
		got[0] = 'x' // the caller's own copy
		got, err = s.GetImportPage(ctx, p, "aa_1", 1)
		must(t, err)
		diff(t, "page 1 again", `[3]`, string(got))
		got, err = s.GetImportPage(ctx, b, "aa_1", 0)
		must(t, err)
		diff(t, "project b's page", `["b"]`, string(got))
		wantErr(t, "page past the end", second(s.GetImportPage(ctx, p, "aa_1", 2)), promotype.ErrNotFound)
		wantErr(t, "pages again", s.InsertImportPages(ctx, p, "aa_1", [][]byte{[]byte(`[]`)}), promotype.ErrDuplicateFound)
		must(t, s.DeleteImportPages(ctx, p, "aa_1"))
		wantErr(t, "deleted page", second(s.GetImportPage(ctx, p, "aa_1", 0)), promotype.ErrNotFound)
		must(t, second(s.GetImportPage(ctx, b, "aa_1", 0))) // b's stay
		must(t, s.DeleteImportPages(ctx, p, "aa_none"))

		boom := errors.New("boom")
		err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			must(t, tx.InsertImportPages(ctx, p, "aa_2", [][]byte{[]byte(`[1]`)}))
			must(t, tx.DeleteImportPages(ctx, b, "aa_1"))
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("tx: %v", err)
		}
		wantErr(t, "rolled back page", second(s.GetImportPage(ctx, p, "aa_2", 0)), promotype.ErrNotFound)
		must(t, second(s.GetImportPage(ctx, b, "aa_1", 0)))
	})
	t.Run("InsertProducts", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		b := newProject(t, s, "proj_b")
		must(t, s.InsertProduct(ctx, product(p, 1)))
		must(t, s.InsertProduct(ctx, product(b, 2))) // b's src-002 does not clash with a's
		binned := product(p, 3)
		must(t, s.InsertProduct(ctx, binned))
		must(t, s.BinProduct(ctx, p, binned.ID, at(9)))

		taken := product(p, 10)
		taken.SourceID = ptr("src-001")
		twice := product(p, 12)
		twice.SourceID = ptr("src-011")
		sameID := product(p, 13)
		sameID.ID = "prod_001"
		sameID.SourceID = ptr("src-new")
		noSource := product(p, 14)
		noSource.SourceID = nil
		reused := product(p, 15)
		reused.SourceID = ptr("src-003") // a binned product's source id is free
		batch := []*catalog.Product{taken, product(p, 11), twice, sameID, noSource, reused, product(p, 2)}
		rejected, err := s.InsertProducts(ctx, batch)
		must(t, err)
		diff(t, "rejected", []int{0, 2, 3}, rejected)
		for _, want := range []*catalog.Product{product(p, 11), noSource, reused, product(p, 2)} {
			got, err := s.GetProduct(ctx, p, want.ID)
			must(t, err)
			diff(t, want.ID, want, got)
		}
		got, err := s.FindProductBySourceID(ctx, p, "src-011")
		must(t, err)
		diff(t, "src-011 holder", "prod_011", got.ID)
		rejected, err = s.InsertProducts(ctx, nil)
		must(t, err)
		if len(rejected) != 0 {
			t.Errorf("empty batch rejected %v", rejected)
		}
	})
	t.Run("InsertSKUs", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		prod := product(p, 1)
		must(t, s.InsertProduct(ctx, prod))
		must(t, s.InsertSKU(ctx, sku(p, prod.ID, 1)))
		taken := sku(p, prod.ID, 5)
		taken.SourceID = sku(p, prod.ID, 1).SourceID
		rejected, err := s.InsertSKUs(ctx, []*catalog.SKU{sku(p, prod.ID, 2), taken, sku(p, prod.ID, 3)})
		must(t, err)
		diff(t, "rejected", []int{1}, rejected)
		for _, n := range []int{2, 3} {
			want := sku(p, prod.ID, n)
			got, err := s.GetSKU(ctx, p, want.ID)
			must(t, err)
			diff(t, want.ID, want, got)
		}
	})
	t.Run("InBulkTx", func(t *testing.T) {
		// In a bulk transaction a store may take another way (PostgreSQL:
		// COPY, and the multi-row insert when a key is taken): the same
		// answers.
		st := newStore(t)
		s, ok := st.(storage.BulkTxStore)
		if !ok {
			t.Skip("the store has no bulk transactions")
		}
		p := newProject(t, s, "proj_a")
		must(t, s.InsertProduct(ctx, product(p, 1)))
		must(t, s.InsertVoucher(ctx, fullVoucher(p, 1)))
		var rejected [3][]int
		must(t, s.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			var err error
			if rejected[0], err = tx.InsertProducts(ctx, []*catalog.Product{product(p, 2), product(p, 3)}); err != nil {
				return err
			}
			taken := product(p, 5)
			taken.SourceID = ptr("src-001")
			if rejected[1], err = tx.InsertProducts(ctx, []*catalog.Product{product(p, 4), taken}); err != nil {
				return err
			}
			dup := fullVoucher(p, 3)
			dup.Code = fullVoucher(p, 1).Code
			rejected[2], err = tx.InsertVouchers(ctx, []*voucher.Voucher{fullVoucher(p, 2), dup})
			if err != nil {
				return err
			}
			rejectedNone, err := tx.InsertVouchers(ctx, []*voucher.Voucher{fullVoucher(p, 4)})
			if len(rejectedNone) != 0 {
				t.Errorf("fresh voucher rejected")
			}
			return err
		}))
		diff(t, "rejected", [3][]int{nil, {1}, {1}}, rejected)
		for _, n := range []int{2, 3, 4} {
			want := product(p, n)
			got, err := s.GetProduct(ctx, p, want.ID)
			must(t, err)
			diff(t, want.ID, want, got)
		}
		for _, n := range []int{2, 4} {
			want := fullVoucher(p, n)
			got, err := s.GetVoucher(ctx, p, want.ID)
			must(t, err)
			diff(t, want.ID, want, got)
		}
		_, total := productIDs(t, s, p, promotype.Query{Limit: 10})
		if total != 4 {
			t.Errorf("product total %d", total)
		}
	})
}
