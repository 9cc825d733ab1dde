// Package bin is the bin (trash bin) across kinds: the campaigns,
// vouchers, products and SKUs deleted without force are kept binned by
// their own packages (a binned_at mark), and this package lists them as bin
// entries and deletes them for good (GET /v1/trash-bin, DELETE
// /v1/trash-bin/{binEntryId}). An entry is not stored apart: it is the
// binned row itself, its id "bin_" and the resource's id.
//
// Use it through the engine: Engine.Bin().List to page through the
// entries, Engine.Bin().Delete to delete one for good.
package bin
