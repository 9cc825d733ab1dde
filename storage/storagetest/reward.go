package storagetest

import (
	"testing"

	"github.com/promoengine/promo/promotype"
)

func testRewards(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	for n := 1; n <= 3; n++ { // one of each type
		want := rewardRow(p, n)
		must(t, s.InsertReward(ctx, want))
		got, err := s.GetReward(ctx, p, want.ID)
		must(t, err)
		diff(t, "reward "+string(want.Type), want, got)
	}
	wantErr(t, "duplicate", s.InsertReward(ctx, rewardRow(p, 1)), promotype.ErrDuplicateFound)
	r := rewardRow(p, 2)
	r.Name = "Renamed"
	r.Stock = ptr(int64(0))
	r.UpdatedAt = at(9).Ptr()
	must(t, s.UpdateReward(ctx, r))
	got, err := s.GetReward(ctx, p, r.ID)
	must(t, err)
	diff(t, "updated reward", r, got)
	must(t, s.DeleteReward(ctx, p, r.ID))
	_, err = s.GetReward(ctx, p, r.ID)
	wantErr(t, "deleted reward", err, promotype.ErrNotFound)
	wantErr(t, "update deleted", s.UpdateReward(ctx, r), promotype.ErrNotFound)
	wantErr(t, "delete deleted", s.DeleteReward(ctx, p, r.ID), promotype.ErrNotFound)
}
