package memory

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// salesData holds customers and orders.
type salesData struct {
	customers       table[customer.Customer]
	customerSources index
	orders          table[order.Order]
	orderSources    index
}

func newSalesData() salesData {
	return salesData{
		customers:       newTable[customer.Customer](),
		customerSources: index{},
		orders:          newTable[order.Order](),
		orderSources:    index{},
	}
}

// putCustomer stores a copy of c and keeps the source id index.
func (d *salesData) putCustomer(u *undo, c *customer.Customer) error {
	var old *string
	if prev, ok := d.customers.get(c.ProjectID, c.ID); ok {
		old = prev.SourceID
	}
	if err := putKeyed(u, d.customerSources, c.ProjectID, c.ID, c.SourceID, old, "customer"); err != nil {
		return err
	}
	d.customers.put(u, c.ProjectID, c.ID, c.Clone())
	return nil
}

func (d *salesData) putOrder(u *undo, o *order.Order) error {
	var old *string
	if prev, ok := d.orders.get(o.ProjectID, o.ID); ok {
		old = prev.SourceID
	}
	if err := putKeyed(u, d.orderSources, o.ProjectID, o.ID, o.SourceID, old, "order"); err != nil {
		return err
	}
	d.orders.put(u, o.ProjectID, o.ID, o.Clone())
	return nil
}

// putKeyed moves the source id index entry of row id from old to key; a key
// held by another row is a duplicate and changes nothing.
func putKeyed(u *undo, ix index, projectID, id string, key, old *string, kind string) error {
	if key != nil {
		if other, ok := ix[[2]string{projectID, *key}]; ok && other != id {
			return promotype.Duplicate(kind, "Duplicated %s exists with source_id %s", kind, *key)
		}
	}
	if old != nil {
		ix.unset(u, projectID, *old)
	}
	if key != nil {
		ix.set(u, projectID, *key, id)
	}
	return nil
}

// InsertCustomer implements customer.Store.
func (s *Store) InsertCustomer(_ context.Context, c *customer.Customer) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.sales.customers.get(c.ProjectID, c.ID); ok {
			return promotype.Duplicate("customer", "Duplicated customer exists with id %s", c.ID)
		}
		return d.sales.putCustomer(u, c)
	})
}

// UpdateCustomer implements customer.Store.
func (s *Store) UpdateCustomer(_ context.Context, c *customer.Customer) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.sales.customers.get(c.ProjectID, c.ID); !ok {
			return promotype.NotFound("customer", c.ID)
		}
		return d.sales.putCustomer(u, c)
	})
}

// GetCustomer implements customer.Store.
func (s *Store) GetCustomer(_ context.Context, projectID, id string) (out *customer.Customer, err error) {
	s.read(func(d *data) {
		c, ok := d.sales.customers.get(projectID, id)
		if !ok {
			err = promotype.NotFound("customer", id)
			return
		}
		out = c.Clone()
	})
	return out, err
}

// FindCustomerBySourceID implements customer.Store.
func (s *Store) FindCustomerBySourceID(_ context.Context, projectID, sourceID string) (out *customer.Customer, err error) {
	s.read(func(d *data) {
		id, ok := d.sales.customerSources[[2]string{projectID, sourceID}]
		c, found := d.sales.customers.get(projectID, id)
		if !ok || !found {
			err = promotype.NotFound("customer", sourceID)
			return
		}
		out = c.Clone()
	})
	return out, err
}

func orderField(o *order.Order, name string) promotype.Value {
	switch name {
	case "source_id":
		return str(o.SourceID)
	case "status":
		return promotype.Value{Str: string(o.Status)}
	case "customer_id":
		return str(o.CustomerID)
	case "referrer_id":
		return str(o.ReferrerID)
	case "created_at":
		return tm(o.CreatedAt)
	case "updated_at":
		return tmPtr(o.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func orderID(o *order.Order) string { return o.ID }

// InsertOrder implements order.Store.
func (s *Store) InsertOrder(_ context.Context, o *order.Order) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.sales.orders.get(o.ProjectID, o.ID); ok {
			return promotype.Duplicate("order", "Duplicated order exists with id %s", o.ID)
		}
		return d.sales.putOrder(u, o)
	})
}

// UpdateOrder implements order.Store.
func (s *Store) UpdateOrder(_ context.Context, o *order.Order) error {
	return s.write(func(d *data, u *undo) error {
		if _, ok := d.sales.orders.get(o.ProjectID, o.ID); !ok {
			return promotype.NotFound("order", o.ID)
		}
		return d.sales.putOrder(u, o)
	})
}

// GetOrder implements order.Store.
func (s *Store) GetOrder(_ context.Context, projectID, id string) (out *order.Order, err error) {
	s.read(func(d *data) {
		o, ok := d.sales.orders.get(projectID, id)
		if !ok {
			err = promotype.NotFound("order", id)
			return
		}
		out = o.Clone()
	})
	return out, err
}

// FindOrderBySourceID implements order.Store.
func (s *Store) FindOrderBySourceID(_ context.Context, projectID, sourceID string) (out *order.Order, err error) {
	s.read(func(d *data) {
		id, ok := d.sales.orderSources[[2]string{projectID, sourceID}]
		o, found := d.sales.orders.get(projectID, id)
		if !ok || !found {
			err = promotype.NotFound("order", sourceID)
			return
		}
		out = o.Clone()
	})
	return out, err
}

// ListOrders implements order.Store.
func (s *Store) ListOrders(_ context.Context, projectID string, q promotype.Query) (out []*order.Order, total int, err error) {
	s.read(func(d *data) {
		out, total = list(d.sales.orders.rows[projectID], q, orderField, orderID, nil, (*order.Order).Clone)
	})
	return out, total, nil
}
