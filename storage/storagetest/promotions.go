package storagetest

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
)

func tier(projectID, campaignID string, n int) *campaign.PromotionTier {
	t := &campaign.PromotionTier{
		ID:         fmt.Sprintf("promo_%03d", n),
		ProjectID:  projectID,
		CampaignID: campaignID,
		Name:       fmt.Sprintf("Tier %03d", n),
		Hierarchy:  n,
		Active:     n%2 == 1,
		Metadata:   promotype.Metadata{"n": float64(n)},
		CreatedAt:  at(n),
		Action: campaign.TierAction{Discount: &discount.Discount{Type: discount.Amount,
			AmountOff: ptr(promotype.NewDecimal("100")), Effect: discount.ApplyToOrder}},
	}
	if n == 2 {
		t.Banner = ptr("Banner")
		t.CategoryID = ptr("cat_1")
		t.StartDate = at(0).Ptr()
		t.ExpirationDate = at(100).Ptr()
		t.ValidityDayOfWeek = []int{1, 2}
		t.ValidityTimeframe = &campaign.ValidityTimeframe{Interval: "P2D", Duration: "PT1H"}
		t.ValidityHours = &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "10:00", ExpirationTime: "12:00", DaysOfWeek: []int{1}}}}
	}
	return t
}

func testPromotionTiers(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	for n := 1; n <= 3; n++ {
		campaignID := "camp_1"
		if n == 3 {
			campaignID = "camp_2"
		}
		want := tier(p, campaignID, n)
		must(t, s.InsertPromotionTier(ctx, want))
		got, err := s.GetPromotionTier(ctx, p, want.ID)
		must(t, err)
		diff(t, "tier "+want.ID, want, got)
	}
	wantErr(t, "duplicate", s.InsertPromotionTier(ctx, tier(p, "camp_1", 1)), promotype.ErrDuplicateFound)
	_, err := s.GetPromotionTier(ctx, other, "promo_001")
	wantErr(t, "other project", err, promotype.ErrNotFound)

	items, total, err := s.ListPromotionTiers(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "campaign_id", Op: promotype.OpIs, Values: []string{"camp_1"}}}})
	must(t, err)
	diff(t, "tiers of camp_1", []string{"promo_001", "promo_002"}, ids(items, func(t *campaign.PromotionTier) string { return t.ID }))
	if total != 2 {
		t.Errorf("total %d, want 2", total)
	}
	items, total, err = s.ListPromotionTiers(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true, Must: []promotype.Condition{
		{Field: "active", Op: promotype.OpIs, Values: []string{"true"}}}})
	must(t, err)
	diff(t, "active tiers", []string{"promo_003", "promo_001"}, ids(items, func(t *campaign.PromotionTier) string { return t.ID }))
	if total != 2 {
		t.Errorf("total %d, want 2", total)
	}
	items, _, err = s.ListPromotionTiers(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "campaign_id", Op: promotype.OpIn, Values: []string{"camp_1", "camp_2"}}}})
	must(t, err)
	if len(items) != 3 {
		t.Errorf("tiers of both campaigns: %d, want 3", len(items))
	}
	items, _, err = s.ListPromotionTiers(ctx, other, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if len(items) != 0 {
		t.Errorf("other project lists %d tiers", len(items))
	}

	u := tier(p, "camp_1", 2)
	u.Name, u.Active, u.Banner, u.UpdatedAt = "Renamed", true, nil, at(9).Ptr()
	u.Action.Discount = &discount.Discount{Type: discount.Percent, PercentOff: ptr(promotype.NewDecimal("12.5"))}
	must(t, s.UpdatePromotionTier(ctx, u))
	got, err := s.GetPromotionTier(ctx, p, u.ID)
	must(t, err)
	diff(t, "updated tier", u, got)
	got.Name = "mutated"
	again, _ := s.GetPromotionTier(ctx, p, u.ID)
	if again.Name != "Renamed" {
		t.Errorf("a returned tier aliases the store")
	}
	wantErr(t, "update in other project", s.UpdatePromotionTier(ctx, tier(other, "camp_1", 2)), promotype.ErrNotFound)
	wantErr(t, "delete in other project", s.DeletePromotionTier(ctx, other, u.ID), promotype.ErrNotFound)
	must(t, s.DeletePromotionTier(ctx, p, u.ID))
	_, err = s.GetPromotionTier(ctx, p, u.ID)
	wantErr(t, "deleted tier", err, promotype.ErrNotFound)
	wantErr(t, "update deleted", s.UpdatePromotionTier(ctx, u), promotype.ErrNotFound)
	wantErr(t, "delete deleted", s.DeletePromotionTier(ctx, p, u.ID), promotype.ErrNotFound)
}

func stack(projectID, campaignID string, n int, ids ...string) *campaign.PromotionStack {
	return &campaign.PromotionStack{ID: fmt.Sprintf("stack_%03d", n), ProjectID: projectID, CampaignID: campaignID,
		Name: fmt.Sprintf("Stack %03d", n), Tiers: campaign.StackTiers{IDs: ids, HierarchyMode: "MANUAL"}, CreatedAt: at(n)}
}

func testStacks(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	a := stack(p, "camp_1", 1, "promo_2", "promo_1")
	a.CategoryID = ptr("cat_1")
	must(t, s.InsertPromotionStack(ctx, a))
	must(t, s.InsertPromotionStack(ctx, stack(p, "camp_2", 2, "promo_3")))
	got, err := s.GetPromotionStack(ctx, p, a.ID)
	must(t, err)
	diff(t, "stack", a, got)
	wantErr(t, "duplicate", s.InsertPromotionStack(ctx, stack(p, "camp_1", 1, "promo_1")), promotype.ErrDuplicateFound)
	_, err = s.GetPromotionStack(ctx, other, a.ID)
	wantErr(t, "other project", err, promotype.ErrNotFound)
	items, total, err := s.ListPromotionStacks(ctx, p, promotype.Query{Limit: 10, OrderBy: "name", Desc: true})
	must(t, err)
	diff(t, "stacks by name desc", []string{"stack_002", "stack_001"}, ids(items, func(s *campaign.PromotionStack) string { return s.ID }))
	if total != 2 {
		t.Errorf("total %d", total)
	}
	items, _, err = s.ListPromotionStacks(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "campaign_id", Op: promotype.OpIs, Values: []string{"camp_2"}}}})
	must(t, err)
	diff(t, "stacks of camp_2", []string{"stack_002"}, ids(items, func(s *campaign.PromotionStack) string { return s.ID }))
	a.Name, a.Tiers.IDs, a.UpdatedAt, a.CategoryID = "Renamed", []string{"promo_1"}, at(9).Ptr(), nil
	must(t, s.UpdatePromotionStack(ctx, a))
	got, err = s.GetPromotionStack(ctx, p, a.ID)
	must(t, err)
	diff(t, "updated stack", a, got)
	wantErr(t, "update other project", s.UpdatePromotionStack(ctx, stack(other, "camp_1", 1, "promo_1")), promotype.ErrNotFound)
	must(t, s.DeletePromotionStack(ctx, p, a.ID))
	_, err = s.GetPromotionStack(ctx, p, a.ID)
	wantErr(t, "deleted", err, promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeletePromotionStack(ctx, p, a.ID), promotype.ErrNotFound)
}
