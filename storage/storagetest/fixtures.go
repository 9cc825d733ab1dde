package storagetest

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage"
)

func ptr[T any](v T) *T { return &v }

// newProject stores a project and returns its id.
func newProject(t testing.TB, s storage.Store, id string) string {
	t.Helper()
	must(t, s.InsertProject(ctx, &project.Project{ID: id, Name: "Project " + id, TimeZone: "Europe/Warsaw", CreatedAt: at(0)}))
	return id
}

func product(projectID string, n int) *catalog.Product {
	return &catalog.Product{
		ID:         fmt.Sprintf("prod_%03d", n),
		ProjectID:  projectID,
		SourceID:   ptr(fmt.Sprintf("src-%03d", n)),
		Name:       ptr(fmt.Sprintf("Product %03d", n)),
		Price:      ptr(int64(1000 + n)),
		Attributes: []string{"color", "size"},
		Metadata:   promotype.Metadata{"n": float64(n), "tags": []any{"a", "b"}, "nested": map[string]any{"ok": true}},
		ImageURL:   ptr("https://img.example/p.png"),
		CreatedAt:  at(n),
	}
}

func sku(projectID, productID string, n int) *catalog.SKU {
	return &catalog.SKU{
		ID:         fmt.Sprintf("sku_%03d", n),
		ProjectID:  projectID,
		ProductID:  productID,
		SourceID:   ptr(fmt.Sprintf("sku-src-%03d", n)),
		SKU:        ptr(fmt.Sprintf("SKU %03d", n)),
		Price:      ptr(int64(500 + n)),
		Currency:   ptr("EUR"),
		Attributes: promotype.Metadata{"color": "red"},
		Metadata:   promotype.Metadata{},
		CreatedAt:  at(n),
	}
}

func rewardRow(projectID string, n int) *reward.Reward {
	r := &reward.Reward{
		ID:        fmt.Sprintf("rew_%03d", n),
		ProjectID: projectID,
		Name:      fmt.Sprintf("Reward %03d", n),
		Redeemed:  ptr(int64(0)),
		Metadata:  promotype.Metadata{"k": "v"},
		CreatedAt: at(n),
	}
	switch n % 3 {
	case 0:
		r.Type = reward.TypeCampaign
		r.Parameters.Campaign = &reward.CampaignParams{ID: "camp_1", Type: "LOYALTY_PROGRAM", Balance: ptr(int64(100))}
	case 1:
		r.Type = reward.TypeCoin
		r.Parameters.Coin = &reward.CoinParams{ExchangeRatio: promotype.NewDecimal("0.25"), PointsRatio: ptr(int64(10))}
	default:
		r.Type = reward.TypeMaterial
		r.Stock = ptr(int64(7))
		r.Attributes = &reward.Attributes{ImageURL: ptr("https://img.example/r.jpg"), Description: ptr("mug")}
		r.Parameters.Product = &reward.ProductParams{ID: "prod_001", SKUID: ptr("sku_001")}
	}
	return r
}

func circle(projectID string, n int) *location.Location {
	return &location.Location{
		ID:        fmt.Sprintf("loc_%03d", n),
		ProjectID: projectID,
		Name:      fmt.Sprintf("Place %03d", n),
		Shape: location.Shape{Type: location.TypeCircle, Format: location.FormatDistance,
			Distance: &location.Distance{Center: "geo:40.79,-74.15", Radius: "1.54 km"}},
		CreatedAt: at(n),
	}
}

func polygon(projectID string, n int) *location.Location {
	return &location.Location{
		ID:        fmt.Sprintf("loc_%03d", n),
		ProjectID: projectID,
		Name:      fmt.Sprintf("Area %03d", n),
		Shape: location.Shape{Type: location.TypePolygon, Format: location.FormatGeoJSON,
			GeoJSON: &location.GeoJSON{Type: "Polygon", Coordinates: [][][]float64{{{18.5, 50.5}, {18.52, 51.08}, {19.59, 50.83}, {18.5, 50.5}}}}},
		CreatedAt: at(n),
	}
}

func appKey(projectID, id string) *auth.AppKey {
	return &auth.AppKey{AppID: id, ProjectID: projectID, SecretHash: auth.Hash("secret-" + id), CreatedAt: at(0)}
}
