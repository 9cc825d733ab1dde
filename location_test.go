package promo_test

import (
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/promotype"
)

func circleShape(center, radius string) *location.Shape {
	return &location.Shape{Type: "circle", Format: "distance", Distance: &location.Distance{Center: center, Radius: radius}}
}

func polygonShape(rings ...[][]float64) *location.Shape {
	return &location.Shape{Type: "polygon", Format: "geojson", GeoJSON: &location.GeoJSON{Type: "Polygon", Coordinates: rings}}
}

var square = [][]float64{{18.5, 50.5}, {18.5, 51.0}, {19.5, 51.0}, {19.5, 50.5}, {18.5, 50.5}}

func TestLocationShapes(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		tests := []struct {
			name  string
			shape *location.Shape
			want  string // "" = accepted; else the error details
		}{
			{"circle km", circleShape("geo:40.79372699823857,-74.15092132694554", "1.54 km"), ""},
			{"circle m", circleShape("geo:-90,180", "500m"), ""},
			{"circle mi", circleShape("geo:0,0", "2mi"), ""},
			{"polygon", polygonShape(square), ""},
			{"polygon with a hole", polygonShape(square, [][]float64{{18.9, 50.7}, {18.9, 50.8}, {19.0, 50.8}, {18.9, 50.7}}), ""},
			{"centre without geo:", circleShape("40.7,-74.1", "1km"), "Property .shape.distance.center must be of the form geo:<lat>,<lon> with latitude in [-90, 90] and longitude in [-180, 180]"},
			{"latitude 91", circleShape("geo:91,0", "1km"), "Property .shape.distance.center must be of the form geo:<lat>,<lon> with latitude in [-90, 90] and longitude in [-180, 180]"},
			{"radius unit", circleShape("geo:0,0", "5 parsecs"), "Property .shape.distance.radius must be a positive number followed by km, m or mi"},
			{"radius zero", circleShape("geo:0,0", "0km"), "Property .shape.distance.radius must be a positive number followed by km, m or mi"},
			{"open ring", polygonShape(square[:4]), "Property .shape.geojson.coordinates[0] must be a closed ring (first and last positions equal)"},
			{"short ring", polygonShape([][]float64{{0, 0}, {1, 1}, {0, 0}}), "Property .shape.geojson.coordinates[0] must have at least 4 positions"},
			{"longitude 181", polygonShape([][]float64{{181, 0}, {1, 1}, {1, 0}, {181, 0}}), "Property .shape.geojson.coordinates[0][0] must hold a longitude in [-180, 180] and a latitude in [-90, 90]"},
			{"triple", polygonShape([][]float64{{0, 0, 0}, {1, 1}, {1, 0}, {0, 0}}), "Property .shape.geojson.coordinates[0][0] must be a [longitude, latitude] pair"},
			{"no rings", polygonShape(), "Property .shape.geojson.coordinates must NOT have fewer than 1 items"},
			{"unknown type", &location.Shape{Type: "square"}, "Property .shape.type must be equal to one of the allowed values: circle, polygon"},
			{"circle with geojson format", &location.Shape{Type: "circle", Format: "geojson"}, "Property .shape.format must be equal to distance for a circle"},
			{"polygon without geojson", &location.Shape{Type: "polygon", Format: "geojson"}, "Property .shape must have the property 'geojson' (and no 'distance') for a polygon"},
			{"no shape", nil, "Payload must have required property 'shape'"},
		}
		accepted := 0
		for _, tc := range tests {
			l, err := f.eng.Locations().Create(ctx, f.project, location.Params{Name: tc.name, Shape: tc.shape})
			if tc.want == "" {
				if err != nil {
					t.Errorf("%s: refused: %v", tc.name, err)
					continue
				}
				accepted++
				diff(t, tc.name, l, must[*location.Location](t)(f.eng.Locations().Get(ctx, f.project, l.ID)))
				continue
			}
			if e := wantErr(t, err, 400, "invalid_payload"); e.Details != tc.want {
				t.Errorf("%s: details %q, want %q", tc.name, e.Details, tc.want)
			}
		}
		if l := must[*promo.List[*location.Location]](t)(f.eng.Locations().List(ctx, f.project, promo.ListParams{Limit: 100})); l.Total != accepted {
			t.Errorf("stored %d locations, want %d", l.Total, accepted)
		}
	})
}

func TestLocationList(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		names := []string{"Belleville", "New York", "Germany", "Poland", "New Jersey"}
		for _, n := range names {
			f.clock.Advance(24 * time.Hour)
			must[*location.Location](t)(f.eng.Locations().Create(ctx, f.project, location.Params{Name: n, Shape: circleShape("geo:1,1", "1km")}))
		}
		list := func(p promo.ListParams) ([]string, *promo.List[*location.Location]) {
			t.Helper()
			l := must[*promo.List[*location.Location]](t)(f.eng.Locations().List(ctx, f.project, p))
			out := []string{}
			for _, x := range l.Data {
				out = append(out, x.Name)
			}
			return out, l
		}
		got, l := list(promo.ListParams{})
		diff(t, "default: newest first", []string{"New Jersey", "Poland", "Germany", "New York", "Belleville"}, got)
		if l.Total != 5 || l.HasMore || l.Object != "list" || l.DataRef != "data" {
			t.Errorf("envelope %+v", l)
		}
		got, l = list(promo.ListParams{Limit: 2, Order: "created_at"})
		diff(t, "limit 2 ascending", []string{"Belleville", "New York"}, got)
		if !l.HasMore || l.Total != 5 {
			t.Errorf("has_more %v total %d", l.HasMore, l.Total)
		}
		got, _ = list(promo.ListParams{Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "name", Op: promotype.OpStartsWith, Values: []string{"New"}}}}})
		diff(t, "name starts with", []string{"New Jersey", "New York"}, got)
		end := at(3 * 24 * time.Hour)
		got, _ = list(promo.ListParams{EndDate: &end, Order: "created_at"})
		diff(t, "end_date keeps those created at or before it", []string{"Belleville", "New York", "Germany"}, got)
		got, _ = list(promo.ListParams{Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "created_at", Op: promotype.OpLessThan, Values: []string{"2"}}}}})
		diff(t, "created less than 2 days ago", []string{"New Jersey", "Poland"}, got)
		for _, bad := range []promo.ListParams{{Limit: 101}, {Limit: -1}, {Order: "name"},
			{Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "shape", Op: "$is", Values: []string{"x"}}}}}} {
			_, err := f.eng.Locations().List(ctx, f.project, bad)
			wantErr(t, err, 400, "invalid_query_params")
		}
		all := must[*promo.List[*location.Location]](t)(f.eng.Locations().List(ctx, f.project, promo.ListParams{Limit: 1}))
		must[struct{}](t)(struct{}{}, f.eng.Locations().Delete(ctx, f.project, all.Data[0].ID))
		_, err := f.eng.Locations().Get(ctx, f.project, all.Data[0].ID)
		wantErr(t, err, 404, "not_found")
		wantErr(t, f.eng.Locations().Delete(ctx, f.project, all.Data[0].ID), 404, "not_found")
	})
}

func TestProjectsAndKeys(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		p := must[*promo.Project](t)(f.eng.Projects().Get(ctx, f.project))
		if p.TimeZone != "UTC" || p.Name != "Shop" || p.Object != "project" {
			t.Errorf("project = %+v", p)
		}
		_, err := f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Bad zone", TimeZone: "Mars/Olympus"})
		wantErr(t, err, 400, "invalid_payload")
		_, err = f.eng.Projects().Create(ctx, promo.ProjectParams{ID: f.project, Name: "Same id"})
		wantErr(t, err, 409, "duplicate_found")

		creds := must[promo.Credentials](t)(f.eng.Auth().CreateAppKey(ctx, f.project, promo.KeyParams{}))
		if got := must[string](t)(f.eng.Auth().AuthenticateApp(ctx, creds.ID, creds.Secret)); got != f.project {
			t.Errorf("key resolves project %s", got)
		}
		for _, bad := range [][2]string{{creds.ID, "wrong"}, {"unknown", creds.Secret}, {"", ""}, {creds.ID, ""}} {
			_, err := f.eng.Auth().AuthenticateApp(ctx, bad[0], bad[1])
			wantErr(t, err, 401, "unauthorized")
		}
		other := must[*promo.Project](t)(f.eng.Projects().Create(ctx, promo.ProjectParams{Name: "Other", TimeZone: "Europe/Warsaw"}))
		m := must[promo.Credentials](t)(f.eng.Auth().CreateManagementKey(ctx, promo.KeyParams{ID: "mgmt", Secret: "0123456789abcdef"}, f.project))
		must[struct{}](t)(struct{}{}, f.eng.Auth().GrantProject(ctx, m.ID, other.ID))
		k := must[*promo.ManagementKey](t)(f.eng.Auth().AuthenticateManagement(ctx, "mgmt", "0123456789abcdef"))
		if !k.Grants(f.project) || !k.Grants(other.ID) || k.Grants("proj_x") {
			t.Errorf("grants = %v", k.ProjectIDs)
		}
		_, err = f.eng.Auth().AuthenticateManagement(ctx, "mgmt", "0123456789abcdeF")
		wantErr(t, err, 401, "unauthorized")
		_, err = f.eng.Auth().CreateAppKey(ctx, f.project, promo.KeyParams{Secret: "short"})
		wantErr(t, err, 400, "invalid_payload")
	})
}

func TestProvisionProjectIsAtomic(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		// An unknown management key fails the grant: nothing of the project stays.
		_, _, err := f.eng.Projects().Provision(ctx, promo.ProjectParams{ID: "proj_half", Name: "Half"}, promo.KeyParams{ID: "app-half"}, "mgmt-unknown")
		wantErr(t, err, 404, "not_found")
		_, err = f.eng.Projects().Get(ctx, "proj_half")
		wantErr(t, err, 404, "not_found")
		_, err = f.eng.Auth().AuthenticateApp(ctx, "app-half", "anything-anything")
		wantErr(t, err, 401, "unauthorized")

		m := must[promo.Credentials](t)(f.eng.Auth().CreateManagementKey(ctx, promo.KeyParams{}))
		p, creds, err := f.eng.Projects().Provision(ctx, promo.ProjectParams{Name: "Whole"}, promo.KeyParams{}, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := must[string](t)(f.eng.Auth().AuthenticateApp(ctx, creds.ID, creds.Secret)); got != p.ID {
			t.Errorf("app key resolves %s, want %s", got, p.ID)
		}
		if k := must[*promo.ManagementKey](t)(f.eng.Auth().AuthenticateManagement(ctx, m.ID, m.Secret)); !k.Grants(p.ID) {
			t.Error("management key not granted the new project")
		}
		must[*promo.Project](t)(f.eng.Projects().Get(ctx, p.ID))
	})
}
