package promo_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// shop is a catalog: a T-shirt (2500) with a red SKU (2600), a mug without a
// price, and the built-in shipping product.
type shop struct {
	tee    *catalog.Product
	teeRed *catalog.SKU
	mug    *catalog.Product
}

func seedShop(t *testing.T, f fixture) shop {
	t.Helper()
	cat := f.eng.Catalog()
	tee := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("tee"), Name: promo.Ptr("T-shirt"),
		Price: promo.Ptr[int64](2500), Attributes: []string{"color"}, Metadata: promo.Metadata{"brand": "acme"}}))
	red := must[*catalog.SKU](t)(cat.CreateSKU(ctx, f.project, "tee", catalog.SKUParams{SourceID: promo.Ptr("tee-red"), SKU: promo.Ptr("Red"),
		Price: promo.Ptr[int64](2600), Attributes: promo.Metadata{"color": "red"}}))
	mug := must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promo.Ptr("mug"), Name: promo.Ptr("Mug")}))
	return shop{tee: tee, teeRed: red, mug: mug}
}

func teeLine(s shop, qty int64) order.Item {
	a := 2500 * qty
	return order.Item{Object: "order_item", ProductID: s.tee.ID, Quantity: qty, InitialQuantity: qty, Amount: a, InitialAmount: a, SubtotalAmount: a,
		Price: promo.Ptr[int64](2500), Product: &order.ItemProduct{ID: s.tee.ID, SourceID: promo.Ptr("tee"), Name: promo.Ptr("T-shirt"),
			Metadata: promo.Metadata{"brand": "acme"}, Price: promo.Ptr[int64](2500)}}
}

func TestOrderCreateGetUpdate(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := seedShop(t, f)
		orders := f.eng.Orders()
		f.clock.Advance(time.Minute)
		o := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{
			SourceID: order.Some("web-1"),
			Items: []order.ItemParams{
				{ProductID: &s.tee.ID, Quantity: order.Qty(2)},
				{SourceID: promo.Ptr("tee-red"), RelatedObject: promo.Ptr(order.RelatedSKU)},
				{SourceID: promo.Ptr("mug"), Price: promo.Ptr[int64](990), Metadata: promo.Metadata{"engraving": "Hi"}},
			},
			Metadata: promo.Metadata{"channel": "web"},
			Customer: &customer.Params{SourceID: promo.Ptr("alice"), Name: promo.Ptr("Alice")},
		}))
		alice := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "alice"))
		if *alice.Name != "Alice" || !strings.HasPrefix(alice.ID, "cust_") {
			t.Errorf("customer = %+v", alice)
		}
		want := &order.Order{
			ID: o.ID, ProjectID: f.project, SourceID: promo.Ptr("web-1"), CreatedAt: at(time.Minute), Status: order.StatusCreated,
			Amount: 8590, InitialAmount: 8590, TotalAmount: 8590,
			Items: []order.Item{
				teeLine(s, 2),
				{Object: "order_item", SourceID: "tee-red", RelatedObject: "sku", ProductID: s.tee.ID, SKUID: s.teeRed.ID, Quantity: 1, InitialQuantity: 1,
					Amount: 2600, InitialAmount: 2600, SubtotalAmount: 2600, Price: promo.Ptr[int64](2600),
					Product: teeLine(s, 1).Product,
					SKU:     &order.ItemSKU{ID: s.teeRed.ID, SourceID: promo.Ptr("tee-red"), SKU: promo.Ptr("Red"), Metadata: promo.Metadata{}, Price: promo.Ptr[int64](2600)}},
				{Object: "order_item", SourceID: "mug", RelatedObject: "product", ProductID: s.mug.ID, Quantity: 1, InitialQuantity: 1,
					Amount: 990, InitialAmount: 990, SubtotalAmount: 990, Price: promo.Ptr[int64](990), Metadata: promo.Metadata{"engraving": "Hi"},
					Product: &order.ItemProduct{ID: s.mug.ID, SourceID: promo.Ptr("mug"), Name: promo.Ptr("Mug"), Metadata: promo.Metadata{}}},
			},
			Metadata: promo.Metadata{"channel": "web"}, CustomerID: &alice.ID, Customer: &customer.Ref{ID: alice.ID, Object: "customer"},
			Redemptions: map[string]order.Redemption{}, Object: "order",
		}
		for i := range want.Items {
			want.Items[i].ID = fmt.Sprintf("ordli_%s_%d", strings.TrimPrefix(o.ID, "ord_"), i+1)
		}
		diff(t, "created", want, o)
		diff(t, "get by id", want, must[*order.Order](t)(orders.Get(ctx, f.project, o.ID)))
		diff(t, "get by source id", want, must[*order.Order](t)(orders.Get(ctx, f.project, "web-1")))

		// PUT: status only; items, amounts and customer stay; updated_at is set.
		f.clock.Advance(time.Minute)
		got := must[*order.Order](t)(orders.Update(ctx, f.project, "web-1", order.Params{Status: promo.Ptr(order.StatusPaid)}))
		want.Status, want.UpdatedAt = order.StatusPaid, at(2*time.Minute).Ptr()
		diff(t, "status update", want, got)

		// created_at and metadata are settable; an amount sent is kept as is.
		created := promotype.NewTime(t0.Add(-24 * time.Hour))
		got = must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{CreatedAt: &created, Metadata: promo.Metadata{"channel": "shop"},
			Amount: promo.Ptr[int64](9000), DiscountAmount: promo.Ptr[int64](500)}))
		want.CreatedAt, want.Metadata = created, promo.Metadata{"channel": "shop"}
		want.Amount, want.InitialAmount, want.DiscountAmount, want.TotalDiscountAmount, want.TotalAmount = 9000, 9000, 500, 500, 8500
		diff(t, "created_at, metadata, amounts", want, got)

		// New items are joined again; the amount is their sum unless sent.
		got = must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{Items: []order.ItemParams{{ProductID: &s.tee.ID, Quantity: order.Qty(3)}}}))
		l := teeLine(s, 3)
		l.ID = want.Items[0].ID
		want.Items = []order.Item{l}
		want.Amount, want.InitialAmount, want.TotalAmount = 7500, 7500, 7000
		diff(t, "new items", want, got)

		// POST with the source id upserts; with an id that does not exist is a 404.
		f.clock.Advance(time.Minute)
		got = must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{SourceID: order.Some("web-1"), Status: promo.Ptr(order.StatusFulfilled),
			CustomerID: order.Null[string](), ReferrerID: order.Some("alice")}))
		want.Status, want.UpdatedAt = order.StatusFulfilled, at(3*time.Minute).Ptr()
		want.CustomerID, want.Customer = nil, nil
		want.ReferrerID, want.Referrer = &alice.ID, &customer.Ref{ID: alice.ID, Object: "customer"}
		diff(t, "upsert by source id", want, got)
		got = must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{ID: &o.ID, SourceID: order.Null[string](), ReferrerID: order.Null[string]()}))
		want.SourceID, want.ReferrerID, want.Referrer = nil, nil, nil
		diff(t, "upsert by id, clearing source_id and referrer", want, got)
		_, err := orders.Create(ctx, f.project, order.Params{ID: promo.Ptr("ord_nope")})
		wantErr(t, err, 404, "not_found")
		_, err = orders.Update(ctx, f.project, "web-1", order.Params{}) // the source id was cleared
		wantErr(t, err, 404, "not_found")
		_, err = orders.Get(ctx, f.project, "nope")
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "order" || e.Details != "Cannot find order with id nope" {
			t.Errorf("404 = %+v", e)
		}

		// The source id is free for a new order now.
		n := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{SourceID: order.Some("web-1"), Amount: promo.Ptr[int64](100)}))
		if n.ID == o.ID || n.Amount != 100 || n.Status != order.StatusCreated || len(n.Items) != 0 {
			t.Errorf("new order = %+v", n)
		}
	})
}

// Any of the four statuses may be set by an update, from any status.
func TestOrderStatuses(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		orders := f.eng.Orders()
		o := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{Status: promo.Ptr(order.StatusPaid)}))
		if o.Status != order.StatusPaid {
			t.Errorf("created with status %s", o.Status)
		}
		for _, st := range []order.Status{order.StatusFulfilled, order.StatusCreated, order.StatusCanceled, order.StatusPaid, order.StatusCanceled} {
			f.clock.Advance(time.Second)
			got := must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{Status: &st}))
			if got.Status != st || got.UpdatedAt == nil || !got.UpdatedAt.Equal(f.clock.Now()) {
				t.Errorf("set %s: got %s, updated_at %v", st, got.Status, got.UpdatedAt)
			}
		}
		_, err := orders.Update(ctx, f.project, o.ID, order.Params{Status: promo.Ptr(order.Status("SHIPPED"))})
		wantErr(t, err, 400, "invalid_payload")
	})
}

// A refused request stores nothing: not the order, not its customer.
func TestOrderRefusalsStoreNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := seedShop(t, f)
		orders := f.eng.Orders()
		many := make([]order.ItemParams, order.MaxItems+1)
		for i := range many {
			many[i] = order.ItemParams{ProductID: &s.tee.ID}
		}
		newCustomer := &customer.Params{SourceID: promo.Ptr("bob")}
		tests := []struct {
			name string
			in   order.Params
			code int
			key  string
		}{
			{"501 items", order.Params{Items: many, Customer: newCustomer}, 400, "invalid_payload"},
			{"unknown referrer", order.Params{ReferrerID: order.Some("nobody"), Customer: newCustomer}, 404, "not_found"},
			{"discount above the amount", order.Params{Amount: promo.Ptr[int64](10), DiscountAmount: promo.Ptr[int64](11), Customer: newCustomer}, 400, "invalid_payload"},
			{"bad customer", order.Params{Customer: &customer.Params{SourceID: promo.Ptr("bob"), Birthdate: promo.Ptr("yesterday")}}, 400, "invalid_payload"},
		}
		for _, tc := range tests {
			_, err := orders.Create(ctx, f.project, tc.in)
			wantErr(t, err, tc.code, tc.key)
		}
		list := must[*promo.List[*order.Order]](t)(orders.List(ctx, f.project, promo.ListParams{}))
		if list.Total != 0 {
			t.Errorf("refused requests stored %d orders", list.Total)
		}
		_, err := f.eng.Customers().Get(ctx, f.project, "bob")
		wantErr(t, err, 404, "not_found")
		// The same on update: the order is unchanged.
		o := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{Items: []order.ItemParams{{ProductID: &s.tee.ID}}}))
		_, err = orders.Update(ctx, f.project, o.ID, order.Params{Status: promo.Ptr(order.StatusPaid), Items: many})
		wantErr(t, err, 400, "invalid_payload")
		_, err = orders.Update(ctx, f.project, o.ID, order.Params{Status: promo.Ptr(order.StatusPaid), Items: []order.ItemParams{{SKUID: &s.teeRed.ID, ProductID: promo.Ptr("prod_other")}}})
		wantErr(t, err, 400, "invalid_payload")
		diff(t, "after refused updates", o, must[*order.Order](t)(orders.Get(ctx, f.project, o.ID)))
	})
}

// Orders keep the catalog data they were calculated with: a later price
// change shows only when the items are sent again.
func TestOrderKeepsItsCatalogSnapshot(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := seedShop(t, f)
		orders := f.eng.Orders()
		o := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{Items: []order.ItemParams{{SKUID: &s.teeRed.ID, Quantity: order.Qty(2)}}}))
		must[*catalog.SKU](t)(f.eng.Catalog().UpdateSKU(ctx, f.project, "tee", "tee-red", catalog.SKUParams{Price: promo.Ptr[int64](3000)}))
		got := must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{Status: promo.Ptr(order.StatusPaid)}))
		if got.Amount != 5200 || *got.Items[0].Price != 2600 || *got.Items[0].SKU.Price != 2600 {
			t.Errorf("an update without items changed the lines: %+v", got.Items[0])
		}
		// Even a deleted product leaves the order readable and updatable.
		must[struct{}](t)(struct{}{}, f.eng.Catalog().DeleteProduct(ctx, f.project, "tee", true))
		must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{Status: promo.Ptr(order.StatusFulfilled)}))
		// New items naming the deleted SKU are kept as sent, without its
		// catalog data.
		got = must[*order.Order](t)(orders.Update(ctx, f.project, o.ID, order.Params{Items: []order.ItemParams{{SKUID: &s.teeRed.ID, Price: promo.Ptr[int64](100)}}}))
		if ln := got.Items[0]; ln.SKUID != s.teeRed.ID || ln.SKU != nil || got.Amount != 100 {
			t.Errorf("item of a deleted SKU: %+v, amount %d", ln, got.Amount)
		}
	})
}

func TestOrderList(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		orders := f.eng.Orders()
		alice := must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("alice")}))
		var ids []string
		for i, st := range []order.Status{order.StatusCreated, order.StatusPaid, order.StatusPaid, order.StatusCanceled, order.StatusFulfilled} {
			f.clock.Advance(time.Hour)
			in := order.Params{Status: &st, SourceID: order.Some(fmt.Sprintf("o-%d", i))}
			if i%2 == 0 {
				in.CustomerID = order.Some("alice")
			}
			ids = append(ids, must[*order.Order](t)(orders.Create(ctx, f.project, in)).ID)
		}
		list := func(p promo.ListParams) []string {
			t.Helper()
			l := must[*promo.List[*order.Order]](t)(orders.List(ctx, f.project, p))
			out := []string{}
			for _, o := range l.Data {
				out = append(out, o.ID)
			}
			return out
		}
		cond := func(field string, op promotype.Op, v ...string) promotype.Filter {
			return promotype.Filter{Conditions: []promotype.Condition{{Field: field, Op: op, Values: v}}}
		}
		diff(t, "default: newest first", []string{ids[4], ids[3], ids[2], ids[1], ids[0]}, list(promo.ListParams{}))
		diff(t, "oldest first, page 2", []string{ids[2], ids[3]}, list(promo.ListParams{Order: "created_at", Limit: 2, Page: 2}))
		diff(t, "status", []string{ids[1], ids[2]}, list(promo.ListParams{Order: "created_at", Filter: cond("status", promotype.OpIs, "PAID")}))
		diff(t, "customer", []string{ids[0], ids[2], ids[4]}, list(promo.ListParams{Order: "created_at", Filter: cond("customer_id", promotype.OpIs, alice.ID)}))
		diff(t, "created before 3 h", []string{ids[0], ids[1]}, list(promo.ListParams{Order: "created_at",
			Filter: cond("created_at", promotype.OpBefore, at(3*time.Hour).Format(promotype.TimeLayout))}))
		end := at(2 * time.Hour)
		diff(t, "end_date", []string{ids[1], ids[0]}, list(promo.ListParams{EndDate: &end}))
		_, err := orders.List(ctx, f.project, promo.ListParams{Order: "amount"})
		wantErr(t, err, 400, "invalid_query_params")
		_, err = orders.List(ctx, f.project, promo.ListParams{Filter: cond("amount", promotype.OpIs, "1")})
		wantErr(t, err, 400, "invalid_query_params")
	})
}

// Point 3: a validation or redemption request naming a stored order by
// source id (or id) gets the stored order, not the request's data.
func TestOrderResolve(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		s := seedShop(t, f)
		orders := f.eng.Orders()
		stored := must[*order.Order](t)(orders.Create(ctx, f.project, order.Params{SourceID: order.Some("cart-1"),
			Items: []order.ItemParams{{ProductID: &s.tee.ID, Quantity: order.Qty(2)}}, Metadata: promo.Metadata{"a": "stored"}}))
		request := order.Params{SourceID: order.Some("cart-1"), Amount: promo.Ptr[int64](1),
			Items: []order.ItemParams{{SKUID: &s.teeRed.ID, Quantity: order.Qty(9)}}, Metadata: promo.Metadata{"a": "request"}}
		got, isStored, err := orders.Resolve(ctx, f.project, request)
		if err != nil || !isStored {
			t.Fatalf("Resolve = %v, stored %v", err, isStored)
		}
		diff(t, "by source id", stored, got)
		got, isStored, err = orders.Resolve(ctx, f.project, order.Params{ID: &stored.ID, Items: []order.ItemParams{{ProductID: promo.Ptr("prod_nope")}}})
		if err != nil || !isStored {
			t.Fatalf("Resolve by id = %v, stored %v", err, isStored)
		}
		diff(t, "by id", stored, got)
		_, _, err = orders.Resolve(ctx, f.project, order.Params{ID: promo.Ptr("ord_nope")})
		wantErr(t, err, 404, "not_found")

		// An unknown source id: the request is calculated, and not stored.
		request.SourceID = order.Some("cart-2")
		got, isStored, err = orders.Resolve(ctx, f.project, request)
		if err != nil || isStored {
			t.Fatalf("Resolve new = %v, stored %v", err, isStored)
		}
		if got.ID != "" || *got.SourceID != "cart-2" || got.Amount != 1 || got.Items[0].Amount != 23400 || got.Items[0].SKUID != s.teeRed.ID {
			t.Errorf("calculated request = %+v", got)
		}
		_, err = orders.Get(ctx, f.project, "cart-2")
		wantErr(t, err, 404, "not_found")
		got, _, err = orders.Resolve(ctx, f.project, order.Params{Items: []order.ItemParams{{ProductID: promo.Ptr("prod_nope")}}})
		if err != nil || got.Items[0].ProductID != "prod_nope" {
			t.Errorf("Resolve of an unknown product: %v, %+v", err, got)
		}
	})
}

// The documented cart of the discount examples (E1–E5) through
// the Go API on each store: six lines, a SKU priced below its product,
// quantities as numbers and as a string, amount 72100.
func TestOrderReferenceCart(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cat := f.eng.Catalog()
		mk := func(src, name string, price int64) *catalog.Product {
			return must[*catalog.Product](t)(cat.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: &src, Name: &name, Price: &price}))
		}
		red, blue := mk("red", "Red T-Shirt", 2900), mk("blue", "Blue T-Shirt", 3100)
		mk("Books", "Comic Books1", 2100)
		comics := must[*catalog.SKU](t)(cat.CreateSKU(ctx, f.project, "Books", catalog.SKUParams{SourceID: promo.Ptr("ComicBook_1"), SKU: promo.Ptr("Comics1"), Price: promo.Ptr[int64](1700)}))
		vase, iphone := mk("vase_1", "Vase - Boho Vintage", 1500), mk("prod_1", "Apple iPhone 12", 60000)
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, order.Params{Items: []order.ItemParams{
			{ProductID: &red.ID, Quantity: order.Qty(1)}, {ProductID: &blue.ID, Quantity: order.Qty(1)}, {ProductID: &red.ID, Quantity: order.Qty(1)},
			{SKUID: &comics.ID, Quantity: order.Qty(1)}, {ProductID: &vase.ID, Quantity: order.Qty(1)}, {ProductID: &iphone.ID, Quantity: order.Qty(1)},
		}}))
		if o.Amount != 72100 || o.InitialAmount != 72100 || o.TotalAmount != 72100 || o.TotalDiscountAmount != 0 {
			t.Errorf("amounts %d %d %d %d, want 72100 72100 72100 0", o.Amount, o.InitialAmount, o.TotalAmount, o.TotalDiscountAmount)
		}
		sk := o.Items[3]
		if *sk.Price != 1700 || *sk.Product.Price != 2100 || *sk.SKU.Price != 1700 || sk.ProductID != comics.ProductID || *sk.Product.SourceID != "Books" {
			t.Errorf("SKU line = %+v (product %+v, sku %+v)", sk, sk.Product, sk.SKU)
		}
	})
}

// BenchmarkOrderCreateGet50 creates a 50-item order (a batch join of 25
// products and 25 SKUs, the calculation and an insert in one transaction)
// and reads it back by id, through the Go API on each store.
func BenchmarkOrderCreateGet50(b *testing.B) {
	for name, newStore := range storeFactories {
		b.Run(name, func(b *testing.B) {
			eng, err := promo.New(newStore(b))
			if err != nil {
				b.Fatal(err)
			}
			p := must[*promo.Project](b)(eng.Projects().Create(ctx, promo.ProjectParams{Name: "bench"}))
			var items []order.ItemParams
			for i := range 25 {
				prod := must[*catalog.Product](b)(eng.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{SourceID: promo.Ptr(fmt.Sprintf("p-%d", i)),
					Name: promo.Ptr("Product"), Price: promo.Ptr(int64(1000 + i)), Attributes: []string{"size"}, Metadata: promo.Metadata{"brand": "acme"}}))
				sku := must[*catalog.SKU](b)(eng.Catalog().CreateSKU(ctx, p.ID, prod.ID, catalog.SKUParams{SourceID: promo.Ptr(fmt.Sprintf("s-%d", i)),
					Price: promo.Ptr(int64(900 + i)), Attributes: promo.Metadata{"size": "M"}}))
				items = append(items, order.ItemParams{ProductID: &prod.ID, Quantity: order.Qty(2)}, order.ItemParams{SKUID: &sku.ID})
			}
			in := order.Params{Items: items, Metadata: promo.Metadata{"channel": "web"}}
			b.ReportAllocs()
			for b.Loop() {
				o, err := eng.Orders().Create(ctx, p.ID, in)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := eng.Orders().Get(ctx, p.ID, o.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
