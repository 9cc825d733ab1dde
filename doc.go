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
//
// The checkout loop goes through three services: Engine.Validations()
// (Validate: which codes and promotions apply, and what the order costs
// with them), Engine.Redemptions() (Redeem spends them; Rollback undoes a
// redemption, single or stacked) and Engine.Customers(). Example_checkout
// walks it from an empty project; the other examples show vouchers, code
// generation (Engine.AsyncActions().Wait), validation rules, promotion
// tiers and stacks, and loyalty programs.
package promo
