package promo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage/memory"
)

// newEngine returns an engine over a fresh memory store whose clock stands
// at a fixed instant and whose ids count up, so the output is stable.
func newEngine() *promo.Engine {
	eng, err := promo.New(memory.New(),
		promo.WithClock(promotype.NewManualClock(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC))),
		promo.WithIDGenerator(&promotype.SequentialIDs{}),
	)
	if err != nil {
		panic(err)
	}
	return eng
}

// newProject returns the engine and the id of a new project on it.
func newProject(ctx context.Context) (*promo.Engine, string) {
	eng := newEngine()
	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop"})
	if err != nil {
		panic(err)
	}
	return eng, p.ID
}

// printJSON prints v as the REST API would send it (indented here).
func printJSON(v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
}

// The engine in a few lines: a store, a project, a product.
func Example() {
	ctx := context.Background()
	eng, err := promo.New(memory.New())
	if err != nil {
		panic(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop"})
	if err != nil {
		panic(err)
	}
	prod, err := eng.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{Name: promo.Ptr("T-shirt"), Price: promo.Ptr[int64](2500)})
	if err != nil {
		panic(err)
	}
	fmt.Println(*prod.Name, *prod.Price, prod.Object)
	// Output: T-shirt 2500 product
}

// A project is the unit of isolation. Its time zone (UTC by default) is the
// one validity windows are evaluated in.
func ExampleEngine_Projects() {
	ctx := context.Background()
	eng := newEngine()
	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop", TimeZone: "Europe/Warsaw"})
	if err != nil {
		panic(err)
	}
	printJSON(p)
	// Output:
	// {
	//   "id": "proj_00000000000000000001",
	//   "name": "shop",
	//   "timezone": "Europe/Warsaw",
	//   "created_at": "2026-01-02T10:00:00.000Z",
	//   "object": "project",
	//   "webhook_token": "whtok_proj_00000000000000000001",
	//   "client_trusted_domains": [],
	//   "client_redeem_enabled": true,
	//   "client_publish_enabled": false,
	//   "client_list_vouchers_enabled": false,
	//   "client_create_customer_enabled": true,
	//   "client_loyalty_events_enabled": true,
	//   "client_set_voucher_expiration_date_enabled": false
	// }
}

// Products and SKUs are addressed by id or by source id. Getting a product
// returns its SKUs too.
func ExampleEngine_Catalog() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	_, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{
		SourceID:   promo.Ptr("tshirt"),
		Name:       promo.Ptr("T-shirt"),
		Attributes: []string{"size"},
	})
	if err != nil {
		panic(err)
	}
	_, err = eng.Catalog().CreateSKU(ctx, projectID, "tshirt", catalog.SKUParams{
		SourceID:   promo.Ptr("tshirt-m"),
		Price:      promo.Ptr[int64](2500),
		Attributes: promo.Metadata{"size": "M"},
	})
	if err != nil {
		panic(err)
	}
	prod, err := eng.Catalog().GetProduct(ctx, projectID, "tshirt")
	if err != nil {
		panic(err)
	}
	fmt.Println(prod.ID, *prod.Name)
	for _, s := range prod.SKUs.Data {
		fmt.Println(s.ID, *s.SourceID, *s.Price, s.Attributes["size"])
	}
	// Output:
	// prod_00000000000000000002 T-shirt
	// sku_00000000000000000003 tshirt-m 2500 M
}

// Creating a product whose source_id already exists updates it (an upsert).
func ExampleEngine_Catalog_upsert() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	a, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{SourceID: promo.Ptr("mug"), Price: promo.Ptr[int64](900)})
	if err != nil {
		panic(err)
	}
	b, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{SourceID: promo.Ptr("mug"), Price: promo.Ptr[int64](1100)})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.ID == b.ID, *b.Price, b.UpdatedAt != nil)
	// Output: true 1100 true
}

// Every list is one envelope: object, data_ref, data, total and has_more.
// Lists are newest first unless an order is given, and the built-in
// shipping product is part of every project's catalog.
func ExampleEngine_Catalog_list() {
	ctx := context.Background()
	clock := promotype.NewManualClock(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC))
	eng, err := promo.New(memory.New(), promo.WithClock(clock), promo.WithIDGenerator(&promotype.SequentialIDs{}))
	if err != nil {
		panic(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "shop"})
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"Cap", "Scarf"} {
		clock.Advance(time.Minute)
		if _, err := eng.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{Name: promo.Ptr(name)}); err != nil {
			panic(err)
		}
	}
	list, err := eng.Catalog().ListProducts(ctx, p.ID, promo.ListParams{Limit: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(list.Object, list.DataRef, list.Total, list.HasMore)
	for _, prod := range list.Data {
		fmt.Println(prod.ID, *prod.Name, prod.CreatedAt.Format(time.TimeOnly))
	}
	// Output:
	// list data 3 true
	// prod_00000000000000000003 Scarf 10:02:00
	// prod_00000000000000000002 Cap 10:01:00
}

// ListParams carry paging, order and filters (the REST API's limit, page,
// order and filters query parameters). A bad value is refused, never clamped.
func ExampleListParams() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	for _, name := range []string{"Cap", "Scarf", "Scarlet hat"} {
		if _, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{Name: promo.Ptr(name)}); err != nil {
			panic(err)
		}
	}
	list, err := eng.Catalog().ListProducts(ctx, projectID, promo.ListParams{
		Filter: promotype.Filter{Conditions: []promotype.Condition{
			{Field: "name", Op: promotype.OpStartsWith, Values: []string{"Scar"}},
		}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(list.Total)
	_, err = eng.Catalog().ListProducts(ctx, projectID, promo.ListParams{Limit: 500})
	fmt.Println(err)
	// Output:
	// 2
	// invalid_query_params: Invalid query params (Property .limit must be between 1 and 100)
}

// Rewards are what loyalty points buy. A MATERIAL reward names a product of
// the catalog (by id or source id) and may have a stock.
func ExampleEngine_Rewards() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	if _, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{SourceID: promo.Ptr("mug"), Name: promo.Ptr("Mug")}); err != nil {
		panic(err)
	}
	r, err := eng.Rewards().Create(ctx, projectID, reward.Params{
		Name:       promo.Ptr("Free mug"),
		Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: "mug"}},
		Stock:      promo.Ptr[int64](50),
	})
	if err != nil {
		panic(err)
	}
	printJSON(r)
	// Output:
	// {
	//   "id": "rew_00000000000000000003",
	//   "name": "Free mug",
	//   "type": "MATERIAL",
	//   "stock": 50,
	//   "redeemed": 0,
	//   "metadata": {},
	//   "parameters": {
	//     "product": {
	//       "id": "prod_00000000000000000002",
	//       "sku_id": null
	//     }
	//   },
	//   "created_at": "2026-01-02T10:00:00.000Z",
	//   "updated_at": null,
	//   "object": "reward"
	// }
}

// Bad input is a *promo.Error with the HTTP status and the error key the
// REST API would answer with; nothing is stored.
func ExampleEngine_Rewards_invalid() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	_, err := eng.Rewards().Create(ctx, projectID, reward.Params{
		Name:       promo.Ptr("100 points"),
		Parameters: &reward.Parameters{Campaign: &reward.CampaignParams{ID: "camp_1", Type: "LOYALTY_PROGRAM", Balance: promo.Ptr[int64](0)}},
	})
	var e *promo.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Key)
		fmt.Println(e.Details)
	}
	// Output:
	// 400 invalid_balance
	// Property 'parameters.campaign.balance' must be greater than zero for campaign type: LOYALTY_PROGRAM
}

// Locations are circles (a centre and a radius in km, m or mi) or GeoJSON
// polygons.
func ExampleEngine_Locations() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	l, err := eng.Locations().Create(ctx, projectID, location.Params{
		Name: "Old town",
		Shape: &location.Shape{
			Type:     location.TypeCircle,
			Format:   location.FormatDistance,
			Distance: &location.Distance{Center: "geo:52.2497,21.0122", Radius: "1.5km"},
		},
	})
	if err != nil {
		panic(err)
	}
	printJSON(l)
	// Output:
	// {
	//   "id": "loc_00000000000000000002",
	//   "object": "location",
	//   "name": "Old town",
	//   "shape": {
	//     "type": "circle",
	//     "format": "distance",
	//     "distance": {
	//       "center": "geo:52.2497,21.0122",
	//       "radius": "1.5km"
	//     }
	//   },
	//   "created_at": "2026-01-02T10:00:00.000Z",
	//   "updated_at": null
	// }
}

// An application key pair (X-App-Id, X-App-Token) resolves its project. The
// secret is returned once, in clear, and stored only as a hash.
func ExampleEngine_Auth() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	creds, err := eng.Auth().CreateAppKey(ctx, projectID, auth.KeyParams{ID: "my-app", Secret: "a-long-enough-secret"})
	if err != nil {
		panic(err)
	}
	got, err := eng.Auth().AuthenticateApp(ctx, creds.ID, creds.Secret)
	fmt.Println(got, err)
	_, err = eng.Auth().AuthenticateApp(ctx, creds.ID, "a-wrong-secret-1234")
	fmt.Println(errors.Is(err, promo.ErrUnauthorized))
	// Output:
	// proj_00000000000000000001 <nil>
	// true
}

// Errors are matched by kind with errors.Is; another project's ids answer
// not found, exactly like missing ones.
func ExampleError() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	_, err := eng.Catalog().GetProduct(ctx, projectID, "no-such-product")
	fmt.Println(errors.Is(err, promo.ErrNotFound))
	fmt.Println(err)
	// Output:
	// true
	// not_found: Resource not found (Cannot find product with id no-such-product)
}
