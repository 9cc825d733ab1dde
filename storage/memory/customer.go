package memory

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// putCustomer stores a copy of c and keeps the source id index.
func (d *data) putCustomer(u *undo, c *customer.Customer) error {
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
func (s *Store) InsertCustomer(ctx context.Context, c *customer.Customer) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.customers.get(c.ProjectID, c.ID); ok {
			return promotype.Duplicate("customer", "Duplicated customer exists with id %s", c.ID)
		}
		return d.putCustomer(u, c)
	})
}

// UpdateCustomer implements customer.Store.
func (s *Store) UpdateCustomer(ctx context.Context, c *customer.Customer) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.customers.get(c.ProjectID, c.ID); !ok {
			return promotype.NotFound("customer", c.ID)
		}
		return d.putCustomer(u, c)
	})
}

// GetCustomer implements customer.Store.
func (s *Store) GetCustomer(ctx context.Context, projectID, id string) (out *customer.Customer, err error) {
	s.read(ctx, func(d *data) {
		c, ok := d.customers.get(projectID, id)
		if !ok {
			err = promotype.NotFound("customer", id)
			return
		}
		out = c.Clone()
	})
	return out, err
}

// FindCustomerBySourceID implements customer.Store.
func (s *Store) FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (out *customer.Customer, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.customerSources[[2]string{projectID, sourceID}]
		c, found := d.customers.get(projectID, id)
		if !ok || !found {
			err = promotype.NotFound("customer", sourceID)
			return
		}
		out = c.Clone()
	})
	return out, err
}
