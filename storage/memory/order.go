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

// InsertOrder implements order.Store.
func (s *Store) InsertOrder(ctx context.Context, o *order.Order) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.orders.insert(u, o) })
}

// UpdateOrder implements order.Store.
func (s *Store) UpdateOrder(ctx context.Context, o *order.Order) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.orders.update(u, o) })
}

// GetOrder implements order.Store.
func (s *Store) GetOrder(ctx context.Context, projectID, id string) (out *order.Order, err error) {
	s.read(ctx, func(d *data) { out, err = d.orders.copyOf(projectID, id) })
	return out, err
}

// FindOrderBySourceID implements order.Store.
func (s *Store) FindOrderBySourceID(ctx context.Context, projectID, sourceID string) (out *order.Order, err error) {
	s.read(ctx, func(d *data) { out, err = d.orders.find(projectID, sourceID) })
	return out, err
}

// ListOrders implements order.Store.
func (s *Store) ListOrders(ctx context.Context, projectID string, q promotype.Query) (out []*order.Order, total int, err error) {
	s.read(ctx, func(d *data) { out, total = d.orders.list(projectID, q, orderField) })
	return out, total, nil
}
