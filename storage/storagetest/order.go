package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// orderFixture is an order with a product line, a SKU line, an unpriced
// line and a free-form line, a customer, a referrer and a redemption entry.
func orderFixture(projectID string, n int) *order.Order {
	id := fmt.Sprintf("ord_%03d", n)
	return &order.Order{
		ID:                         id,
		ProjectID:                  projectID,
		SourceID:                   ptr(fmt.Sprintf("ord-src-%03d", n)),
		CreatedAt:                  at(n),
		Status:                     order.StatusPaid,
		Amount:                     7700,
		InitialAmount:              7700,
		DiscountAmount:             100,
		ItemsDiscountAmount:        200,
		TotalDiscountAmount:        300,
		TotalAmount:                7400,
		AppliedDiscountAmount:      100,
		ItemsAppliedDiscountAmount: 200,
		TotalAppliedDiscountAmount: 300,
		Items: []order.Item{
			{Object: "order_item", ID: "ordli_" + id + "_1", ProductID: "prod_001", Quantity: 2, InitialQuantity: 2, Amount: 5000, InitialAmount: 5000,
				DiscountAmount: 200, AppliedDiscountAmount: 200, SubtotalAmount: 4800, Price: ptr[int64](2500),
				Product:  &order.ItemProduct{ID: "prod_001", SourceID: ptr("src-001"), Name: ptr("Product 001"), Metadata: promotype.Metadata{"color": "red", "sizes": []any{"S", "M"}}, Price: ptr[int64](2500)},
				Metadata: promotype.Metadata{"gift": true}},
			{Object: "order_item", ID: "ordli_" + id + "_2", ProductID: "prod_001", SKUID: "sku_001", SourceID: "sku-src-001", RelatedObject: "sku",
				Quantity: 1, InitialQuantity: 1, Amount: 1700, InitialAmount: 1700, SubtotalAmount: 1700, Price: ptr[int64](1700),
				Product: &order.ItemProduct{ID: "prod_001", Override: true, Name: ptr("Renamed"), Metadata: promotype.Metadata{}, Price: ptr[int64](2500)},
				SKU:     &order.ItemSKU{ID: "sku_001", SourceID: ptr("sku-src-001"), SKU: ptr("SKU 001"), Metadata: promotype.Metadata{}, Price: ptr[int64](1700)}},
			{Object: "order_item", ID: "ordli_" + id + "_3", ProductID: catalog.ShippingID, Quantity: 1, InitialQuantity: 1, DiscountQuantity: 1,
				Product: &order.ItemProduct{ID: catalog.ShippingID, SourceID: ptr(catalog.ShippingSourceID), Name: ptr(catalog.ShippingName), Metadata: promotype.Metadata{}}},
			{Object: "order_item", ID: "ordli_" + id + "_4", Quantity: 4, InitialQuantity: 4, Amount: 1000, InitialAmount: 1000, SubtotalAmount: 1000, Price: ptr[int64](250),
				AppliedQuantity: -1, AppliedQuantityAmount: -250},
		},
		Metadata:    promotype.Metadata{"channel": "web", "nested": map[string]any{"ok": true}},
		CustomerID:  ptr("cust_001"),
		ReferrerID:  ptr("cust_002"),
		Redemptions: map[string]order.Redemption{"r_1": {Date: at(n + 1).Ptr(), RelatedObjectType: "redemption", RelatedObjectID: "r_1", Stacked: []string{"r_2", "r_3"}}},
	}
}

func testOrders(t *testing.T, newStore Factory) {
	t.Run("Lists", func(t *testing.T) { testOrderLists(t, newStore) })
	t.Run("Transactions", func(t *testing.T) { testSalesTransactions(t, newStore) })
	t.Run("CatalogFind", func(t *testing.T) { testCatalogFind(t, newStore) })
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := orderFixture(p, 1)
	must(t, s.InsertOrder(ctx, want))
	got, err := s.GetOrder(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindOrderBySourceID(ctx, p, *want.SourceID)
	must(t, err)
	diff(t, "find by source id", want, got)

	bare := &order.Order{ID: "ord_bare", ProjectID: p, Status: order.StatusCreated, Metadata: promotype.Metadata{}, CreatedAt: at(2)}
	must(t, s.InsertOrder(ctx, bare))
	got, err = s.GetOrder(ctx, p, bare.ID)
	must(t, err)
	diff(t, "bare order", bare, got)

	wantErr(t, "same id again", s.InsertOrder(ctx, orderFixture(p, 1)), promotype.ErrDuplicateFound)
	clash := orderFixture(p, 2)
	clash.SourceID = want.SourceID
	wantErr(t, "same source id", s.InsertOrder(ctx, clash), promotype.ErrDuplicateFound)
	wantErr(t, "a refused insert left a row", second(s.GetOrder(ctx, p, clash.ID)), promotype.ErrNotFound)

	want.Status = order.StatusCanceled
	want.SourceID = ptr("ord-src-new")
	want.Items = want.Items[:1]
	want.Amount, want.InitialAmount, want.TotalAmount = 4800, 4800, 4500
	want.CustomerID, want.ReferrerID = nil, nil
	want.Metadata = promotype.Metadata{"only": "this"}
	want.CreatedAt = at(-60)
	want.UpdatedAt = at(5).Ptr()
	must(t, s.UpdateOrder(ctx, want))
	got, err = s.GetOrder(ctx, p, want.ID)
	must(t, err)
	diff(t, "after update", want, got)
	wantErr(t, "old source id after update", second(s.FindOrderBySourceID(ctx, p, "ord-src-001")), promotype.ErrNotFound)
	other := orderFixture(p, 3)
	other.SourceID = ptr("ord-src-001")
	must(t, s.InsertOrder(ctx, other))
	bare.SourceID = ptr("ord-src-new")
	wantErr(t, "update onto a taken source id", s.UpdateOrder(ctx, bare), promotype.ErrDuplicateFound)
	got, err = s.GetOrder(ctx, p, bare.ID)
	must(t, err)
	if got.SourceID != nil {
		t.Errorf("a refused update changed the row: source id %q", *got.SourceID)
	}
	wantErr(t, "update missing", s.UpdateOrder(ctx, orderFixture(p, 99)), promotype.ErrNotFound)
	wantErr(t, "get missing", second(s.GetOrder(ctx, p, "ord_missing")), promotype.ErrNotFound)
	wantErr(t, "find missing", second(s.FindOrderBySourceID(ctx, p, "nope")), promotype.ErrNotFound)

	t.Run("500 items", func(t *testing.T) {
		big := orderFixture(p, 50)
		big.Items = nil
		for i := range order.MaxItems {
			it := orderFixture(p, 50).Items[i%4]
			it.ID = fmt.Sprintf("ordli_big_%d", i+1)
			big.Items = append(big.Items, it)
		}
		must(t, s.InsertOrder(ctx, big))
		got, err := s.GetOrder(ctx, p, big.ID)
		must(t, err)
		diff(t, "500-item order", big, got)
	})
	t.Run("aliasing", func(t *testing.T) {
		in := orderFixture(p, 60)
		must(t, s.InsertOrder(ctx, in))
		in.Items[0].Amount = 1
		*in.Items[0].Price = 1
		in.Items[0].Product.Metadata["sizes"].([]any)[0] = "XL"
		*in.Items[1].SKU.SKU = "changed"
		in.Metadata["nested"].(map[string]any)["ok"] = false
		in.Redemptions["r_1"].Stacked[0] = "changed"
		got, err := s.GetOrder(ctx, p, in.ID)
		must(t, err)
		diff(t, "after mutating the inserted value", orderFixture(p, 60), got)
		got.Items[0].Metadata["gift"] = false
		*got.Items[0].Product.Name = "changed"
		list, _, err := s.ListOrders(ctx, p, promotype.Query{Limit: 100, OrderBy: "created_at"})
		must(t, err)
		for _, o := range list {
			if len(o.Items) > 0 && o.Items[0].Product != nil {
				*o.Items[0].Product.Price = 3
			}
		}
		again, err := s.GetOrder(ctx, p, in.ID)
		must(t, err)
		diff(t, "after mutating returned values", orderFixture(p, 60), again)
	})
}

// testOrderLists checks order, paging and the filters of order lists.
func testOrderLists(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	statuses := []order.Status{order.StatusCreated, order.StatusPaid, order.StatusCanceled, order.StatusFulfilled}
	for n := 1; n <= 8; n++ {
		o := orderFixture(p, n)
		o.Status = statuses[n%4]
		if n%3 == 0 {
			o.CustomerID, o.SourceID = nil, nil
		}
		if n%2 == 0 {
			o.UpdatedAt = at(100 - n).Ptr()
		}
		must(t, s.InsertOrder(ctx, o))
	}
	must(t, s.InsertOrder(ctx, orderFixture(b, 20))) // another project's order is never listed
	tie := orderFixture(p, 9)
	tie.ID, tie.SourceID, tie.CreatedAt = "ord_000", ptr("tie"), at(8) // same created_at as ord_008: ties break by id
	must(t, s.InsertOrder(ctx, tie))

	and := func(cs ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 100, OrderBy: "created_at", Filter: promotype.Filter{Junction: promotype.JunctionAnd, Conditions: cs}}
	}
	tests := []struct {
		name      string
		q         promotype.Query
		want      []string
		wantTotal int
	}{
		{"created desc, page 1", promotype.Query{Limit: 3, OrderBy: "created_at", Desc: true}, []string{"ord_008", "ord_000", "ord_007"}, 9},
		{"created asc, page 2", promotype.Query{Limit: 3, Offset: 3, OrderBy: "created_at"}, []string{"ord_004", "ord_005", "ord_006"}, 9},
		{"updated asc, nulls first", promotype.Query{Limit: 9, OrderBy: "updated_at"}, []string{"ord_000", "ord_001", "ord_003", "ord_005", "ord_007", "ord_008", "ord_006", "ord_004", "ord_002"}, 9},
		{"status $is", and(cond("status", promotype.OpIs, "PAID")), []string{"ord_001", "ord_005", "ord_000"}, 3},
		{"status $in", and(cond("status", promotype.OpIn, "CANCELED", "FULFILLED")), []string{"ord_002", "ord_003", "ord_006", "ord_007"}, 4},
		{"customer $is_unknown", and(cond("customer_id", promotype.OpIsUnknown)), []string{"ord_003", "ord_006"}, 2},
		{"customer $is", and(cond("customer_id", promotype.OpIs, "cust_001"), cond("status", promotype.OpIsNot, "PAID")), []string{"ord_002", "ord_004", "ord_007", "ord_008"}, 4},
		{"referrer $has_value", and(cond("referrer_id", promotype.OpHasValue), promotype.Condition{Field: "created_at", Op: promotype.OpAfter, At: at(6)}), []string{"ord_007", "ord_000", "ord_008"}, 3},
		{"source id $starts_with", and(cond("source_id", promotype.OpStartsWith, "ord-src-00"), promotype.Condition{Field: "created_at", Op: promotype.OpBefore, At: at(3)}), []string{"ord_001", "ord_002"}, 2},
		{"updated $after", and(promotype.Condition{Field: "updated_at", Op: promotype.OpAfter, At: at(95)}), []string{"ord_002", "ord_004"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items, total, err := s.ListOrders(ctx, p, tc.q)
			must(t, err)
			diff(t, "ids", tc.want, ids(items, func(o *order.Order) string { return o.ID }))
			if total != tc.wantTotal {
				t.Errorf("total = %d, want %d", total, tc.wantTotal)
			}
		})
	}
	_, total, err := s.ListOrders(ctx, "proj_none", promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 0 {
		t.Errorf("an empty project lists %d orders", total)
	}
	items, _, err := s.ListOrders(ctx, p, promotype.Query{Limit: 1, OrderBy: "created_at"})
	must(t, err)
	diff(t, "a listed order is complete", func() *order.Order { o := orderFixture(p, 1); o.Status = statuses[1]; return o }(), items[0])
}

// testSalesTransactions checks that an order and the customer it created
// roll back together, and that a refused write inside a transaction leaves
// it usable.
func testSalesTransactions(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	must(t, s.InsertOrder(ctx, orderFixture(p, 1)))
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.InsertCustomer(ctx, customerFixture(p, 1)))
		wantErr(t, "duplicate order inside the transaction", tx.InsertOrder(ctx, orderFixture(p, 1)), promotype.ErrDuplicateFound)
		o := orderFixture(p, 2)
		must(t, tx.InsertOrder(ctx, o))
		o.Status = order.StatusFulfilled
		must(t, tx.UpdateOrder(ctx, o))
		got, err := tx.GetOrder(ctx, p, o.ID)
		must(t, err)
		if got.Status != order.StatusFulfilled {
			t.Errorf("read own write: status %s", got.Status)
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("RunInTx = %v", err)
	}
	wantErr(t, "rolled-back customer", second(s.GetCustomer(ctx, p, "cust_001")), promotype.ErrNotFound)
	wantErr(t, "rolled-back order", second(s.GetOrder(ctx, p, "ord_002")), promotype.ErrNotFound)
	wantErr(t, "rolled-back source id", second(s.FindOrderBySourceID(ctx, p, "ord-src-002")), promotype.ErrNotFound)
	must(t, s.InsertOrder(ctx, orderFixture(p, 2)))
}
