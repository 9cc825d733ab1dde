package order_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

var cmpOpts = []cmp.Option{cmpopts.EquateEmpty()}

// productLine is the calculated line of one unit-priced product.
func productLine(p *catalog.Product, qty int64) order.Item {
	it := order.Item{Object: "order_item", ProductID: p.ID, Quantity: qty, InitialQuantity: qty,
		Product: &order.ItemProduct{ID: p.ID, SourceID: p.SourceID, Name: p.Name, Metadata: p.Metadata, Price: p.Price}}
	if p.Price != nil {
		it.Price = ptr(*p.Price)
		it.Amount = *p.Price * qty
		it.InitialAmount, it.SubtotalAmount = it.Amount, it.Amount
	}
	return it
}

func skuLine(s *catalog.SKU, p *catalog.Product, qty int64) order.Item {
	it := productLine(p, qty)
	it.SKUID = s.ID
	it.SKU = &order.ItemSKU{ID: s.ID, SourceID: s.SourceID, SKU: s.SKU, Metadata: s.Metadata, Price: s.Price}
	it.Price = ptr(*s.Price)
	it.Amount = *s.Price * qty
	it.InitialAmount, it.SubtotalAmount = it.Amount, it.Amount
	return it
}

// plain is a calculated order without discounts over items.
func plain(amount int64, items ...order.Item) *order.Order {
	return &order.Order{Object: "order", Amount: amount, InitialAmount: amount, TotalAmount: amount, Items: items, Metadata: promotype.Metadata{}}
}

// TestReferenceJoin is the documented "Customer Rules Only" cart:
// six lines joined to the catalog, a quantity sent as "1", the SKU's price
// 1700 beating its product's 2100, and amount = Σ lines = 72100 (the order
// every tier of that example starts from; also E1's, E2's and E3's cart).
func TestReferenceJoin(t *testing.T) {
	t.Parallel()
	got := calc(t, decodeParams(t, refCartRequest), refCatalog())
	want := plain(72100,
		productLine(redTee, 1), productLine(blueTee, 1), productLine(redTee, 1),
		skuLine(comicsSKU, comics, 1), productLine(vase, 1), productLine(iphone, 1))
	want.Metadata = promotype.Metadata{"payment_mean": []any{"credit-card"}}
	if d := cmp.Diff(want, got, cmpOpts...); d != "" {
		t.Errorf("calculated order (-want +got):\n%s", d)
	}
	if got.Items[3].Product.Price == nil || *got.Items[3].Product.Price != 2100 {
		t.Errorf("the SKU line's product keeps its own price 2100, got %v", got.Items[3].Product.Price)
	}
}

// TestCalculatedJSON checks the wire form of an order that is calculated
// but not stored: the hosted service's validation responses have no id, status,
// created_at or redemptions; every amount is present; customer_id and
// referrer_id are null; a line shows product and sku objects.
func TestCalculatedJSON(t *testing.T) {
	t.Parallel()
	o := calc(t, decodeParams(t, `{"items":[{"sku_id":"sku_0b7d7dfb090be5c619","quantity":"2"},{"product_id":"prod_5h1pp1ng"}]}`), refCatalog())
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"source_id":null,"updated_at":null,"amount":3400,"initial_amount":3400,"discount_amount":0,` +
		`"items_discount_amount":0,"total_discount_amount":0,"total_amount":3400,"applied_discount_amount":0,` +
		`"items_applied_discount_amount":0,"total_applied_discount_amount":0,"items":[` +
		`{"object":"order_item","product_id":"prod_0b7d7dfb05cbe5c616","sku_id":"sku_0b7d7dfb090be5c619","quantity":2,` +
		`"discount_quantity":0,"initial_quantity":2,"amount":3400,"discount_amount":0,"applied_discount_amount":0,` +
		`"applied_discount_quantity":0,"applied_quantity":0,"applied_quantity_amount":0,"initial_amount":3400,"price":1700,` +
		`"subtotal_amount":3400,"product":{"id":"prod_0b7d7dfb05cbe5c616","source_id":"Books","name":"Comic Books1","metadata":{},"price":2100},` +
		`"sku":{"id":"sku_0b7d7dfb090be5c619","source_id":"ComicBook_1","sku":"Comics1","metadata":{},"price":1700}},` +
		`{"object":"order_item","product_id":"prod_5h1pp1ng","quantity":1,"discount_quantity":0,"initial_quantity":1,` +
		`"amount":0,"discount_amount":0,"applied_discount_amount":0,"applied_discount_quantity":0,"applied_quantity":0,` +
		`"applied_quantity_amount":0,"initial_amount":0,"subtotal_amount":0,` +
		`"product":{"id":"prod_5h1pp1ng","source_id":"5h1pp1ng","name":"Shipping","metadata":{},"price":null}}],` +
		`"metadata":{},"customer_id":null,"referrer_id":null,"object":"order"}`
	if d := cmp.Diff(want, string(b)); d != "" {
		t.Errorf("JSON (-want +got):\n%s", d)
	}
}

func TestCalculateLines(t *testing.T) {
	t.Parallel()
	cat := refCatalog()
	tests := []struct {
		name string
		body string
		want *order.Order
	}{
		{"no items, no amount", `{}`, plain(0)},
		{"quantity defaults to 1, a numeric string is a count", `{"items":[{"product_id":"prod_0b72b0bd64d198e3ae"},{"product_id":"prod_0b72b0bd64d198e3ae","quantity":"3"}]}`,
			plain(6000, productLine(vase, 1), productLine(vase, 3))},
		{"the item's price beats the catalog's", `{"items":[{"sku_id":"sku_0b7d7dfb090be5c619","quantity":2,"price":1000}]}`,
			func() *order.Order {
				l := skuLine(comicsSKU, comics, 2)
				l.Price, l.Amount, l.InitialAmount, l.SubtotalAmount = ptr[int64](1000), 2000, 2000, 2000
				return plain(2000, l)
			}()},
		{"a line by source id, related object product by default", `{"items":[{"source_id":"vase_1","quantity":2}]}`,
			func() *order.Order {
				l := productLine(vase, 2)
				l.SourceID, l.RelatedObject = "vase_1", "product"
				return plain(3000, l)
			}()},
		{"a line by SKU source id", `{"items":[{"source_id":"ComicBook_1","related_object":"sku"}]}`,
			func() *order.Order {
				l := skuLine(comicsSKU, comics, 1)
				l.SourceID, l.RelatedObject = "ComicBook_1", "sku"
				return plain(1700, l)
			}()},
		{"the item's amount is taken as sent", `{"items":[{"product_id":"prod_0b72b0bd64d198e3ae","quantity":2,"amount":2500}]}`,
			func() *order.Order {
				l := productLine(vase, 2)
				l.Amount, l.InitialAmount, l.SubtotalAmount = 2500, 2500, 2500
				return plain(2500, l)
			}()},
		{"no price anywhere: price absent, amount 0", `{"items":[{"product_id":"prod_5h1pp1ng","quantity":2}]}`,
			plain(0, productLine(shipping, 2))},
		{"a free-form line", `{"items":[{"price":250,"quantity":4,"metadata":{"gift":true}}]}`,
			plain(1000, order.Item{Object: "order_item", Quantity: 4, InitialQuantity: 4, Price: ptr[int64](250), Amount: 1000, InitialAmount: 1000,
				SubtotalAmount: 1000, Metadata: promotype.Metadata{"gift": true}})},
		{"product and sku overrides", `{"items":[{"sku_id":"sku_0b7d7dfb090be5c619","product":{"name":"Comics","metadata":{"genre":"manga"},"override":true},"sku":{"price":1600,"sku":"Comics #1"}}]}`,
			func() *order.Order {
				l := skuLine(comicsSKU, comics, 1)
				l.Product.Name, l.Product.Metadata, l.Product.Override = ptr("Comics"), promotype.Metadata{"genre": "manga"}, true
				l.SKU.SKU, l.SKU.Price = ptr("Comics #1"), ptr[int64](1600)
				l.Price, l.Amount, l.InitialAmount, l.SubtotalAmount = ptr[int64](1600), 1600, 1600, 1600
				return plain(1600, l)
			}()},
		{"a product override price is the line price without a SKU", `{"items":[{"product_id":"prod_5h1pp1ng","product":{"price":990}}]}`,
			func() *order.Order {
				l := productLine(shipping, 1)
				l.Product.Price = ptr[int64](990)
				l.Price, l.Amount, l.InitialAmount, l.SubtotalAmount = ptr[int64](990), 990, 990, 990
				return plain(990, l)
			}()},
		// E6 ("Apply to order"): an amount sent is taken as
		// is even when the lines sum to less.
		{"the order amount is taken as sent", `{"amount":20050,"items":[{"product_id":"prod_0b72b0bd64d198e3ae"}]}`,
			func() *order.Order { o := plain(20050, productLine(vase, 1)); return o }()},
		{"initial amount sent", `{"amount":5000,"initial_amount":6000}`,
			&order.Order{Object: "order", Amount: 5000, InitialAmount: 6000, TotalAmount: 5000, Metadata: promotype.Metadata{}}},
		{"discounts sent", `{"discount_amount":300,"items":[{"product_id":"prod_0b72b0bd64d198e3ae","discount_amount":500}]}`,
			func() *order.Order {
				l := productLine(vase, 1)
				l.DiscountAmount, l.SubtotalAmount = 500, 1000
				return &order.Order{Object: "order", Amount: 1500, InitialAmount: 1500, DiscountAmount: 300, ItemsDiscountAmount: 500,
					TotalDiscountAmount: 800, TotalAmount: 700, Items: []order.Item{l}, Metadata: promotype.Metadata{}}
			}()},
		{"status and metadata are kept", `{"status":"PAID","metadata":{"channel":"web"}}`,
			&order.Order{Object: "order", Status: order.StatusPaid, Metadata: promotype.Metadata{"channel": "web"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := calc(t, decodeParams(t, tc.body), cat)
			if d := cmp.Diff(tc.want, got, cmpOpts...); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestCalculateRefusals(t *testing.T) {
	t.Parallel()
	cat := refCatalog()
	many := `{"items":[` + strings.Repeat(`{"product_id":"prod_0b72b0bd64d198e3ae"},`, 500) + `{"product_id":"prod_0b72b0bd64d198e3ae"}]}`
	tests := []struct {
		name, body  string
		code        int
		key, detail string
	}{
		{"501 items", many, 400, "invalid_payload", "Property .items must NOT have more than 500 items"},
		{"quantity abc", `{"items":[{"product_id":"prod_0b72b0bd64d198e3ae"},{"product_id":"prod_0b72b0bd64d198e3ae","quantity":"abc"}]}`, 400, "invalid_payload", "Property .items[1].quantity must be integer"},
		{"quantity fraction", `{"items":[{"quantity":1.5}]}`, 400, "invalid_payload", "Property .items[0].quantity must be integer"},
		{"quantity object", `{"items":[{"quantity":{}}]}`, 400, "invalid_payload", "Property .items[0].quantity must be integer"},
		{"quantity zero", `{"items":[{"quantity":0}]}`, 400, "invalid_payload", "Property .items[0].quantity must be >= 1"},
		{"quantity too big", `{"items":[{"quantity":"9007199254740992"}]}`, 400, "invalid_payload", "Property .items[0].quantity must be <= 9007199254740991"},
		{"negative price", `{"items":[{"price":-1}]}`, 400, "invalid_payload", "Property .items[0].price must be >= 0"},
		{"negative product override price", `{"items":[{"product_id":"prod_5h1pp1ng","product":{"price":-5}}]}`, 400, "invalid_payload", "Property .items[0].product.price must be >= 0"},
		{"amount too big", `{"amount":9007199254740992}`, 400, "invalid_payload", "Property .amount must be <= 9007199254740991"},
		{"price × quantity too big", `{"items":[{"price":9007199254740991,"quantity":2}]}`, 400, "invalid_payload", "Property .items[0]: price 9007199254740991 × quantity 2 is more than the largest amount 9007199254740991"},
		{"lines sum too big", `{"items":[{"amount":9007199254740991},{"amount":1}]}`, 400, "invalid_payload", "Property .items: the item amounts sum to 9007199254740992, more than the largest amount 9007199254740991"},
		{"bad status", `{"status":"NEW"}`, 400, "invalid_payload", "Property .status must be equal to one of the allowed values: CREATED, PAID, CANCELED, FULFILLED"},
		{"bad related object", `{"items":[{"source_id":"x","related_object":"bundle"}]}`, 400, "invalid_payload", "Property .items[0].related_object must be equal to one of the allowed values: product, sku"},
		{"empty product id", `{"items":[{"product_id":""}]}`, 400, "invalid_payload", "Property .items[0].product_id must NOT have fewer than 1 characters"},
		{"line discount above its amount", `{"items":[{"price":100,"discount_amount":101}]}`, 400, "invalid_payload", "Property .items[0].discount_amount must be <= the item amount 100"},
		{"order discount above the amount", `{"amount":100,"discount_amount":60,"items":[{"price":100,"discount_amount":50}]}`, 400, "invalid_payload", "Property .discount_amount: the order's discounts (110) must not exceed its amount (100)"},
		{"SKU source id of another product", `{"items":[{"source_id":"ComicBook_1","related_object":"sku","product_id":"prod_0b72b0bd64d198e3ae"}]}`, 400, "invalid_payload",
			"Property .items[0].product_id: SKU sku_0b7d7dfb090be5c619 belongs to product prod_0b7d7dfb05cbe5c616, not prod_0b72b0bd64d198e3ae"},
		{"SKU of another product", `{"items":[{"sku_id":"sku_0b7d7dfb090be5c619","product_id":"prod_0b72b0bd64d198e3ae"}]}`, 400, "invalid_payload",
			"Property .items[0].product_id: SKU sku_0b7d7dfb090be5c619 belongs to product prod_0b7d7dfb05cbe5c616, not prod_0b72b0bd64d198e3ae"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := order.Calculate(decodeParams(t, tc.body), cat)
			var e *promotype.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want a %d %s", err, tc.code, tc.key)
			}
			got := fmt.Sprintf("%d %s: %s", e.Code, e.Key, e.Details)
			if want := fmt.Sprintf("%d %s: %s", tc.code, tc.key, tc.detail); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// A nil catalog joins nothing: free-form lines still calculate.
func TestCalculateNilCatalog(t *testing.T) {
	t.Parallel()
	o := calc(t, decodeParams(t, `{"items":[{"price":5,"quantity":3}]}`), nil)
	if o.Amount != 15 || o.TotalAmount != 15 {
		t.Errorf("amount %d total %d, want 15 15", o.Amount, o.TotalAmount)
	}
	o = calc(t, decodeParams(t, `{"items":[{"product_id":"p","price":5}]}`), nil)
	if o.Items[0].ProductID != "p" || o.Amount != 5 {
		t.Errorf("a reference against a nil catalog: product_id %q amount %d, want p 5", o.Items[0].ProductID, o.Amount)
	}
}

// An item naming a product or SKU the catalog lacks is kept as sent and
// priced from the request, as the hosted service stores it.
func TestCalculateUnknownCatalogItems(t *testing.T) {
	t.Parallel()
	cat := refCatalog()
	tests := []struct {
		name, body                 string
		productID, skuID, sourceID string
		amount                     int64
	}{
		{"unknown product", `{"items":[{"product_id":"prod_nope","price":300,"quantity":2}]}`, "prod_nope", "", "", 600},
		{"unknown product source id", `{"items":[{"source_id":"nope","price":300}]}`, "", "", "nope", 300},
		{"unknown SKU", `{"items":[{"sku_id":"sku_nope","price":250}]}`, "", "sku_nope", "", 250},
		{"unknown SKU source id", `{"items":[{"source_id":"vase_1","related_object":"sku","amount":900}]}`, "", "", "vase_1", 900},
		{"no price", `{"items":[{"product_id":"prod_nope"}]}`, "prod_nope", "", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := calc(t, decodeParams(t, tc.body), cat)
			ln := o.Items[0]
			got := fmt.Sprintf("%s|%s|%s|%d|%v|%v", ln.ProductID, ln.SKUID, ln.SourceID, o.Amount, ln.Product == nil, ln.SKU == nil)
			want := fmt.Sprintf("%s|%s|%s|%d|true|true", tc.productID, tc.skuID, tc.sourceID, tc.amount)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("product_id|sku_id|source_id|amount|no product|no sku (-want +got):\n%s", diff)
			}
		})
	}
}

// The result shares nothing mutable with the request.
func TestCalculateDoesNotAliasParams(t *testing.T) {
	t.Parallel()
	in := decodeParams(t, `{"metadata":{"a":1},"items":[{"product_id":"prod_0b72b0bd64d198e3ae","price":7,"metadata":{"b":2},"product":{"price":9,"name":"n"}}]}`)
	o := calc(t, in, refCatalog())
	in.Metadata["a"] = "changed"
	in.Items[0].Metadata["b"] = "changed"
	*in.Items[0].Price = 1
	*in.Items[0].Product.Price = 1
	*in.Items[0].Product.Name = "changed"
	if o.Metadata["a"] != 1.0 || o.Items[0].Metadata["b"] != 2.0 || *o.Items[0].Price != 7 || *o.Items[0].Product.Price != 9 || *o.Items[0].Product.Name != "n" {
		t.Errorf("the calculated order changed with its params: %+v", o.Items[0])
	}
}

func TestCloneIsDeep(t *testing.T) {
	t.Parallel()
	o := calc(t, decodeParams(t, refCartRequest), refCatalog())
	o.Redemptions = map[string]order.Redemption{"r_1": {RelatedObjectType: "redemption", Stacked: []string{"r_2"}}}
	want := calc(t, decodeParams(t, refCartRequest), refCatalog())
	want.Redemptions = map[string]order.Redemption{"r_1": {RelatedObjectType: "redemption", Stacked: []string{"r_2"}}}
	c := o.Clone()
	*c.Items[0].Price = 1
	c.Items[3].SKU.Metadata["x"] = 1
	*c.Items[3].Product.Name = "changed"
	c.Items[1].Amount = 5
	c.Metadata["payment_mean"].([]any)[0] = "cash"
	c.Redemptions["r_1"].Stacked[0] = "r_9"
	if d := cmp.Diff(want, o, cmpOpts...); d != "" {
		t.Errorf("mutating a clone changed the original (-want +got):\n%s", d)
	}
}

func TestItemKeys(t *testing.T) {
	t.Parallel()
	in := decodeParams(t, `{"items":[{"product_id":"a"},{"product_id":"a"},{"sku_id":"s","product_id":"b"},{"source_id":"x"},
		{"source_id":"x","related_object":"sku"},{"source_id":"x","related_object":"product"},{"price":1},
		{"source_id":"x","related_object":"sku","product_id":"c"},{"sku_id":"s","source_id":"y"}]}`)
	want := order.Keys{ProductIDs: []string{"a", "b", "c"}, ProductSourceIDs: []string{"x"}, SKUIDs: []string{"s"}, SKUSourceIDs: []string{"x"}}
	if d := cmp.Diff(want, order.ItemKeys(in.Items)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestQuantityJSON(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{`1`: 1, `"1"`: 1, `"\u0032"`: 2, `42`: 42} {
		var q order.Quantity
		if err := json.Unmarshal([]byte(in), &q); err != nil || q.Value() != want {
			t.Errorf("Unmarshal(%s) = %d, %v; want %d", in, q.Value(), err, want)
		}
	}
	if b, _ := json.Marshal(order.Qty(3)); string(b) != "3" {
		t.Errorf("Marshal = %s, want 3", b)
	}
	var n order.Nullable[string]
	if err := json.Unmarshal([]byte(`null`), &n); err != nil || !n.Set || n.Value != nil {
		t.Errorf("null: %+v, %v", n, err)
	}
	var p order.Params
	err := json.Unmarshal([]byte(`{"source_id":5}`), &p)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "source_id" {
		t.Errorf("a number for a nullable string: %v, want a type error naming source_id", err)
	}
	if b, _ := json.Marshal(order.Some("x")); string(b) != `"x"` {
		t.Errorf("Marshal(Some) = %s", b)
	}
	if b, _ := json.Marshal(order.Null[string]()); string(b) != `null` {
		t.Errorf("Marshal(Null) = %s", b)
	}
}
