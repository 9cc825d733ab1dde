package catalog

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Store is the storage port of the catalog. Every method is scoped by project.
// Get and Find return a promotype.NotFound error for a missing or binned row;
// Insert and Update return a duplicate_found error when a live row of the
// project already holds the source id. Returned values are the caller's own.
type Store interface {
	InsertProduct(ctx context.Context, p *Product) error
	UpdateProduct(ctx context.Context, p *Product) error
	GetProduct(ctx context.Context, projectID, id string) (*Product, error)
	FindProductBySourceID(ctx context.Context, projectID, sourceID string) (*Product, error)
	ListProducts(ctx context.Context, projectID string, q promotype.Query) ([]*Product, int, error)
	// BinProduct moves a product and all its SKUs to the bin.
	BinProduct(ctx context.Context, projectID, id string, at promotype.Time) error
	// DeleteProduct removes a product and all its SKUs for good.
	DeleteProduct(ctx context.Context, projectID, id string) error

	InsertSKU(ctx context.Context, s *SKU) error
	UpdateSKU(ctx context.Context, s *SKU) error
	GetSKU(ctx context.Context, projectID, id string) (*SKU, error)
	FindSKUBySourceID(ctx context.Context, projectID, sourceID string) (*SKU, error)
	// ListSKUs lists the live SKUs of one product, or of the project when productID is empty.
	ListSKUs(ctx context.Context, projectID, productID string, q promotype.Query) ([]*SKU, int, error)
	BinSKU(ctx context.Context, projectID, id string, at promotype.Time) error
	DeleteSKU(ctx context.Context, projectID, id string) error

	// FindProducts returns the live products of the project whose id is in
	// ids or whose source id is in sourceIDs, each once, in no particular
	// order; keys that match nothing are skipped. Orders read the products
	// of up to 500 items with it in one query.
	FindProducts(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*Product, error)
	// FindSKUs is FindProducts for SKUs.
	FindSKUs(ctx context.Context, projectID string, ids, sourceIDs []string) ([]*SKU, error)

	CollectionStore
}

// ListSpec is what product and SKU lists accept.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"source_id":  promotype.FieldString,
		"name":       promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}
