package storagetest

import (
	"testing"

	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/promotype"
)

func testLocations(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	for _, want := range []*location.Location{circle(p, 1), polygon(p, 2)} {
		must(t, s.InsertLocation(ctx, want))
		got, err := s.GetLocation(ctx, p, want.ID)
		must(t, err)
		diff(t, "location "+want.Shape.Type, want, got)
	}
	wantErr(t, "duplicate", s.InsertLocation(ctx, circle(p, 1)), promotype.ErrDuplicateFound)
	must(t, s.DeleteLocation(ctx, p, "loc_001"))
	_, err := s.GetLocation(ctx, p, "loc_001")
	wantErr(t, "deleted location", err, promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteLocation(ctx, p, "loc_001"), promotype.ErrNotFound)
}
