// Package location holds locations: named circles (a centre and a radius
// such as "5km") and GeoJSON polygons that validation rules on the customer's
// position refer to.
//
// The [Service] (Engine.Locations()) creates, reads, lists and deletes a
// [Location]; [Params] take either a circle or a polygon.
//
//	l, err := eng.Locations().Create(ctx, projectID, location.Params{Name: "Centre", Shape: &location.Shape{
//		Type: "circle", Format: "distance", Distance: &location.Distance{Center: "geo:52.23,21.01", Radius: "5km"},
//	}})
//	l, err = eng.Locations().Get(ctx, projectID, l.ID)
package location
