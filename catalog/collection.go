package catalog

import (
	"context"
	"slices"

	"github.com/promoengine/promo/promotype"
)

// Collection types.
const (
	CollectionStatic     = "STATIC"      // the products and SKUs listed
	CollectionAutoUpdate = "AUTO_UPDATE" // the products and SKUs its filter holds, as they are now
)

// MaxCollectionItems bounds the products and SKUs a STATIC collection
// lists (the hosted service documents no bound; a collection is read whole
// into every project snapshot).
const MaxCollectionItems = 1000

// CollectionItem is a product or SKU a STATIC collection lists.
type CollectionItem struct {
	ID        string  `json:"id"`
	ProductID *string `json:"product_id,omitempty"` // the SKU's product
	Object    string  `json:"object"`               // product | sku
}

// Collection is a product collection (object "products_collection"): a
// STATIC list of products and SKUs, or an AUTO_UPDATE filter over their
// fields and metadata (CollectionFilter).
type Collection struct {
	ID        string           `json:"id"`
	Name      string           `json:"name"`
	Type      string           `json:"type"`
	Filter    CollectionFilter `json:"filter,omitempty"`
	Products  []CollectionItem `json:"products,omitempty"`
	CreatedAt promotype.Time   `json:"created_at"`
	Object    string           `json:"object"`

	ProjectID string `json:"-"`
}

// Clone returns a deep copy.
func (c *Collection) Clone() *Collection {
	out := *c
	out.Filter = c.Filter.clone()
	out.Products = slices.Clone(c.Products)
	for i := range out.Products {
		out.Products[i].ProductID = promotype.ClonePtr(c.Products[i].ProductID)
	}
	return &out
}

func (c *Collection) normalize() *Collection {
	c.Object = "products_collection"
	return c
}

// Field returns the value of a filterable field of a collection.
func (c *Collection) Field(name string) promotype.Value {
	switch name {
	case "name":
		return promotype.Value{Str: c.Name}
	case "type":
		return promotype.Value{Str: c.Type}
	case "created_at":
		return promotype.Value{Time: c.CreatedAt}
	}
	return promotype.Value{Null: true}
}

// CollectionListSpec is what GET /v1/product-collections accepts.
var CollectionListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "name"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":       promotype.FieldString,
		"type":       promotype.FieldString,
		"created_at": promotype.FieldTime,
	},
}

// CollectionStore is the storage port of product collections, scoped by
// project. GetCollection returns promotype.NotFound for a missing one;
// InsertCollection returns duplicate_found when the project holds the name
// already. Returned values are the caller's own.
type CollectionStore interface {
	InsertCollection(ctx context.Context, c *Collection) error
	GetCollection(ctx context.Context, projectID, id string) (*Collection, error)
	FindCollectionByName(ctx context.Context, projectID, name string) (*Collection, error)
	ListCollections(ctx context.Context, projectID string, q promotype.Query) ([]*Collection, int, error)
	DeleteCollection(ctx context.Context, projectID, id string) error
}
