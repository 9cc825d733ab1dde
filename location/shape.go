package location

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/promoengine/promo/promotype"
)

var radiusRE = regexp.MustCompile(`^\s*([0-9]+(?:\.[0-9]+)?)\s*(km|m|mi)\s*$`)

// RadiusMeters parses a radius such as "5km", "1.54 km", "500m" or "2mi".
func RadiusMeters(s string) (float64, bool) {
	m := radiusRE.FindStringSubmatch(strings.ToLower(s))
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) {
		return 0, false
	}
	switch m[2] {
	case "km":
		v *= 1000
	case "mi":
		v *= 1609.344
	}
	return v, true
}

// ParseCenter parses "geo:<lat>,<lon>" and checks the ranges.
func ParseCenter(s string) (lat, lon float64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(s), "geo:")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rest, ",")
	if !found {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lon, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || !validLat(lat) || !validLon(lon) {
		return 0, 0, false
	}
	return lat, lon, true
}

func validLat(v float64) bool { return v >= -90 && v <= 90 }
func validLon(v float64) bool { return v >= -180 && v <= 180 }

// Validate checks a shape: a circle with a valid centre and a positive
// radius, or a GeoJSON Polygon whose rings are closed, have at least four
// positions, and hold valid [longitude, latitude] pairs.
func (s Shape) Validate() error {
	switch s.Type {
	case TypeCircle:
		if s.Format != FormatDistance {
			return promotype.InvalidPayload("Property .shape.format must be equal to %s for a circle", FormatDistance)
		}
		if s.Distance == nil || s.GeoJSON != nil {
			return promotype.InvalidPayload("Property .shape must have the property 'distance' (and no 'geojson') for a circle")
		}
		if _, _, ok := ParseCenter(s.Distance.Center); !ok {
			return promotype.InvalidPayload("Property .shape.distance.center must be of the form geo:<lat>,<lon> with latitude in [-90, 90] and longitude in [-180, 180]")
		}
		if _, ok := RadiusMeters(s.Distance.Radius); !ok {
			return promotype.InvalidPayload("Property .shape.distance.radius must be a positive number followed by km, m or mi")
		}
		return nil
	case TypePolygon:
		if s.Format != FormatGeoJSON {
			return promotype.InvalidPayload("Property .shape.format must be equal to %s for a polygon", FormatGeoJSON)
		}
		if s.GeoJSON == nil || s.Distance != nil {
			return promotype.InvalidPayload("Property .shape must have the property 'geojson' (and no 'distance') for a polygon")
		}
		return s.GeoJSON.validate()
	default:
		return promotype.InvalidPayload("Property .shape.type must be equal to one of the allowed values: circle, polygon")
	}
}

func (g *GeoJSON) validate() error {
	if g.Type != "Polygon" {
		return promotype.InvalidPayload("Property .shape.geojson.type must be equal to Polygon")
	}
	if len(g.Coordinates) == 0 {
		return promotype.InvalidPayload("Property .shape.geojson.coordinates must NOT have fewer than 1 items")
	}
	for i, ring := range g.Coordinates {
		if len(ring) < 4 {
			return promotype.InvalidPayload("Property .shape.geojson.coordinates[%d] must have at least 4 positions", i)
		}
		for j, pt := range ring {
			if len(pt) != 2 {
				return promotype.InvalidPayload("Property .shape.geojson.coordinates[%d][%d] must be a [longitude, latitude] pair", i, j)
			}
			if !validLon(pt[0]) || !validLat(pt[1]) {
				return promotype.InvalidPayload("Property .shape.geojson.coordinates[%d][%d] must hold a longitude in [-180, 180] and a latitude in [-90, 90]", i, j)
			}
		}
		first, last := ring[0], ring[len(ring)-1]
		if first[0] != last[0] || first[1] != last[1] {
			return promotype.InvalidPayload("Property .shape.geojson.coordinates[%d] must be a closed ring (first and last positions equal)", i)
		}
	}
	return nil
}
