package storagetest

import (
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

func testProjects(t *testing.T, newStore Factory) {
	s := newStore(t)
	want := &project.Project{ID: "proj_a", Name: "A", TimeZone: "Europe/Warsaw", CreatedAt: at(1)}
	must(t, s.InsertProject(ctx, want))
	got, err := s.GetProject(ctx, "proj_a")
	must(t, err)
	diff(t, "project", want, got)
	wantErr(t, "second insert", s.InsertProject(ctx, want), promotype.ErrDuplicateFound)
	_, err = s.GetProject(ctx, "proj_missing")
	wantErr(t, "missing project", err, promotype.ErrNotFound)
}

func testKeys(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	k := appKey(p, "app-1")
	must(t, s.InsertAppKey(ctx, k))
	got, err := s.GetAppKey(ctx, "app-1")
	must(t, err)
	diff(t, "app key", k, got)
	if !auth.Match("secret-app-1", got.SecretHash) {
		t.Error("stored hash does not match its secret")
	}
	wantErr(t, "duplicate app key", s.InsertAppKey(ctx, k), promotype.ErrDuplicateFound)
	_, err = s.GetAppKey(ctx, "app-missing")
	wantErr(t, "missing app key", err, promotype.ErrNotFound)

	m := &auth.ManagementKey{ID: "mgmt-1", SecretHash: auth.Hash("s"), ProjectIDs: []string{p}, CreatedAt: at(2)}
	must(t, s.InsertManagementKey(ctx, m))
	wantErr(t, "duplicate management key", s.InsertManagementKey(ctx, m), promotype.ErrDuplicateFound)
	m.ProjectIDs = append(m.ProjectIDs, "proj_b")
	must(t, s.UpdateManagementKey(ctx, m))
	gotM, err := s.GetManagementKey(ctx, "mgmt-1")
	must(t, err)
	diff(t, "management key", m, gotM)
	wantErr(t, "update missing management key", s.UpdateManagementKey(ctx, &auth.ManagementKey{ID: "nope"}), promotype.ErrNotFound)
	_, err = s.GetManagementKey(ctx, "nope")
	wantErr(t, "missing management key", err, promotype.ErrNotFound)
}

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

func testRewards(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	for n := 1; n <= 3; n++ { // one of each type
		want := rewardRow(p, n)
		must(t, s.InsertReward(ctx, want))
		got, err := s.GetReward(ctx, p, want.ID)
		must(t, err)
		diff(t, "reward "+string(want.Type), want, got)
	}
	wantErr(t, "duplicate", s.InsertReward(ctx, rewardRow(p, 1)), promotype.ErrDuplicateFound)
	r := rewardRow(p, 2)
	r.Name = "Renamed"
	r.Stock = ptr(int64(0))
	r.UpdatedAt = at(9).Ptr()
	must(t, s.UpdateReward(ctx, r))
	got, err := s.GetReward(ctx, p, r.ID)
	must(t, err)
	diff(t, "updated reward", r, got)
	must(t, s.DeleteReward(ctx, p, r.ID))
	_, err = s.GetReward(ctx, p, r.ID)
	wantErr(t, "deleted reward", err, promotype.ErrNotFound)
	wantErr(t, "update deleted", s.UpdateReward(ctx, r), promotype.ErrNotFound)
	wantErr(t, "delete deleted", s.DeleteReward(ctx, p, r.ID), promotype.ErrNotFound)
}

func testLocations(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	for _, want := range []*location.Location{circle(p, 1), polygon(p, 2)} {
		must(t, s.InsertLocation(ctx, want))
		got, err := s.GetLocation(ctx, p, want.ID)
		must(t, err)
		diff(t, "location "+want.Shape.Type, want, got)
	}
	wantErr(t, "duplicate", s.InsertLocation(ctx, circle(p, 1)), promotype.ErrDuplicateFound)
	must(t, s.DeleteLocation(ctx, p, "loc_001"))
	_, err := s.GetLocation(ctx, p, "loc_001")
	wantErr(t, "deleted location", err, promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteLocation(ctx, p, "loc_001"), promotype.ErrNotFound)
}

func ids[V any](items []*V, id func(*V) string) []string {
	out := make([]string, len(items))
	for i, v := range items {
		out[i] = id(v)
	}
	return out
}
