package memory

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
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

func liveCustomer(c *customer.Customer) bool { return c.BinnedAt == nil }

// ListCustomers implements customer.Store.
func (s *Store) ListCustomers(ctx context.Context, projectID string, q promotype.Query) (out []*customer.Customer, total int, err error) {
	s.read(ctx, func(d *data) { out, total = d.customers.list(projectID, q, (*customer.Customer).Field) })
	return out, total, nil
}

// BinCustomer implements customer.Store.
func (s *Store) BinCustomer(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c, err := d.customers.liveRow(projectID, id)
		if err != nil {
			return err
		}
		b := c.Clone()
		b.BinnedAt = at.Ptr()
		return d.customers.save(u, b)
	})
}

// DeleteCustomer implements customer.Store.
func (s *Store) DeleteCustomer(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.customers.remove(u, projectID, id) })
}
