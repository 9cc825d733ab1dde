package memory

import (
	"context"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

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
func (s *Store) InsertOrder(ctx context.Context, o *order.Order) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.orders.get(o.ProjectID, o.ID); ok {
			return promotype.Duplicate("order", "Duplicated order exists with id %s", o.ID)
		}
		return d.putOrder(u, o)
	})
}

// UpdateOrder implements order.Store.
func (s *Store) UpdateOrder(ctx context.Context, o *order.Order) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.orders.get(o.ProjectID, o.ID); !ok {
			return promotype.NotFound("order", o.ID)
		}
		return d.putOrder(u, o)
	})
}

// GetOrder implements order.Store.
func (s *Store) GetOrder(ctx context.Context, projectID, id string) (out *order.Order, err error) {
	s.read(ctx, func(d *data) {
		o, ok := d.orders.get(projectID, id)
		if !ok {
			err = promotype.NotFound("order", id)
			return
		}
		out = o.Clone()
	})
	return out, err
}

// FindOrderBySourceID implements order.Store.
func (s *Store) FindOrderBySourceID(ctx context.Context, projectID, sourceID string) (out *order.Order, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.orderSources[[2]string{projectID, sourceID}]
		o, found := d.orders.get(projectID, id)
		if !ok || !found {
			err = promotype.NotFound("order", sourceID)
			return
		}
		out = o.Clone()
	})
	return out, err
}

// ListOrders implements order.Store.
func (s *Store) ListOrders(ctx context.Context, projectID string, q promotype.Query) (out []*order.Order, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.orders.rows[projectID], q, orderField, orderID, nil, (*order.Order).Clone)
	})
	return out, total, nil
}

func (d *data) putOrder(u *undo, o *order.Order) error {
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
