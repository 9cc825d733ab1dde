// Package catalog holds products and their SKUs: the items orders and
// promotions refer to. Products and SKUs are addressed by id or by source id;
// deleting moves them to the bin unless forced. Orders name them by id
// or source id, and the engine prices order lines from them; validation
// rules and discounts' applicable_to select them, and product collections
// group them by filter.
//
// The [Service] (Engine.Catalog()) has CreateProduct, GetProduct,
// ListProducts, UpdateProduct, DeleteProduct and the same for SKUs, and
// the product collections.
//
//	p, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{
//		SourceID: promo.Ptr("tee"), Name: promo.Ptr("T-shirt"), Price: promo.Ptr[int64](2500),
//	})
//
// The package declares the storage port it consumes ([Store]) and its
// [Service] holds every rule, so all stores behave the same.
package catalog
