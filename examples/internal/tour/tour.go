package tour

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
)

// Run walks through the engine's API on eng and prints every result to w.
func Run(ctx context.Context, eng *promo.Engine, w io.Writer) error {
	show := func(title string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "== %s\n%s\n\n", title, b)
		return err
	}

	// Every resource belongs to a project; its time zone drives validity windows.
	p, err := eng.Projects().Create(ctx, project.Params{Name: "Demo shop", TimeZone: "Europe/Warsaw"})
	if err != nil {
		return fmt.Errorf("create project: %w", err)
	}
	if err := show("project", p); err != nil {
		return err
	}

	// A product declares the attribute names its SKUs fill in. Prices are in
	// the smallest currency unit (2500 = 25.00).
	prod, err := eng.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{
		SourceID:   promo.Ptr("tshirt"),
		Name:       promo.Ptr("T-shirt"),
		Price:      promo.Ptr[int64](2500),
		Attributes: []string{"color", "size"},
		Metadata:   promo.Metadata{"material": "cotton"},
	})
	if err != nil {
		return fmt.Errorf("create product: %w", err)
	}
	if err := show("product", prod); err != nil {
		return err
	}

	// SKUs are addressed by id or source id, like products.
	sku, err := eng.Catalog().CreateSKU(ctx, p.ID, "tshirt", catalog.SKUParams{
		SourceID:   promo.Ptr("tshirt-red-m"),
		SKU:        promo.Ptr("T-shirt red M"),
		Price:      promo.Ptr[int64](2700),
		Currency:   promo.Ptr("EUR"),
		Attributes: promo.Metadata{"color": "red", "size": "M"},
	})
	if err != nil {
		return fmt.Errorf("create SKU: %w", err)
	}
	if err := show("sku", sku); err != nil {
		return err
	}

	// A MATERIAL reward gives a product (here the SKU) and may have a stock.
	gift, err := eng.Rewards().Create(ctx, p.ID, reward.Params{
		Name:       promo.Ptr("Free red T-shirt"),
		Parameters: &reward.Parameters{Product: &reward.ProductParams{ID: prod.ID, SKUID: &sku.ID}},
		Stock:      promo.Ptr[int64](100),
	})
	if err != nil {
		return fmt.Errorf("create material reward: %w", err)
	}
	if err := show("material reward", gift); err != nil {
		return err
	}

	// A COIN reward turns points into cash: 10 points pay 1 unit.
	coin, err := eng.Rewards().Create(ctx, p.ID, reward.Params{
		Name: promo.Ptr("Pay with points"),
		Parameters: &reward.Parameters{Coin: &reward.CoinParams{
			ExchangeRatio: promotype.NewDecimal("1"),
			PointsRatio:   promo.Ptr[int64](10),
		}},
	})
	if err != nil {
		return fmt.Errorf("create coin reward: %w", err)
	}
	if err := show("coin reward", coin); err != nil {
		return err
	}

	// Locations are circles or GeoJSON polygons, for geofencing rules.
	loc, err := eng.Locations().Create(ctx, p.ID, location.Params{
		Name: "Warsaw centre",
		Shape: &location.Shape{
			Type:     location.TypeCircle,
			Format:   location.FormatDistance,
			Distance: &location.Distance{Center: "geo:52.2297,21.0122", Radius: "5km"},
		},
	})
	if err != nil {
		return fmt.Errorf("create location: %w", err)
	}
	if err := show("location", loc); err != nil {
		return err
	}

	// Reading back: a product comes with its SKUs; lists are newest first and
	// include the built-in shipping product.
	got, err := eng.Catalog().GetProduct(ctx, p.ID, "tshirt")
	if err != nil {
		return fmt.Errorf("get product: %w", err)
	}
	if err := show("product with its SKUs", got); err != nil {
		return err
	}
	list, err := eng.Catalog().ListProducts(ctx, p.ID, promo.ListParams{Limit: 10})
	if err != nil {
		return fmt.Errorf("list products: %w", err)
	}
	return show("products", list)
}
