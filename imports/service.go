package imports

import (
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Services are the domain services the bulk jobs apply rows through.
type Services struct {
	Catalog   *catalog.Service
	Customers *customer.Service
	Vouchers  *voucher.Service
	Orders    *order.Service
	Campaigns *campaign.Service
	// Schemas, if set, checks metadata with one schema read per chunk
	// (else each row goes through promotype.Env.CheckMeta).
	Schemas *project.MetadataSchemaService
}

// Service starts the bulk async actions (imports, bulk and metadata
// updates) and carries them out: NewService registers their workers.
type Service struct {
	store   JobStore
	tx      promotype.TxFunc[JobStore]
	bulk    promotype.TxFunc[JobStore]
	env     promotype.Env
	actions *async.Service
	svc     Services
}

// NewService returns the bulk actions service and registers its workers
// with reg. tx runs its transactions; bulk runs the chunks of rows (the
// store's bulk transaction when it has one, else tx).
func NewService(store JobStore, tx, bulk promotype.TxFunc[JobStore], env promotype.Env, actions *async.Service, reg *async.Registry, svc Services) *Service {
	s := &Service{store: store, tx: tx, bulk: bulk, env: env, actions: actions, svc: svc}
	s.registerProducts(reg)
	s.registerVouchers(reg)
	s.registerCustomers(reg)
	s.registerOrders(reg)
	s.registerPurges(reg)
	return s
}

// Action types of the bulk jobs.
const (
	ActionProductsImportCSV         = "PRODUCTS.IMPORT_CSV"
	ActionSKUsImportCSV             = "SKUS.IMPORT_CSV"
	ActionProductsBulkUpdate        = "PRODUCTS.BULK_UPDATE"
	ActionProductsMetadataUpdate    = "PRODUCTS.METADATA_UPDATE"
	ActionCustomersImportCSV        = "CUSTOMERS.IMPORT_CSV"
	ActionCustomersBulkUpdate       = "CUSTOMERS.BULK_UPDATE"
	ActionCustomersMetadataUpdate   = "CUSTOMERS.METADATA_UPDATE"
	ActionVouchersImport            = "VOUCHERS.IMPORT"
	ActionVouchersImportCSV         = "VOUCHERS.IMPORT_CSV"
	ActionVouchersBulkUpdate        = "VOUCHERS.BULK_UPDATE"
	ActionVouchersMetadataUpdate    = "VOUCHERS.METADATA_UPDATE"
	ActionCampaignVouchersImportCSV = "CAMPAIGN.VOUCHERS_IMPORT_CSV"
	ActionOrdersImport              = "ORDERS.IMPORT"
)
