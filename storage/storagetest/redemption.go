package storagetest

import (
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

func stackingRulesRow(projectID, id string) *redemption.StackingRules {
	r := redemption.DefaultStackingRules()
	created := promotype.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC))
	r.ID, r.ProjectID, r.CreatedAt = id, projectID, &created
	r.ExclusiveCategories = []string{"cat_x"}
	r.ApplicableRedeemablesCategoryLimits = map[string]int{"cat_y": 3}
	r.RedeemablesApplicationMode = redemption.ModeAll
	return r
}

// testStackingRules: one row per project, isolated, returned as the
// caller's own; a second insert is duplicate_found.
func testStackingRules(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	_, err := s.GetStackingRules(ctx, a)
	wantErr(t, "none stored", err, promotype.ErrNotFound)
	want := stackingRulesRow(a, "stk_001")
	must(t, s.InsertStackingRules(ctx, want))
	got, err := s.GetStackingRules(ctx, a)
	must(t, err)
	diff(t, "stacking rules", want, got)
	got.ExclusiveCategories[0] = "changed"
	got.ApplicableRedeemablesCategoryLimits["cat_y"] = 9
	again, err := s.GetStackingRules(ctx, a)
	must(t, err)
	diff(t, "after mutating a returned value", want, again)

	wantErr(t, "second insert", s.InsertStackingRules(ctx, stackingRulesRow(a, "stk_002")), promotype.ErrDuplicateFound)
	_, err = s.GetStackingRules(ctx, b)
	wantErr(t, "other project", err, promotype.ErrNotFound)
	wantErr(t, "delete in other project", s.DeleteStackingRules(ctx, b), promotype.ErrNotFound)
	must(t, s.InsertStackingRules(ctx, stackingRulesRow(b, "stk_003")))

	upd := want.Clone()
	updated := promotype.NewTime(time.Date(2026, 2, 2, 3, 4, 5, 0, time.UTC))
	upd.UpdatedAt, upd.RedeemablesLimit, upd.JointCategories = &updated, 10, []string{"cat_j"}
	must(t, s.UpdateStackingRules(ctx, upd))
	got, err = s.GetStackingRules(ctx, a)
	must(t, err)
	diff(t, "updated", upd, got)

	must(t, s.DeleteStackingRules(ctx, a))
	_, err = s.GetStackingRules(ctx, a)
	wantErr(t, "deleted", err, promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteStackingRules(ctx, a), promotype.ErrNotFound)
	must(t, s.InsertStackingRules(ctx, stackingRulesRow(a, "stk_004")))
	if _, err := s.GetStackingRules(ctx, b); err != nil {
		t.Fatalf("project b's rules after a's delete: %v", err)
	}
}
