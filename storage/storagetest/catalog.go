package storagetest

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

func testProducts(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := product(p, 1)
	must(t, s.InsertProduct(ctx, want))

	got, err := s.GetProduct(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindProductBySourceID(ctx, p, *want.SourceID)
	must(t, err)
	diff(t, "find by source id", want, got)

	// Nullable fields round-trip as null.
	bare := &catalog.Product{ID: "prod_bare", ProjectID: p, Attributes: []string{}, Metadata: promotype.Metadata{}, CreatedAt: at(2)}
	must(t, s.InsertProduct(ctx, bare))
	got, err = s.GetProduct(ctx, p, bare.ID)
	must(t, err)
	diff(t, "bare product", bare, got)

	wantErr(t, "same id again", s.InsertProduct(ctx, product(p, 1)), promotype.ErrDuplicateFound)
	clash := product(p, 2)
	clash.SourceID = want.SourceID
	wantErr(t, "same source id", s.InsertProduct(ctx, clash), promotype.ErrDuplicateFound)
	if _, err := s.GetProduct(ctx, p, clash.ID); err == nil {
		t.Error("a refused insert left a row behind")
	}

	want.Name = ptr("Renamed")
	want.SourceID = ptr("src-new")
	want.Metadata = promotype.Metadata{"only": "this"}
	want.UpdatedAt = at(5).Ptr()
	must(t, s.UpdateProduct(ctx, want))
	got, err = s.GetProduct(ctx, p, want.ID)
	must(t, err)
	diff(t, "after update", want, got)
	_, err = s.FindProductBySourceID(ctx, p, "src-001")
	wantErr(t, "old source id after update", err, promotype.ErrNotFound)
	// The freed source id can be taken by another product.
	other := product(p, 3)
	other.SourceID = ptr("src-001")
	must(t, s.InsertProduct(ctx, other))
	bare.SourceID = ptr("src-new")
	wantErr(t, "update onto a taken source id", s.UpdateProduct(ctx, bare), promotype.ErrDuplicateFound)

	wantErr(t, "update missing", s.UpdateProduct(ctx, product(p, 99)), promotype.ErrNotFound)
	_, err = s.GetProduct(ctx, p, "prod_missing")
	wantErr(t, "get missing", err, promotype.ErrNotFound)
	_, err = s.FindProductBySourceID(ctx, p, "nope")
	wantErr(t, "find missing", err, promotype.ErrNotFound)
	wantErr(t, "delete missing", s.DeleteProduct(ctx, p, "prod_missing"), promotype.ErrNotFound)
	wantErr(t, "bin missing", s.BinProduct(ctx, p, "prod_missing", at(9)), promotype.ErrNotFound)
}

func testProductBin(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	prod := product(p, 1)
	must(t, s.InsertProduct(ctx, prod))
	must(t, s.InsertSKU(ctx, sku(p, prod.ID, 1)))
	must(t, s.InsertSKU(ctx, sku(p, prod.ID, 2)))

	must(t, s.BinProduct(ctx, p, prod.ID, at(10)))
	_, err := s.GetProduct(ctx, p, prod.ID)
	wantErr(t, "get binned product", err, promotype.ErrNotFound)
	_, err = s.FindProductBySourceID(ctx, p, *prod.SourceID)
	wantErr(t, "find binned product", err, promotype.ErrNotFound)
	_, err = s.GetSKU(ctx, p, "sku_001")
	wantErr(t, "get SKU of binned product", err, promotype.ErrNotFound)
	_, err = s.FindSKUBySourceID(ctx, p, "sku-src-002")
	wantErr(t, "find SKU of binned product", err, promotype.ErrNotFound)
	_, total, err := s.ListProducts(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	_, skuTotal, err := s.ListSKUs(ctx, p, "", promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 0 || skuTotal != 0 {
		t.Errorf("lists after bin: %d products, %d SKUs; want 0, 0", total, skuTotal)
	}
	wantErr(t, "bin twice", s.BinProduct(ctx, p, prod.ID, at(11)), promotype.ErrNotFound)

	// The source ids are free again: a new product and SKU may take them.
	again := product(p, 2)
	again.SourceID = prod.SourceID
	must(t, s.InsertProduct(ctx, again))
	must(t, s.InsertSKU(ctx, sku(p, again.ID, 3)))
	reuse := sku(p, again.ID, 4)
	reuse.SourceID = ptr("sku-src-001")
	must(t, s.InsertSKU(ctx, reuse))

	// Force delete removes the product and its SKUs, binned or not.
	must(t, s.DeleteProduct(ctx, p, again.ID))
	_, err = s.GetSKU(ctx, p, "sku_003")
	wantErr(t, "SKU of deleted product", err, promotype.ErrNotFound)
	must(t, s.DeleteProduct(ctx, p, prod.ID)) // the binned one can still be purged
	wantErr(t, "delete twice", s.DeleteProduct(ctx, p, prod.ID), promotype.ErrNotFound)
	_, skuTotal, err = s.ListSKUs(ctx, p, "", promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if skuTotal != 0 {
		t.Errorf("SKUs left after force deletes: %d", skuTotal)
	}
}

func testSKUs(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	a, b := product(p, 1), product(p, 2)
	must(t, s.InsertProduct(ctx, a))
	must(t, s.InsertProduct(ctx, b))
	want := sku(p, a.ID, 1)
	must(t, s.InsertSKU(ctx, want))
	must(t, s.InsertSKU(ctx, sku(p, a.ID, 2)))
	must(t, s.InsertSKU(ctx, sku(p, b.ID, 3)))

	got, err := s.GetSKU(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindSKUBySourceID(ctx, p, *want.SourceID)
	must(t, err)
	diff(t, "find", want, got)

	clash := sku(p, b.ID, 4)
	clash.SourceID = want.SourceID
	wantErr(t, "source id is unique per project, across products", s.InsertSKU(ctx, clash), promotype.ErrDuplicateFound)

	items, total, err := s.ListSKUs(ctx, p, a.ID, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 2 || len(items) != 2 || items[0].ID != "sku_001" || items[1].ID != "sku_002" {
		t.Errorf("SKUs of %s: total %d, items %v", a.ID, total, ids(items, func(s *catalog.SKU) string { return s.ID }))
	}
	_, total, err = s.ListSKUs(ctx, p, "", promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 3 {
		t.Errorf("all SKUs: total %d, want 3", total)
	}

	want.Price = nil
	want.Attributes = promotype.Metadata{"color": "blue", "size": float64(42)}
	want.UpdatedAt = at(7).Ptr()
	must(t, s.UpdateSKU(ctx, want))
	got, err = s.GetSKU(ctx, p, want.ID)
	must(t, err)
	diff(t, "after update", want, got)

	must(t, s.BinSKU(ctx, p, want.ID, at(8)))
	_, err = s.GetSKU(ctx, p, want.ID)
	wantErr(t, "binned SKU", err, promotype.ErrNotFound)
	wantErr(t, "update binned SKU", s.UpdateSKU(ctx, want), promotype.ErrNotFound)
	must(t, s.DeleteSKU(ctx, p, "sku_002"))
	wantErr(t, "delete missing SKU", s.DeleteSKU(ctx, p, "sku_002"), promotype.ErrNotFound)
	wantErr(t, "bin missing SKU", s.BinSKU(ctx, p, "sku_002", at(9)), promotype.ErrNotFound)
	if _, err := s.GetProduct(ctx, p, a.ID); err != nil {
		t.Errorf("deleting SKUs touched the product: %v", err)
	}
}

// testCatalogFind checks the batch reads orders join their items with.
func testCatalogFind(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	for n := 1; n <= 5; n++ {
		must(t, s.InsertProduct(ctx, product(p, n)))
		must(t, s.InsertSKU(ctx, sku(p, fmt.Sprintf("prod_%03d", n), n)))
	}
	must(t, s.InsertProduct(ctx, product(b, 6)))
	must(t, s.InsertSKU(ctx, sku(b, "prod_006", 6)))
	must(t, s.BinProduct(ctx, p, "prod_005", at(9))) // with its SKU
	must(t, s.BinSKU(ctx, p, "sku_004", at(9)))

	productIDsOf := func(ids, srcs []string) []string {
		t.Helper()
		items, err := s.FindProducts(ctx, p, ids, srcs)
		must(t, err)
		out := ids2(items, func(p *catalog.Product) string { return p.ID })
		for _, it := range items {
			if it.ID == "prod_001" {
				diff(t, "a found product is complete", product(p, 1), it)
			}
		}
		return out
	}
	skuIDsOf := func(ids, srcs []string) []string {
		t.Helper()
		items, err := s.FindSKUs(ctx, p, ids, srcs)
		must(t, err)
		for _, it := range items {
			if it.ID == "sku_002" {
				diff(t, "a found SKU is complete", sku(p, "prod_002", 2), it)
			}
		}
		return ids2(items, func(s *catalog.SKU) string { return s.ID })
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"products by id and source id, each once", productIDsOf([]string{"prod_001", "prod_002", "prod_001", "prod_nope"}, []string{"src-002", "src-003", "nope"}),
			[]string{"prod_001", "prod_002", "prod_003"}},
		{"binned and other projects' products are not found", productIDsOf([]string{"prod_005", "prod_006"}, []string{"src-005", "src-006"}), []string{}},
		{"no keys", productIDsOf(nil, nil), []string{}},
		{"only source ids", productIDsOf(nil, []string{"src-004"}), []string{"prod_004"}},
		{"SKUs by id and source id", skuIDsOf([]string{"sku_001", "sku_002"}, []string{"sku-src-002", "sku-src-003"}), []string{"sku_001", "sku_002", "sku_003"}},
		{"binned and other projects' SKUs are not found", skuIDsOf([]string{"sku_004", "sku_005", "sku_006"}, []string{"sku-src-004", "sku-src-005", "sku-src-006"}), []string{}},
		{"unstorable keys match nothing", skuIDsOf([]string{"sku_\x00"}, []string{"\xff"}), []string{}},
	}
	for _, tc := range tests {
		diff(t, tc.name, tc.want, tc.got)
	}
}

func testCollections(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	static := &catalog.Collection{ID: "pc_1", ProjectID: p, Name: "Picked", Type: catalog.CollectionStatic, CreatedAt: at(1),
		Products: []catalog.CollectionItem{{ID: "prod_1", Object: "product"}, {ID: "sku_1", ProductID: ptr("prod_1"), Object: "sku"}}}
	auto := &catalog.Collection{ID: "pc_2", ProjectID: p, Name: "Cheap", Type: catalog.CollectionAutoUpdate, CreatedAt: at(2),
		Filter: catalog.CollectionFilter{"junction": "and", "price": map[string]any{"conditions": map[string]any{"$less_than": []any{1000.0}}}}}
	for _, c := range []*catalog.Collection{static, auto} {
		must(t, s.InsertCollection(ctx, c))
		got, err := s.GetCollection(ctx, p, c.ID)
		must(t, err)
		diff(t, "collection "+c.Name, c, got)
		got, err = s.FindCollectionByName(ctx, p, c.Name)
		must(t, err)
		diff(t, "by name "+c.Name, c, got)
	}
	got, err := s.GetCollection(ctx, p, "pc_1")
	must(t, err)
	got.Products[0].ID = "changed"
	again, err := s.GetCollection(ctx, p, "pc_1")
	must(t, err)
	diff(t, "aliasing", static, again)
	wantErr(t, "same name", s.InsertCollection(ctx, &catalog.Collection{ID: "pc_3", ProjectID: p, Name: "Picked", Type: catalog.CollectionStatic, CreatedAt: at(3)}), promotype.ErrDuplicateFound)
	wantErr(t, "same id", s.InsertCollection(ctx, &catalog.Collection{ID: "pc_1", ProjectID: p, Name: "Other", Type: catalog.CollectionStatic, CreatedAt: at(3)}), promotype.ErrDuplicateFound)
	must(t, s.InsertCollection(ctx, &catalog.Collection{ID: "pc_1", ProjectID: b, Name: "Picked", Type: catalog.CollectionStatic, CreatedAt: at(3)})) // names are per project

	items, total, err := s.ListCollections(ctx, p, promotype.Query{Limit: 1, OrderBy: "created_at", Desc: true})
	must(t, err)
	diff(t, "newest first", []string{"pc_2"}, ids(items, func(c *catalog.Collection) string { return c.ID }))
	if total != 2 {
		t.Errorf("total %d", total)
	}
	items, _, err = s.ListCollections(ctx, p, promotype.Query{Limit: 10, OrderBy: "name",
		Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "type", Op: promotype.OpIs, Values: []string{catalog.CollectionStatic}}}}})
	must(t, err)
	diff(t, "static only", []string{"pc_1"}, ids(items, func(c *catalog.Collection) string { return c.ID }))

	wantErr(t, "project b reads a's", second(s.GetCollection(ctx, b, "pc_2")), promotype.ErrNotFound)
	wantErr(t, "project b deletes a's", s.DeleteCollection(ctx, b, "pc_2"), promotype.ErrNotFound)
	must(t, s.DeleteCollection(ctx, p, "pc_1"))
	wantErr(t, "deleted", second(s.GetCollection(ctx, p, "pc_1")), promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteCollection(ctx, p, "pc_1"), promotype.ErrNotFound)
	if c, err := s.GetCollection(ctx, b, "pc_1"); err != nil || c.ProjectID != b {
		t.Errorf("project b's pc_1: %v %v", c, err)
	}
	must(t, s.InsertCollection(ctx, &catalog.Collection{ID: "pc_4", ProjectID: p, Name: "Picked", Type: catalog.CollectionStatic, CreatedAt: at(4)})) // the name is free again
}
