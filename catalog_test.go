package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

func TestProductCreateGetUpdate(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := f.eng.Catalog()
		p := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{
			SourceID: promo.Ptr("tshirt"), Name: promo.Ptr("T-shirt"), Price: promo.Ptr[int64](2500),
			Attributes: []string{"color", "size"}, Metadata: promo.Metadata{"brand": "acme"},
			ImageURL: promo.Ptr("https://img.example/t.png"),
		}))
		want := &catalog.Product{
			ID: "prod_00000000000000000002", SourceID: promo.Ptr("tshirt"), Name: promo.Ptr("T-shirt"), Price: promo.Ptr[int64](2500),
			Attributes: []string{"color", "size"}, Metadata: promo.Metadata{"brand": "acme"}, ImageURL: promo.Ptr("https://img.example/t.png"),
			CreatedAt: at(0), Object: "product", ProjectID: f.project,
		}
		diff(t, "created", want, p)

		// GET by id and by source id, with the SKU list.
		want.SKUs = &promo.List[*catalog.SKU]{Object: "list", DataRef: "data", Data: []*catalog.SKU{}}
		diff(t, "get by id", want, must[*catalog.Product](t)(cat.GetProduct(ctx, f.project, p.ID)))
		diff(t, "get by source id", want, must[*catalog.Product](t)(cat.GetProduct(ctx, f.project, "tshirt")))

		// PUT changes only what it names; id and source_id in the body are ignored.
		f.clock.Advance(time.Minute)
		got := must[*catalog.Product](t)(cat.UpdateProduct(ctx, f.project, "tshirt", catalog.ProductParams{
			SourceID: promo.Ptr("ignored"), Price: promo.Ptr[int64](1999), Metadata: promo.Metadata{"season": "summer"},
		}))
		want.SKUs = nil
		want.Price = promo.Ptr[int64](1999)
		want.Metadata = promo.Metadata{"season": "summer"}
		want.UpdatedAt = at(time.Minute).Ptr()
		diff(t, "updated", want, got)

		// POST with the same source_id upserts.
		up := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("tshirt"), Name: promo.Ptr("Tee")}))
		if up.ID != p.ID || *up.Name != "Tee" || *up.Price != 1999 {
			t.Errorf("upsert by source_id made %+v", up)
		}
		// POST naming an id that does not exist is a 404, not a create.
		_, err := cat.CreateProduct(ctx, f.project, catalog.ProductParams{ID: promo.Ptr("prod_nope")})
		wantErr(t, err, 404, "not_found")
		list := must[*promo.List[*catalog.Product]](t)(cat.ListProducts(ctx, f.project, promo.ListParams{}))
		if list.Total != 2 { // the T-shirt and the built-in shipping product
			t.Errorf("total = %d, want 2", list.Total)
		}
	})
}

func TestProductValidation(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		tests := []struct {
			name string
			in   catalog.ProductParams
			want string
		}{
			{"http image", catalog.ProductParams{ImageURL: promo.Ptr("http://img.example/a.png")}, "Property .image_url must be an HTTPS URL of a .png or .jpg file"},
			{"gif image", catalog.ProductParams{ImageURL: promo.Ptr("https://img.example/a.gif")}, "Property .image_url must be an HTTPS URL of a .png or .jpg file"},
			{"negative price", catalog.ProductParams{Price: promo.Ptr[int64](-1)}, "Property .price must be >= 0"},
			{"empty attribute name", catalog.ProductParams{Attributes: []string{""}}, "Property .attributes[0] must NOT have fewer than 1 characters"},
		}
		for _, tc := range tests {
			_, err := f.eng.Catalog().CreateProduct(ctx, f.project, tc.in)
			if e := wantErr(t, err, 400, "invalid_payload"); e.Details != tc.want {
				t.Errorf("%s: details %q, want %q", tc.name, e.Details, tc.want)
			}
		}
		list := must[*promo.List[*catalog.Product]](t)(f.eng.Catalog().ListProducts(ctx, f.project, promo.ListParams{}))
		if list.Total != 1 {
			t.Errorf("refused creates stored something: total %d", list.Total)
		}
		for _, ok := range []string{"https://img.example/a.PNG", "https://img.example/dir/a.jpg?v=2"} {
			if _, err := f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{ImageURL: promo.Ptr(ok)}); err != nil {
				t.Errorf("image_url %s refused: %v", ok, err)
			}
		}
	})
}

func TestProductDeleteBinAndForce(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := f.eng.Catalog()
		p := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("mug"), Attributes: []string{"color"}}))
		s := must[*catalog.SKU](t)(cat.CreateSKU(ctx, f.project, "mug", catalog.SKUParams{SourceID: promo.Ptr("mug-red"), Attributes: promo.Metadata{"color": "red"}}))

		must[struct{}](t)(struct{}{}, cat.DeleteProduct(ctx, f.project, "mug", false))
		_, err := cat.GetProduct(ctx, f.project, p.ID)
		wantErr(t, err, 404, "not_found")
		_, err = cat.GetSKU(ctx, f.project, s.ID)
		wantErr(t, err, 404, "not_found")

		// The source ids are free again.
		again := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("mug"), Attributes: []string{"color"}}))
		if again.ID == p.ID {
			t.Fatal("re-create after bin returned the binned product")
		}
		must[*catalog.SKU](t)(cat.CreateSKU(ctx, f.project, "mug", catalog.SKUParams{SourceID: promo.Ptr("mug-red")}))

		must[struct{}](t)(struct{}{}, cat.DeleteProduct(ctx, f.project, again.ID, true))
		_, err = cat.GetSKU(ctx, f.project, "mug-red")
		wantErr(t, err, 404, "not_found")
		err = cat.DeleteProduct(ctx, f.project, again.ID, true)
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "product" || e.ResourceID != again.ID {
			t.Errorf("404 names %s %s", e.ResourceType, e.ResourceID)
		}

		// The built-in shipping product stays.
		wantErr(t, cat.DeleteProduct(ctx, f.project, catalog.ShippingSourceID, true), 400, "resource_protected")
		ship := must[*catalog.Product](t)(cat.GetProduct(ctx, f.project, catalog.ShippingID))
		if *ship.Name != "Shipping" || *ship.SourceID != "5h1pp1ng" {
			t.Errorf("shipping product = %+v", ship)
		}
	})
}

func TestSKUs(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := f.eng.Catalog()
		must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("shoe"), Price: promo.Ptr[int64](9000), Attributes: []string{"size", "color"}}))
		other := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("hat")}))

		s := must[*catalog.SKU](t)(cat.CreateSKU(ctx, f.project, "shoe", catalog.SKUParams{
			SourceID: promo.Ptr("shoe-42"), SKU: promo.Ptr("Shoe 42"), Price: promo.Ptr[int64](9500), Currency: promo.Ptr("EUR"),
			Attributes: promo.Metadata{"size": float64(42)},
		}))
		want := &catalog.SKU{ID: s.ID, SourceID: promo.Ptr("shoe-42"), ProductID: "prod_00000000000000000002", SKU: promo.Ptr("Shoe 42"),
			Price: promo.Ptr[int64](9500), Currency: promo.Ptr("EUR"), Attributes: promo.Metadata{"size": float64(42)},
			Metadata: promo.Metadata{}, CreatedAt: at(0), Object: "sku", ProjectID: f.project}
		diff(t, "created SKU", want, s)
		diff(t, "GET /v1/skus by source id", want, must[*catalog.SKU](t)(cat.GetSKU(ctx, f.project, "shoe-42")))

		_, err := cat.CreateSKU(ctx, f.project, "shoe", catalog.SKUParams{Attributes: promo.Metadata{"weight": 1.0}})
		if e := wantErr(t, err, 400, "invalid_payload"); e.Details == "" {
			t.Error("attribute error has no details")
		}
		_, err = cat.CreateSKU(ctx, f.project, "nope", catalog.SKUParams{})
		wantErr(t, err, 404, "not_found")

		// A SKU is addressed under its own product only.
		_, err = cat.UpdateSKU(ctx, f.project, other.ID, "shoe-42", catalog.SKUParams{Price: promo.Ptr[int64](1)})
		wantErr(t, err, 404, "not_found")
		f.clock.Advance(time.Second)
		upd := must[*catalog.SKU](t)(cat.UpdateSKU(ctx, f.project, "shoe", "shoe-42", catalog.SKUParams{Price: promo.Ptr[int64](8000), Attributes: promo.Metadata{"color": "black"}}))
		if *upd.Price != 8000 || upd.Attributes["color"] != "black" || *upd.SKU != "Shoe 42" || !upd.UpdatedAt.Equal(at(time.Second)) {
			t.Errorf("update gave %+v", upd)
		}
		// Upsert of the same source id under another product is a conflict.
		_, err = cat.CreateSKU(ctx, f.project, "hat", catalog.SKUParams{SourceID: promo.Ptr("shoe-42")})
		wantErr(t, err, 409, "duplicate_found")

		list := must[*promo.List[*catalog.SKU]](t)(cat.ListSKUs(ctx, f.project, "shoe", promo.ListParams{}))
		if list.Total != 1 || list.Data[0].ID != s.ID {
			t.Errorf("SKU list = %+v", list)
		}
		prod := must[*catalog.Product](t)(cat.GetProduct(ctx, f.project, "shoe"))
		if prod.SKUs.Total != 1 || prod.SKUs.Data[0].ID != s.ID {
			t.Errorf("product skus = %+v", prod.SKUs)
		}

		must[struct{}](t)(struct{}{}, cat.DeleteSKU(ctx, f.project, "shoe", "shoe-42", false))
		_, err = cat.GetSKU(ctx, f.project, s.ID)
		wantErr(t, err, 404, "not_found")
	})
}

func TestProductListFiltersAndPaging(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := f.eng.Catalog()
		for i := range 12 {
			f.clock.Advance(time.Hour)
			name := "Product " + string(rune('A'+i))
			must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{Name: &name}))
		}
		page := must[*promo.List[*catalog.Product]](t)(cat.ListProducts(ctx, f.project, promo.ListParams{Limit: 5, Page: 3, Order: "created_at"}))
		// 13 products: shipping first (oldest), then A..L; page 3 of 5 holds items 11-13.
		names := []string{}
		for _, p := range page.Data {
			names = append(names, *p.Name)
		}
		diff(t, "page 3", []string{"Product J", "Product K", "Product L"}, names)
		if page.Total != 13 || page.HasMore {
			t.Errorf("total %d has_more %v", page.Total, page.HasMore)
		}
		filtered := must[*promo.List[*catalog.Product]](t)(cat.ListProducts(ctx, f.project, promo.ListParams{
			Filter: promotype.Filter{Conditions: []promotype.Condition{
				{Field: "name", Op: promotype.OpStartsWith, Values: []string{"Product"}},
				{Field: "created_at", Op: promotype.OpMoreThan, Values: []string{"0"}}, // created before now
			}},
		}))
		if filtered.Total != 11 { // L was created at "now": not strictly before
			t.Errorf("filtered total = %d, want 11", filtered.Total)
		}
		_, err := cat.ListProducts(ctx, f.project, promo.ListParams{Limit: 101})
		wantErr(t, err, 400, "invalid_query_params")
	})
}
