package memory

import (
	"context"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

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
	s.read(ctx, func(d *data) { out, total = d.orders.list(projectID, q, (*order.Order).Field) })
	return out, total, nil
}
