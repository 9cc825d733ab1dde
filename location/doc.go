// Package location holds locations: named circles (a centre and a radius)
// and GeoJSON polygons that geofencing rules refer to.
package location
