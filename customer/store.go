package customer

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Store is the storage port of customers, scoped by project. Get and Find
// return a promotype.NotFound error for a missing row; Insert and Update
// return a duplicate_found error when another customer of the project holds
// the source id. Returned values are the caller's own. Bound to a
// transaction, it also takes the events of the changes made in it (the
// outbox: customer.created).
type Store interface {
	promotype.EventStore

	InsertCustomer(ctx context.Context, c *Customer) error
	UpdateCustomer(ctx context.Context, c *Customer) error
	GetCustomer(ctx context.Context, projectID, id string) (*Customer, error)
	FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (*Customer, error)
}
