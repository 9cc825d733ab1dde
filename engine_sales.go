package promo

import (
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
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
}

// Customers is the customers API: upsert by id or source id, get.
func (e *Engine) Customers() *customer.Service { return e.sales.customers }

// Orders is the orders API: create (an upsert), get, update and list, with
// the calculated amounts; Orders().Resolve gives promotion validation the
// order a request describes.
func (e *Engine) Orders() *order.Service { return e.sales.orders }
