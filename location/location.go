package location

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Shape types and formats.
const (
	TypeCircle     = "circle"
	TypePolygon    = "polygon"
	FormatDistance = "distance"
	FormatGeoJSON  = "geojson"
)

// Location is a named area (object "location").
type Location struct {
	ID        string          `json:"id"`
	Object    string          `json:"object"`
	Name      string          `json:"name"`
	Shape     Shape           `json:"shape"`
	CreatedAt promotype.Time  `json:"created_at"`
	UpdatedAt *promotype.Time `json:"updated_at"`

	ProjectID string `json:"-"`
}

// Shape is a circle ({type:circle, format:distance, distance}) or a polygon
// ({type:polygon, format:geojson, geojson}).
type Shape struct {
	Type     string    `json:"type"`
	Format   string    `json:"format"`
	Distance *Distance `json:"distance,omitempty"`
	GeoJSON  *GeoJSON  `json:"geojson,omitempty"`
}

// Distance is a circle: Center "geo:<lat>,<lon>", Radius like "5km", "500 m", "2mi".
type Distance struct {
	Center string `json:"center"`
	Radius string `json:"radius"`
}

// GeoJSON is a GeoJSON Polygon: rings of [longitude, latitude] pairs.
type GeoJSON struct {
	Type        string        `json:"type"`
	Coordinates [][][]float64 `json:"coordinates"`
}

// Clone returns a deep copy.
func (l *Location) Clone() *Location {
	c := *l
	if l.UpdatedAt != nil {
		t := *l.UpdatedAt
		c.UpdatedAt = &t
	}
	if l.Shape.Distance != nil {
		d := *l.Shape.Distance
		c.Shape.Distance = &d
	}
	if g := l.Shape.GeoJSON; g != nil {
		cg := GeoJSON{Type: g.Type, Coordinates: make([][][]float64, len(g.Coordinates))}
		for i, ring := range g.Coordinates {
			cg.Coordinates[i] = make([][]float64, len(ring))
			for j, pt := range ring {
				cg.Coordinates[i][j] = append([]float64(nil), pt...)
			}
		}
		c.Shape.GeoJSON = &cg
	}
	return &c
}

// Store is the storage port of locations, scoped by project.
type Store interface {
	InsertLocation(ctx context.Context, l *Location) error
	GetLocation(ctx context.Context, projectID, id string) (*Location, error)
	ListLocations(ctx context.Context, projectID string, q promotype.Query) ([]*Location, int, error)
	DeleteLocation(ctx context.Context, projectID, id string) error
}

// ListSpec is what GET /v1/locations accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":       promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}
