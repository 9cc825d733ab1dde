package storagetest

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
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

func rewardAssignment(projectID string, n int, rewardID, campaignID string) *reward.Assignment {
	return &reward.Assignment{ID: fmt.Sprintf("rewa_%03d", n), ProjectID: projectID, RewardID: rewardID, RelatedObjectID: campaignID,
		RelatedObjectType: "campaign", CreatedAt: at(n),
		Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: ptr(int64(10 * n))}}}
}

func testRewardAssignments(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	want := rewardAssignment(p, 1, "rew_1", "camp_1")
	want.Parameters.Loyalty.AutoRedeem = ptr(true)
	must(t, s.InsertRewardAssignment(ctx, want))
	got, err := s.GetRewardAssignment(ctx, p, want.ID)
	must(t, err)
	diff(t, "assignment", want, got)
	got.Parameters.Loyalty.Points = ptr(int64(1))
	again, err := s.GetRewardAssignment(ctx, p, want.ID)
	must(t, err)
	diff(t, "aliasing", want, again)
	bare := rewardAssignment(p, 2, "rew_1", "camp_2")
	bare.Parameters = nil
	must(t, s.InsertRewardAssignment(ctx, bare))
	must(t, s.InsertRewardAssignment(ctx, rewardAssignment(p, 3, "rew_2", "camp_1")))
	wantErr(t, "same id", s.InsertRewardAssignment(ctx, rewardAssignment(p, 1, "rew_9", "camp_9")), promotype.ErrDuplicateFound)
	wantErr(t, "reward twice in a campaign", s.InsertRewardAssignment(ctx, rewardAssignment(p, 4, "rew_1", "camp_1")), promotype.ErrDuplicateFound)
	got, err = s.GetRewardAssignment(ctx, p, bare.ID)
	must(t, err)
	diff(t, "without parameters", bare, got)

	list := func(field, value string) []string {
		t.Helper()
		items, total, err := s.ListRewardAssignments(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at",
			Must: []promotype.Condition{{Field: field, Op: promotype.OpIs, Values: []string{value}}}})
		must(t, err)
		if total != len(items) {
			t.Errorf("%s %s: total %d for %d items", field, value, total, len(items))
		}
		return ids(items, func(a *reward.Assignment) string { return a.ID })
	}
	diff(t, "of rew_1", []string{"rewa_001", "rewa_002"}, list("reward_id", "rew_1"))
	diff(t, "in camp_1", []string{"rewa_001", "rewa_003"}, list("related_object_id", "camp_1"))

	upd := rewardAssignment(p, 3, "rew_2", "camp_1")
	upd.Parameters.Loyalty.Points, upd.UpdatedAt = ptr(int64(99)), at(9).Ptr()
	must(t, s.UpdateRewardAssignment(ctx, upd))
	got, err = s.GetRewardAssignment(ctx, p, upd.ID)
	must(t, err)
	diff(t, "updated", upd, got)

	wantErr(t, "project b reads a's", second(s.GetRewardAssignment(ctx, b, want.ID)), promotype.ErrNotFound)
	wantErr(t, "project b updates a's", s.UpdateRewardAssignment(ctx, rewardAssignment(b, 1, "rew_1", "camp_1")), promotype.ErrNotFound)
	wantErr(t, "project b deletes a's", s.DeleteRewardAssignment(ctx, b, want.ID), promotype.ErrNotFound)
	if items, _, err := s.ListRewardAssignments(ctx, b, promotype.Query{Limit: 10, OrderBy: "created_at"}); err != nil || len(items) != 0 {
		t.Errorf("project b lists %v (%v)", items, err)
	}
	must(t, s.DeleteRewardAssignment(ctx, p, want.ID))
	wantErr(t, "deleted", second(s.GetRewardAssignment(ctx, p, want.ID)), promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteRewardAssignment(ctx, p, want.ID), promotype.ErrNotFound)
	wantErr(t, "update deleted", s.UpdateRewardAssignment(ctx, want), promotype.ErrNotFound)
	must(t, s.InsertRewardAssignment(ctx, rewardAssignment(p, 5, "rew_1", "camp_1"))) // the pair is free again
}
