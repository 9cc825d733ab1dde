package promo

import (
	"context"
	"math"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// salesServices are the customer and order services.
type salesServices struct {
	customers *customer.Service
	orders    *order.Service
}

func (e *Engine) wireSales() {
	e.sales.customers = customer.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) customer.Store { return s }), e.env)
	e.sales.orders = order.NewService(e.store, storage.TxFor(e.store, func(s storage.Tx) order.ServiceStore { return s }), e.env)
	e.sales.customers.SetOrderSummary(e.customerOrderSummary)
}

// customerOrderSummary sums the orders of a customer for its summary.
func (e *Engine) customerOrderSummary(ctx context.Context, projectID, customerID string) (customer.OrderSummary, error) {
	q := promotype.Query{Limit: math.MaxInt32, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "customer_id", Op: promotype.OpIs, Values: []string{customerID}}}}
	orders, _, err := e.store.ListOrders(ctx, projectID, q)
	if err != nil {
		return customer.OrderSummary{}, err
	}
	amounts, created := make([]int64, len(orders)), make([]promotype.Time, len(orders))
	for i, o := range orders {
		amounts[i], created[i] = o.Amount, o.CreatedAt
	}
	return customer.SummarizeOrders(amounts, created), nil
}

// Customers is the customers API: upsert by id or source id, get.
func (e *Engine) Customers() *customer.Service { return e.sales.customers }

// Orders is the orders API: create (an upsert), get, update and list, with
// the calculated amounts; Orders().Resolve gives promotion validation the
// order a request describes.
func (e *Engine) Orders() *order.Service { return e.sales.orders }
