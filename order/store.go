package order

import (
	"context"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// Store is the storage port of orders, scoped by project. Get and Find
// return a promotype.NotFound error for a missing row; Insert and Update
// return a duplicate_found error when another order of the project holds
// the source id. Returned values are the caller's own.
type Store interface {
	InsertOrder(ctx context.Context, o *Order) error
	UpdateOrder(ctx context.Context, o *Order) error
	GetOrder(ctx context.Context, projectID, id string) (*Order, error)
	FindOrderBySourceID(ctx context.Context, projectID, sourceID string) (*Order, error)
	ListOrders(ctx context.Context, projectID string, q promotype.Query) ([]*Order, int, error)
}

// CatalogReader is what orders read of the catalog: the products and SKUs
// their items name, in one batch per kind (catalog.Store).
type CatalogReader interface {
	FindProducts(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*catalog.Product, error)
	FindSKUs(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*catalog.SKU, error)
}

// ServiceStore is the port the order Service consumes: orders, the
// customers they name, and the catalog their items join.
type ServiceStore interface {
	Store
	customer.Store
	CatalogReader
}

// ListSpec is what order lists accept.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"source_id":   promotype.FieldString,
		"status":      promotype.FieldString,
		"customer_id": promotype.FieldString,
		"referrer_id": promotype.FieldString,
		"created_at":  promotype.FieldTime,
		"updated_at":  promotype.FieldTime,
	},
}
