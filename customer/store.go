package customer

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Store is the storage port of customers, scoped by project. Get and Find
// return a promotype.NotFound error for a missing row and for a row in the
// bin; Insert and Update return a duplicate_found error when another live
// customer of the project holds the source id. Returned values are the
// caller's own. Bound to a transaction, it also takes the events of the
// changes made in it (the outbox: customer.created, customer.deleted).
type Store interface {
	promotype.EventStore
	ActivityStore

	InsertCustomer(ctx context.Context, c *Customer) error
	UpdateCustomer(ctx context.Context, c *Customer) error
	GetCustomer(ctx context.Context, projectID, id string) (*Customer, error)
	FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (*Customer, error)
	// ListCustomers returns one page of the live customers of the project
	// matching q (fields of ListSpec, and FieldSegmentID: the members of a
	// segment) and the number of matches.
	ListCustomers(ctx context.Context, projectID string, q promotype.Query) ([]*Customer, int, error)
	// BinCustomer moves the live customer id to the bin at at: it is no
	// longer read, listed or found by source id, and its source id is free
	// for a new customer. A missing or binned customer is not_found.
	BinCustomer(ctx context.Context, projectID, id string, at promotype.Time) error
	// DeleteCustomer removes the customer id (live or binned) for good.
	// None is not_found.
	DeleteCustomer(ctx context.Context, projectID, id string) error
}
