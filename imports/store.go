package imports

import (
	"context"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/voucher"
)

// Store is the storage port of the bulk actions: the pages of an action's
// input rows, and the multi-row inserts of imported products and SKUs.
// Every method is scoped by project.
type Store interface {
	// InsertImportPages stores pages as the pages 0..len(pages)-1 of the
	// input of action actionID.
	InsertImportPages(ctx context.Context, projectID, actionID string, pages [][]byte) error
	// GetImportPage returns page n of the input of action actionID, or a
	// not found error.
	GetImportPage(ctx context.Context, projectID, actionID string, n int) ([]byte, error)
	// DeleteImportPages removes the input pages of action actionID (none is
	// no error).
	DeleteImportPages(ctx context.Context, projectID, actionID string) error
	// InsertProducts inserts new products in one statement where the store
	// can, and returns the indexes of those it did not insert because a
	// live product of the project holds their source id (or their id is
	// taken); the others are inserted.
	InsertProducts(ctx context.Context, ps []*catalog.Product) (rejected []int, err error)
	// InsertSKUs is InsertProducts for SKUs.
	InsertSKUs(ctx context.Context, ss []*catalog.SKU) (rejected []int, err error)
	MetadataPurgeStore
}

// JobStore is what the bulk jobs work through: this port, the async
// actions, the catalog and the voucher ports.
type JobStore interface {
	Store
	async.Store
	catalog.Store
	voucher.ServiceStore
}
