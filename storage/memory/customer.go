package memory

import (
	"context"

	"github.com/promoengine/promo/customer"
)

// InsertCustomer implements customer.Store.
func (s *Store) InsertCustomer(ctx context.Context, c *customer.Customer) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.customers.insert(u, c) })
}

// UpdateCustomer implements customer.Store.
func (s *Store) UpdateCustomer(ctx context.Context, c *customer.Customer) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.customers.update(u, c) })
}

// GetCustomer implements customer.Store.
func (s *Store) GetCustomer(ctx context.Context, projectID, id string) (out *customer.Customer, err error) {
	s.read(ctx, func(d *data) { out, err = d.customers.copyOf(projectID, id) })
	return out, err
}

// FindCustomerBySourceID implements customer.Store.
func (s *Store) FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (out *customer.Customer, err error) {
	s.read(ctx, func(d *data) { out, err = d.customers.find(projectID, sourceID) })
	return out, err
}
