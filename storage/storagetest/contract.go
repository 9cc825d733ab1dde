package storagetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

func testAliasing(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	in := product(p, 1)
	must(t, s.InsertProduct(ctx, in))
	want := product(p, 1)

	// Mutating what was passed in does not reach the store.
	in.Name = ptr("changed")
	in.Attributes[0] = "changed"
	in.Metadata["n"] = "changed"
	in.Metadata["nested"].(map[string]any)["ok"] = false
	got, err := s.GetProduct(ctx, p, want.ID)
	must(t, err)
	diff(t, "after mutating the inserted value", want, got)

	// Nor does mutating what came out.
	got.Metadata["tags"].([]any)[0] = "changed"
	*got.Price = 1
	list, _, err := s.ListProducts(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	list[0].Metadata["n"] = "changed"
	again, err := s.GetProduct(ctx, p, want.ID)
	must(t, err)
	diff(t, "after mutating returned values", want, again)
}

// seedProducts stores products 1..n with created_at at(i); every third has
// no name and every second an updated_at.
func seedProducts(t *testing.T, s storage.Store, p string, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		prod := product(p, i)
		if i%3 == 0 {
			prod.Name = nil
		}
		if i%2 == 0 {
			prod.UpdatedAt = at(100 - i).Ptr()
		}
		must(t, s.InsertProduct(ctx, prod))
	}
}

func productIDs(t *testing.T, s storage.Store, p string, q promotype.Query) ([]string, int) {
	t.Helper()
	items, total, err := s.ListProducts(ctx, p, q)
	must(t, err)
	return ids(items, func(p *catalog.Product) string { return p.ID }), total
}

func testListOrderAndPaging(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	seedProducts(t, s, p, 7)
	// Two products created at the same instant: ties break by id.
	tieA, tieB := product(p, 8), product(p, 9)
	tieA.CreatedAt, tieB.CreatedAt = at(50), at(50)
	tieA.ID, tieB.ID = "prod_tie_b", "prod_tie_a"
	must(t, s.InsertProduct(ctx, tieA))
	must(t, s.InsertProduct(ctx, tieB))

	tests := []struct {
		name      string
		q         promotype.Query
		want      []string
		wantTotal int
	}{
		{"created asc, first page", promotype.Query{Limit: 3, OrderBy: "created_at"}, []string{"prod_001", "prod_002", "prod_003"}, 9},
		{"created asc, last page", promotype.Query{Limit: 3, Offset: 6, OrderBy: "created_at"}, []string{"prod_007", "prod_tie_a", "prod_tie_b"}, 9},
		{"created desc", promotype.Query{Limit: 4, OrderBy: "created_at", Desc: true}, []string{"prod_tie_b", "prod_tie_a", "prod_007", "prod_006"}, 9},
		{"past the end", promotype.Query{Limit: 5, Offset: 20, OrderBy: "created_at"}, []string{}, 9},
		// updated_at: nulls first ascending, then 94 (prod_006), 96 (prod_004), 98 (prod_002).
		{"updated asc, nulls first", promotype.Query{Limit: 9, OrderBy: "updated_at"}, []string{"prod_001", "prod_003", "prod_005", "prod_007", "prod_tie_a", "prod_tie_b", "prod_006", "prod_004", "prod_002"}, 9},
		{"updated desc, nulls last", promotype.Query{Limit: 4, OrderBy: "updated_at", Desc: true}, []string{"prod_002", "prod_004", "prod_006", "prod_tie_b"}, 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, total := productIDs(t, s, p, tc.q)
			diff(t, "ids", tc.want, got)
			if total != tc.wantTotal {
				t.Errorf("total = %d, want %d", total, tc.wantTotal)
			}
			if l := promotype.NewList(got, total, tc.q); l.HasMore != (tc.q.Offset+len(got) < total) {
				t.Errorf("has_more = %v", l.HasMore)
			}
		})
	}
}

func cond(field string, op promotype.Op, values ...string) promotype.Condition {
	return promotype.Condition{Field: field, Op: op, Values: values}
}

func testListFilters(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	seedProducts(t, s, p, 6) // names: Product 001, 002, nil, 004, 005, nil
	odd := product(p, 7)
	odd.Name = ptr("50% off_\\ sale")
	must(t, s.InsertProduct(ctx, odd))

	and := func(cs ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 100, OrderBy: "created_at", Filter: promotype.Filter{Junction: promotype.JunctionAnd, Conditions: cs}}
	}
	or := func(cs ...promotype.Condition) promotype.Query {
		q := and(cs...)
		q.Filter.Junction = promotype.JunctionOr
		return q
	}
	tests := []struct {
		name string
		q    promotype.Query
		want []string
	}{
		{"$is", and(cond("name", promotype.OpIs, "Product 002")), []string{"prod_002"}},
		{"$is_not keeps nulls", and(cond("name", promotype.OpIsNot, "Product 002")), []string{"prod_001", "prod_003", "prod_004", "prod_005", "prod_006", "prod_007"}},
		{"$in", and(cond("name", promotype.OpIn, "Product 001", "Product 005", "none")), []string{"prod_001", "prod_005"}},
		{"$not_in keeps nulls", and(cond("name", promotype.OpNotIn, "Product 001", "Product 005")), []string{"prod_002", "prod_003", "prod_004", "prod_006", "prod_007"}},
		{"$has_value", and(cond("name", promotype.OpHasValue)), []string{"prod_001", "prod_002", "prod_004", "prod_005", "prod_007"}},
		{"$is_unknown", and(cond("name", promotype.OpIsUnknown)), []string{"prod_003", "prod_006"}},
		{"$starts_with", and(cond("name", promotype.OpStartsWith, "Product 00")), []string{"prod_001", "prod_002", "prod_004", "prod_005"}},
		{"$ends_with", and(cond("name", promotype.OpEndsWith, "4")), []string{"prod_004"}},
		{"$contains is literal (no wildcards)", and(cond("name", promotype.OpContains, "% off_\\")), []string{"prod_007"}},
		{"$contains is case-sensitive", and(cond("name", promotype.OpContains, "product")), []string{}},
		{"$not_contain keeps nulls", and(cond("name", promotype.OpNotContain, "Product")), []string{"prod_003", "prod_006", "prod_007"}},
		{"$after is strict", and(promotype.Condition{Field: "created_at", Op: promotype.OpAfter, At: at(5)}), []string{"prod_006", "prod_007"}},
		{"$before is strict", and(promotype.Condition{Field: "created_at", Op: promotype.OpBefore, At: at(2)}), []string{"prod_001"}},
		{"time $is_unknown", and(cond("updated_at", promotype.OpIsUnknown)), []string{"prod_001", "prod_003", "prod_005", "prod_007"}},
		{"time $after skips nulls", and(promotype.Condition{Field: "updated_at", Op: promotype.OpAfter, At: at(95)}), []string{"prod_002", "prod_004"}},
		{"and", and(cond("name", promotype.OpStartsWith, "Product"), promotype.Condition{Field: "created_at", Op: promotype.OpAfter, At: at(3)}), []string{"prod_004", "prod_005"}},
		{"or", or(cond("name", promotype.OpIs, "Product 001"), cond("source_id", promotype.OpIs, "src-006")), []string{"prod_001", "prod_006"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, total := productIDs(t, s, p, tc.q)
			diff(t, "ids", tc.want, got)
			if total != len(tc.want) {
				t.Errorf("total = %d, want %d", total, len(tc.want))
			}
		})
	}
	t.Run("must holds beside an or filter", func(t *testing.T) {
		q := or(cond("name", promotype.OpIs, "Product 001"), cond("name", promotype.OpIs, "Product 005"))
		q.Must = []promotype.Condition{{Field: "created_at", Op: promotype.OpBefore, At: at(3)}}
		got, _ := productIDs(t, s, p, q)
		diff(t, "ids", []string{"prod_001"}, got)
	})
}

func testProjectIsolation(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	// The same ids and source ids live side by side in two projects.
	must(t, s.InsertProduct(ctx, product(a, 1)))
	must(t, s.InsertProduct(ctx, product(b, 1)))
	must(t, s.InsertSKU(ctx, sku(a, "prod_001", 1)))
	must(t, s.InsertReward(ctx, rewardRow(a, 1)))
	must(t, s.InsertLocation(ctx, circle(a, 1)))

	must(t, s.BinProduct(ctx, b, "prod_001", at(5)))
	if _, err := s.GetProduct(ctx, a, "prod_001"); err != nil {
		t.Errorf("binning in project b touched project a: %v", err)
	}
	checks := []struct {
		name string
		err  error
	}{
		{"product by id", second(s.GetProduct(ctx, b, "prod_001"))},
		{"sku by id", second(s.GetSKU(ctx, b, "sku_001"))},
		{"sku by source", second(s.FindSKUBySourceID(ctx, b, "sku-src-001"))},
		{"reward", second(s.GetReward(ctx, b, "rew_001"))},
		{"location", second(s.GetLocation(ctx, b, "loc_001"))},
		{"update reward", s.UpdateReward(ctx, rewardRow(b, 1))},
		{"delete location", s.DeleteLocation(ctx, b, "loc_001")},
		{"delete sku", s.DeleteSKU(ctx, b, "sku_001")},
	}
	for _, c := range checks {
		wantErr(t, "project b reading a's "+c.name, c.err, promotype.ErrNotFound)
	}
	q := promotype.Query{Limit: 10, OrderBy: "created_at"}
	_, n1, _ := s.ListSKUs(ctx, b, "", q)
	_, n2, _ := s.ListRewards(ctx, b, q)
	_, n3, _ := s.ListLocations(ctx, b, q)
	if n1+n2+n3 != 0 {
		t.Errorf("project b lists see project a's rows: %d SKUs, %d rewards, %d locations", n1, n2, n3)
	}
}

func second[T any](_ T, err error) error { return err }

var errBoom = errors.New("boom")

func testTransactions(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")

	t.Run("commit is visible", func(t *testing.T) {
		must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			if err := tx.InsertProduct(ctx, product(p, 1)); err != nil {
				return err
			}
			// Read your own writes; the handle has the ports only, so no
			// nested transaction can be opened through it.
			if _, ok := tx.(storage.Store); ok {
				t.Error("the transaction handle is a storage.Store: fn could open a nested transaction")
			}
			_, err := tx.GetProduct(ctx, p, "prod_001")
			return err
		}))
		must(t, second(s.GetProduct(ctx, p, "prod_001")))
	})
	t.Run("error rolls back every write", func(t *testing.T) {
		err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			must(t, tx.InsertProduct(ctx, product(p, 2)))
			must(t, tx.InsertSKU(ctx, sku(p, "prod_001", 1)))
			must(t, tx.BinProduct(ctx, p, "prod_001", at(9)))
			must(t, tx.InsertReward(ctx, rewardRow(p, 1)))
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Fatalf("RunInTx returned %v, want the callback's error", err)
		}
		wantErr(t, "rolled-back insert", second(s.GetProduct(ctx, p, "prod_002")), promotype.ErrNotFound)
		wantErr(t, "rolled-back SKU", second(s.GetSKU(ctx, p, "sku_001")), promotype.ErrNotFound)
		wantErr(t, "rolled-back reward", second(s.GetReward(ctx, p, "rew_001")), promotype.ErrNotFound)
		must(t, second(s.GetProduct(ctx, p, "prod_001"))) // the bin was undone
		must(t, second(s.FindProductBySourceID(ctx, p, "src-001")))
	})
	t.Run("panic rolls back and goes on", func(t *testing.T) {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("the panic did not reach the caller")
				}
			}()
			_ = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				must(t, tx.InsertProduct(ctx, product(p, 3)))
				panic("boom")
			})
		}()
		wantErr(t, "insert before the panic", second(s.GetProduct(ctx, p, "prod_003")), promotype.ErrNotFound)
		must(t, s.InsertProduct(ctx, product(p, 4))) // the store still works
	})
	t.Run("a callback that ends its goroutine rolls back", func(t *testing.T) {
		done := make(chan struct{})
		go func() { // runtime.Goexit is what t.FailNow does inside a callback
			defer close(done)
			_ = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				must(t, tx.InsertProduct(ctx, product(p, 5)))
				runtime.Goexit()
				return nil
			})
		}()
		<-done
		wantErr(t, "insert before the goroutine ended", second(s.GetProduct(ctx, p, "prod_005")), promotype.ErrNotFound)
		must(t, s.InsertProduct(ctx, product(p, 6))) // the store still works
	})
}

func testConcurrency(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	const workers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				n := w*each + i + 1
				var err error
				if i%2 == 0 {
					err = s.InsertProduct(ctx, product(p, n))
				} else {
					err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
						if err := tx.InsertProduct(ctx, product(p, n)); err != nil {
							return err
						}
						_, _, err := tx.ListProducts(ctx, p, promotype.Query{Limit: 1, OrderBy: "created_at"})
						return err
					})
				}
				if err != nil {
					errs <- fmt.Errorf("product %d: %w", n, err)
				}
				if _, err := s.GetProduct(ctx, p, product(p, n).ID); err != nil {
					errs <- fmt.Errorf("read own write %d: %w", n, err)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	_, total, err := s.ListProducts(ctx, p, promotype.Query{Limit: 1, OrderBy: "created_at"})
	must(t, err)
	if total != workers*each {
		t.Errorf("total = %d, want %d", total, workers*each)
	}
}
