package order_test

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

func ptr[T any](v T) *T { return &v }

// The catalog of the hosted service's documented validation examples
// (the "Customer Rules Only" cart).
var (
	redTee    = &catalog.Product{ID: "prod_0a9f9ab4ab019a42d5", Name: ptr("Red T-Shirt"), Price: ptr[int64](2900), Metadata: promotype.Metadata{}}
	blueTee   = &catalog.Product{ID: "prod_0a9f9aeddb019a42db", Name: ptr("Blue T-Shirt"), Price: ptr[int64](3100), Metadata: promotype.Metadata{}}
	comics    = &catalog.Product{ID: "prod_0b7d7dfb05cbe5c616", SourceID: ptr("Books"), Name: ptr("Comic Books1"), Price: ptr[int64](2100), Metadata: promotype.Metadata{}}
	comicsSKU = &catalog.SKU{ID: "sku_0b7d7dfb090be5c619", ProductID: comics.ID, SourceID: ptr("ComicBook_1"), SKU: ptr("Comics1"), Price: ptr[int64](1700), Metadata: promotype.Metadata{}}
	vase      = &catalog.Product{ID: "prod_0b72b0bd64d198e3ae", SourceID: ptr("vase_1"), Name: ptr("Vase - Boho Vintage"), Price: ptr[int64](1500), Metadata: promotype.Metadata{}}
	iphone    = &catalog.Product{ID: "prod_0b7d7c4e814be5c502", SourceID: ptr("prod_1"), Name: ptr("Apple iPhone 12"), Price: ptr[int64](60000), Metadata: promotype.Metadata{}}
	roses     = &catalog.Product{ID: "prod_roses", SourceID: ptr("roses"), Name: ptr("Roses"), Price: ptr[int64](500), Metadata: promotype.Metadata{}}
	shipping  = &catalog.Product{ID: catalog.ShippingID, SourceID: ptr(catalog.ShippingSourceID), Name: ptr(catalog.ShippingName), Metadata: promotype.Metadata{}}
	samsung   = &catalog.Product{ID: "prod_0bae2dc5a090fd0184", SourceID: ptr("first_product"), Name: ptr("Samsung Phone 1"), Price: ptr[int64](220000), Metadata: promotype.Metadata{}}
	samsungSK = &catalog.SKU{ID: "sku_0bae3b28f610fd0da1", ProductID: samsung.ID, SourceID: ptr("first_product_sku_1"), SKU: ptr("Samsung phone 256GB"), Price: ptr[int64](210000), Metadata: promotype.Metadata{}}
)

func refCatalog() *order.Catalog {
	return order.NewCatalog(
		[]*catalog.Product{redTee, blueTee, comics, vase, iphone, roses, shipping, samsung},
		[]*catalog.SKU{comicsSKU, samsungSK},
	)
}

// refCartRequest is the order of the documented "Customer Rules Only"
// request, as sent: one quantity is the string "1".
const refCartRequest = `{"items": [
	{"product_id": "prod_0a9f9ab4ab019a42d5", "quantity": 1},
	{"product_id": "prod_0a9f9aeddb019a42db", "quantity": 1},
	{"product_id": "prod_0a9f9ab4ab019a42d5", "quantity": "1"},
	{"sku_id": "sku_0b7d7dfb090be5c619", "quantity": 1},
	{"product_id": "prod_0b72b0bd64d198e3ae", "quantity": 1},
	{"product_id": "prod_0b7d7c4e814be5c502", "quantity": 1}
], "metadata": {"payment_mean": ["credit-card"]}}`

func decodeParams(t testing.TB, body string) *order.Params {
	t.Helper()
	var in order.Params
	if err := json.Unmarshal([]byte(body), &in); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return &in
}

func calc(t testing.TB, in *order.Params, cat *order.Catalog) *order.Order {
	t.Helper()
	o, err := order.Calculate(in, cat)
	if err != nil {
		t.Fatalf("Calculate: %v", err)
	}
	return o
}
