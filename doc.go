// Package promo is an embeddable promotion, loyalty and catalog engine that
// speaks the Voucherify v2018-08-01 interface.
//
// An [Engine] runs over a storage.Store: storage/memory for tests and
// embedding, storage/bunstore for PostgreSQL. Use it in process through its
// services, or mount httpadapter.New(engine) on any net/http mux to serve the
// REST API. Every call is scoped to a project; see [Engine.Projects].
//
//	eng, _ := promo.New(memory.New())
//	p, _ := eng.Projects().Create(ctx, project.Params{Name: "shop"})
//	prod, _ := eng.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{Name: promo.Ptr("T-shirt")})
package promo
