package storagetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// fullCampaign is a campaign with every stored field set.
func fullCampaign(projectID string, n int) *campaign.Campaign {
	return &campaign.Campaign{
		ID:           fmt.Sprintf("camp_%03d", n),
		ProjectID:    projectID,
		Name:         fmt.Sprintf("Campaign %03d", n),
		Description:  ptr("All of it"),
		CampaignType: campaign.DiscountCoupons,
		Type:         campaign.AutoUpdate,
		Voucher: &campaign.VoucherSettings{
			Type:       campaign.DiscountVoucher,
			Discount:   &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: ptr(promotype.NewDecimal("12.5")), AmountLimit: ptr(promotype.NewDecimal("500")), Effect: campaign.EffectApplyToOrder},
			Redemption: campaign.RedemptionSettings{Quantity: ptr(int64(3))},
			CodeConfig: campaign.CodeConfig{Length: ptr(4), Charset: ptr("ABC"), Pattern: ptr("X-####"), Prefix: ptr("P"), Postfix: ptr("S")},
		},
		AutoJoin: true, JoinOnce: true, UseVoucherMetadataSchema: true,
		Validity: campaign.Validity{
			StartDate: at(1).Ptr(), ExpirationDate: at(100).Ptr(),
			ValidityTimeframe: &campaign.ValidityTimeframe{Interval: "P2D", Duration: "PT1H"},
			ValidityDayOfWeek: []int{1, 3},
			ValidityHours:     &campaign.ValidityHours{Daily: []campaign.DailyHours{{StartTime: "10:00", ExpirationTime: "12:00", DaysOfWeek: []int{1}}}},
		},
		ActivityDurationAfterPublishing: ptr("P24D"),
		VouchersCount:                   7,
		Active:                          true,
		Metadata:                        promotype.Metadata{"region": "EU", "n": float64(n)},
		CreatedAt:                       at(n),
		CreationStatus:                  campaign.StatusDone,
		VouchersGenerationStatus:        campaign.StatusDone,
		CategoryID:                      ptr("cat_1"),
		ReferralProgram:                 &campaign.ReferralSettings{ConversionEventType: ptr("redemption")},
		LoyaltyTiersExpiration:          json.RawMessage(`{"qualification_type":"BALANCE"}`),
		Revision:                        2,
	}
}

func bareCampaign(projectID string, n int, ct campaign.CampaignType) *campaign.Campaign {
	c := &campaign.Campaign{ID: fmt.Sprintf("camp_%03d", n), ProjectID: projectID, Name: fmt.Sprintf("Campaign %03d", n),
		CampaignType: ct, Type: campaign.Static, Metadata: promotype.Metadata{}, CreatedAt: at(n),
		CreationStatus: campaign.StatusDone, VouchersGenerationStatus: campaign.StatusDone}
	if ct.HasVouchers() {
		c.Voucher = &campaign.VoucherSettings{Type: ct.VoucherType(), CodeConfig: campaign.CodeConfig{Length: ptr(8), Charset: ptr("ab"), Pattern: ptr("########")}}
	}
	return c
}

func campaignIDs(t *testing.T, s storage.Store, p string, q promotype.Query) []string {
	t.Helper()
	items, total, err := s.ListCampaigns(ctx, p, q)
	must(t, err)
	if total < len(items) {
		t.Errorf("total %d below the page's %d items", total, len(items))
	}
	return ids(items, func(c *campaign.Campaign) string { return c.ID })
}

func testCampaigns(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := fullCampaign(p, 1)
	must(t, s.InsertCampaign(ctx, want))
	got, err := s.GetCampaign(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	got, err = s.FindCampaignByName(ctx, p, want.Name)
	must(t, err)
	diff(t, "find by name", want, got)

	bare := bareCampaign(p, 2, campaign.Promotion)
	must(t, s.InsertCampaign(ctx, bare))
	got, err = s.GetCampaign(ctx, p, bare.ID)
	must(t, err)
	diff(t, "bare campaign", bare, got)

	wantErr(t, "same id", s.InsertCampaign(ctx, fullCampaign(p, 1)), promotype.ErrDuplicateFound)
	clash := bareCampaign(p, 3, campaign.GiftVouchers)
	clash.Name = want.Name
	wantErr(t, "same name", s.InsertCampaign(ctx, clash), promotype.ErrDuplicateFound)
	wantErr(t, "refused insert left nothing", second(s.GetCampaign(ctx, p, clash.ID)), promotype.ErrNotFound)

	// Update replaces every field but vouchers_count.
	upd := want.Clone()
	upd.Description, upd.Voucher.Discount = nil, nil
	upd.CreationStatus, upd.VouchersGenerationStatus = campaign.StatusModifying, campaign.StatusModifying
	upd.Metadata = promotype.Metadata{}
	upd.ValidityDayOfWeek = []int{}
	upd.UpdatedAt = at(50).Ptr()
	upd.VouchersCount = 999
	upd.Revision = 3
	must(t, s.UpdateCampaign(ctx, upd))
	got, err = s.GetCampaign(ctx, p, want.ID)
	must(t, err)
	upd.VouchersCount = 7
	diff(t, "after update", upd, got)
	if got.ValidityDayOfWeek == nil {
		t.Error("an empty validity_day_of_week came back null")
	}
	other := bareCampaign(p, 3, campaign.GiftVouchers)
	must(t, s.InsertCampaign(ctx, other))
	other.Name = want.Name
	wantErr(t, "update onto a taken name", s.UpdateCampaign(ctx, other), promotype.ErrDuplicateFound)
	wantErr(t, "update missing", s.UpdateCampaign(ctx, bareCampaign(p, 9, campaign.Promotion)), promotype.ErrNotFound)

	// Counts and statuses.
	must(t, s.AddCampaignVouchers(ctx, p, want.ID, 5))
	must(t, s.AddCampaignVouchers(ctx, p, want.ID, -2))
	got, _ = s.GetCampaign(ctx, p, want.ID)
	if got.VouchersCount != 10 {
		t.Errorf("vouchers_count = %d, want 10", got.VouchersCount)
	}
	wantErr(t, "count of a missing campaign", s.AddCampaignVouchers(ctx, p, "camp_nope", 1), promotype.ErrNotFound)
	set, err := s.SetCampaignStatus(ctx, p, want.ID, campaign.StatusDone, 2)
	must(t, err)
	if set {
		t.Error("status set although the revision differs")
	}
	if set, err = s.SetCampaignStatus(ctx, p, want.ID, campaign.StatusDone, 3); err != nil || !set {
		t.Errorf("status with the right revision: %v, %v", set, err)
	}
	if set, err = s.SetCampaignStatus(ctx, p, want.ID, campaign.StatusFailed, -1); err != nil || !set {
		t.Errorf("status without revision: %v, %v", set, err)
	}
	got, _ = s.GetCampaign(ctx, p, want.ID)
	if got.CreationStatus != campaign.StatusFailed || got.VouchersGenerationStatus != campaign.StatusFailed {
		t.Errorf("statuses %s, %s", got.CreationStatus, got.VouchersGenerationStatus)
	}
	_, err = s.SetCampaignStatus(ctx, p, "camp_nope", campaign.StatusDone, -1)
	wantErr(t, "status of a missing campaign", err, promotype.ErrNotFound)

	// Lists: order, filters, total.
	q := func(cs ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 10, OrderBy: "created_at", Filter: promotype.Filter{Junction: promotype.JunctionAnd, Conditions: cs}}
	}
	diff(t, "all", []string{"camp_001", "camp_002", "camp_003"}, campaignIDs(t, s, p, q()))
	diff(t, "by type", []string{"camp_003"}, campaignIDs(t, s, p, q(cond("campaign_type", promotype.OpIs, "GIFT_VOUCHERS"))))
	diff(t, "by voucher type", []string{"camp_001"}, campaignIDs(t, s, p, q(cond("voucher_type", promotype.OpIs, "DISCOUNT_VOUCHER"))))
	diff(t, "active", []string{"camp_001"}, campaignIDs(t, s, p, q(cond("active", promotype.OpIs, "true"))))
	diff(t, "no voucher type", []string{"camp_002"}, campaignIDs(t, s, p, q(cond("voucher_type", promotype.OpIsUnknown))))
	diff(t, "started", []string{"camp_001"}, campaignIDs(t, s, p, q(promotype.Condition{Field: "start_date", Op: promotype.OpBefore, At: at(2)})))
	desc := q()
	desc.Desc, desc.Limit = true, 2
	diff(t, "desc page", []string{"camp_003", "camp_002"}, campaignIDs(t, s, p, desc))

	// The bin frees the name; the row is still there for a delete.
	must(t, s.BinCampaign(ctx, p, want.ID, at(60)))
	wantErr(t, "get binned", second(s.GetCampaign(ctx, p, want.ID)), promotype.ErrNotFound)
	wantErr(t, "find binned", second(s.FindCampaignByName(ctx, p, want.Name)), promotype.ErrNotFound)
	wantErr(t, "update binned", s.UpdateCampaign(ctx, want), promotype.ErrNotFound)
	wantErr(t, "bin twice", s.BinCampaign(ctx, p, want.ID, at(61)), promotype.ErrNotFound)
	must(t, s.AddCampaignVouchers(ctx, p, want.ID, -1)) // counts still work on the binned row
	diff(t, "list after bin", []string{"camp_002", "camp_003"}, campaignIDs(t, s, p, q()))
	again := bareCampaign(p, 4, campaign.DiscountCoupons)
	again.Name = want.Name
	must(t, s.InsertCampaign(ctx, again))
	must(t, s.DeleteCampaign(ctx, p, want.ID))
	wantErr(t, "delete twice", s.DeleteCampaign(ctx, p, want.ID), promotype.ErrNotFound)
	must(t, s.DeleteCampaign(ctx, p, again.ID))

	// Categories.
	cat := &campaign.Category{ID: "cat_1", ProjectID: p, Name: "First", Hierarchy: 2, CreatedAt: at(1)}
	must(t, s.InsertCategory(ctx, cat))
	gotCat, err := s.GetCategory(ctx, p, "cat_1")
	must(t, err)
	diff(t, "category", cat, gotCat)
	gotCat, err = s.FindCategoryByName(ctx, p, "First")
	must(t, err)
	diff(t, "category by name", cat, gotCat)
	wantErr(t, "category name taken", s.InsertCategory(ctx, &campaign.Category{ID: "cat_2", ProjectID: p, Name: "First", CreatedAt: at(2)}), promotype.ErrDuplicateFound)
	wantErr(t, "category id taken", s.InsertCategory(ctx, &campaign.Category{ID: "cat_1", ProjectID: p, Name: "Other", CreatedAt: at(2)}), promotype.ErrDuplicateFound)
	must(t, s.InsertCategory(ctx, &campaign.Category{ID: "cat_3", ProjectID: p, Name: "Third", CreatedAt: at(3)}))
	cats, total, err := s.ListCategories(ctx, p, promotype.Query{Limit: 10, OrderBy: "name", Desc: true})
	must(t, err)
	diff(t, "categories by name", []string{"cat_3", "cat_1"}, ids(cats, func(c *campaign.Category) string { return c.ID }))
	if total != 2 {
		t.Errorf("categories total %d", total)
	}
	wantErr(t, "missing category", second(s.GetCategory(ctx, p, "cat_nope")), promotype.ErrNotFound)
	wantErr(t, "missing category name", second(s.FindCategoryByName(ctx, p, "Nope")), promotype.ErrNotFound)

	// Isolation.
	b := newProject(t, s, "proj_b")
	must(t, s.InsertCampaign(ctx, bareCampaign(b, 2, campaign.Promotion))) // same id and name in another project
	wantErr(t, "project b reads a's campaign", second(s.GetCampaign(ctx, b, "camp_003")), promotype.ErrNotFound)
	wantErr(t, "project b reads a's category", second(s.GetCategory(ctx, b, "cat_1")), promotype.ErrNotFound)
	wantErr(t, "project b bins a's campaign", s.BinCampaign(ctx, b, "camp_003", at(9)), promotype.ErrNotFound)
	if ids := campaignIDs(t, s, b, q()); len(ids) != 1 {
		t.Errorf("project b lists %v", ids)
	}
}

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

// testCategoryWrites covers UpdateCategory, DeleteCategory and
// CategoryInUse: a name stays unique, and a category is in use while a live
// campaign, voucher, tier or stack names it.
func testCategoryWrites(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	b := newProject(t, s, "proj_b")
	for i, name := range []string{"First", "Second"} {
		must(t, s.InsertCategory(ctx, &campaign.Category{ID: fmt.Sprintf("cat_%d", i+1), ProjectID: p, Name: name, CreatedAt: at(i)}))
	}
	upd := &campaign.Category{ID: "cat_1", ProjectID: p, Name: "Renamed", Hierarchy: 7, CreatedAt: at(0), UpdatedAt: at(5).Ptr()}
	must(t, s.UpdateCategory(ctx, upd))
	got, err := s.FindCategoryByName(ctx, p, "Renamed")
	must(t, err)
	diff(t, "updated category", upd, got)
	wantErr(t, "old name", second(s.FindCategoryByName(ctx, p, "First")), promotype.ErrNotFound)
	clash := upd.Clone()
	clash.Name = "Second"
	wantErr(t, "name taken", s.UpdateCategory(ctx, clash), promotype.ErrDuplicateFound)
	wantErr(t, "missing", s.UpdateCategory(ctx, &campaign.Category{ID: "cat_nope", ProjectID: p, Name: "X", CreatedAt: at(0)}), promotype.ErrNotFound)
	wantErr(t, "project b updates a's", s.UpdateCategory(ctx, &campaign.Category{ID: "cat_1", ProjectID: b, Name: "X", CreatedAt: at(0)}), promotype.ErrNotFound)

	inUse := func(name, id string, want bool) {
		t.Helper()
		used, err := s.CategoryInUse(ctx, p, id)
		must(t, err)
		if used != want {
			t.Errorf("%s: in use = %v, want %v", name, used, want)
		}
	}
	inUse("unused", "cat_1", false)
	c := bareCampaign(p, 1, campaign.Promotion)
	c.CategoryID = ptr("cat_1")
	must(t, s.InsertCampaign(ctx, c))
	inUse("campaign", "cat_1", true)
	must(t, s.BinCampaign(ctx, p, c.ID, at(9)))
	inUse("binned campaign", "cat_1", false)
	tr := tier(p, "camp_001", 2) // names cat_1
	must(t, s.InsertPromotionTier(ctx, tr))
	inUse("tier", "cat_1", true)
	must(t, s.DeletePromotionTier(ctx, p, tr.ID))
	st := stack(p, "camp_001", 1)
	st.CategoryID = ptr("cat_1")
	must(t, s.InsertPromotionStack(ctx, st))
	inUse("stack", "cat_1", true)
	must(t, s.DeletePromotionStack(ctx, p, st.ID))
	v := discountVoucher(p, "", 1)
	v.CategoryID = ptr("cat_1")
	must(t, s.InsertVoucher(ctx, v))
	inUse("voucher", "cat_1", true)
	used, err := s.CategoryInUse(ctx, b, "cat_1")
	must(t, err)
	if used {
		t.Error("project b sees a's category in use")
	}

	wantErr(t, "project b deletes a's", s.DeleteCategory(ctx, b, "cat_2"), promotype.ErrNotFound)
	must(t, s.DeleteCategory(ctx, p, "cat_2"))
	wantErr(t, "deleted", second(s.GetCategory(ctx, p, "cat_2")), promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteCategory(ctx, p, "cat_2"), promotype.ErrNotFound)
	must(t, s.InsertCategory(ctx, &campaign.Category{ID: "cat_3", ProjectID: p, Name: "Second", CreatedAt: at(3)})) // the name is free again
}

// campaignTemplate is template n of project p, named "Template <n>".
func campaignTemplate(p string, n int, ct campaign.CampaignType) *campaign.Template {
	pct := 10.0 + float64(n)
	typ := campaign.Static
	return &campaign.Template{ID: fmt.Sprintf("camp_tpl_%03d", n), ProjectID: p, Name: fmt.Sprintf("Template %03d", n),
		Description: ptr("described"), CampaignType: ct, CreatedAt: at(n), Object: "campaign_template",
		Definition: campaign.Params{CampaignType: &ct, Type: &typ, Metadata: promotype.Metadata{"n": float64(n)},
			ValidationRules: []string{"val_1"}, StartDate: ptr(at(100)),
			Voucher: &campaign.VoucherParams{Discount: &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: ptr(promotype.NewDecimal(fmt.Sprint(pct)))}}}}
}

// testCampaignTemplates: templates are stored whole (their definition
// too), the caller's own, unique by name in their project, listed by id
// in either direction after a cursor and with filters, counted, updated
// and deleted; another project's are not found.
func testCampaignTemplates(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	one := campaignTemplate(a, 1, campaign.DiscountCoupons)
	must(t, s.InsertCampaignTemplate(ctx, one))
	must(t, s.InsertCampaignTemplate(ctx, campaignTemplate(a, 2, campaign.GiftVouchers)))
	must(t, s.InsertCampaignTemplate(ctx, campaignTemplate(a, 3, campaign.DiscountCoupons)))
	must(t, s.InsertCampaignTemplate(ctx, campaignTemplate(b, 4, campaign.DiscountCoupons)))
	taken := campaignTemplate(a, 5, campaign.DiscountCoupons)
	taken.Name = one.Name
	wantErr(t, "name taken", s.InsertCampaignTemplate(ctx, taken), promotype.ErrDuplicateFound)
	wantErr(t, "id taken", s.InsertCampaignTemplate(ctx, campaignTemplate(a, 1, campaign.DiscountCoupons)), promotype.ErrDuplicateFound)
	sameName := campaignTemplate(b, 6, campaign.DiscountCoupons)
	sameName.Name = one.Name
	must(t, s.InsertCampaignTemplate(ctx, sameName)) // names are unique per project

	got, err := s.GetCampaignTemplate(ctx, a, one.ID)
	must(t, err)
	diff(t, "get", one, got)
	got.Definition.Metadata["n"], got.Name = "changed", "changed"
	again, err := s.GetCampaignTemplate(ctx, a, one.ID)
	must(t, err)
	diff(t, "after mutating a returned value", one, again)
	_, err = s.GetCampaignTemplate(ctx, b, one.ID)
	wantErr(t, "another project's", err, promotype.ErrNotFound)

	list := func(q promotype.Query, after string) []string {
		t.Helper()
		ts, err := s.ListCampaignTemplates(ctx, a, q, after)
		must(t, err)
		return ids(ts, func(t *campaign.Template) string { return t.ID })
	}
	diff(t, "list", []string{"camp_tpl_001", "camp_tpl_002", "camp_tpl_003"}, list(promotype.Query{Limit: 10, OrderBy: "id"}, ""))
	diff(t, "descending after 003", []string{"camp_tpl_002"}, list(promotype.Query{Limit: 1, OrderBy: "id", Desc: true}, "camp_tpl_003"))
	diff(t, "ascending after 001", []string{"camp_tpl_002", "camp_tpl_003"}, list(promotype.Query{Limit: 10, OrderBy: "id"}, "camp_tpl_001"))
	gifts := promotype.Query{Limit: 10, OrderBy: "id", Filter: promotype.Filter{Conditions: []promotype.Condition{
		{Field: "campaign_type", Op: promotype.OpIs, Values: []string{string(campaign.GiftVouchers)}}}}}
	diff(t, "gift templates", []string{"camp_tpl_002"}, list(gifts, ""))
	n, err := s.CountCampaignTemplates(ctx, a)
	must(t, err)
	if n != 3 {
		t.Errorf("count: %d, want 3", n)
	}

	upd := one.Clone()
	upd.Name, upd.UpdatedAt = "Renamed", ptr(at(50))
	must(t, s.UpdateCampaignTemplate(ctx, upd))
	got, err = s.GetCampaignTemplate(ctx, a, one.ID)
	must(t, err)
	diff(t, "updated", upd, got)
	clash := upd.Clone()
	clash.Name = "Template 002"
	wantErr(t, "update to a taken name", s.UpdateCampaignTemplate(ctx, clash), promotype.ErrDuplicateFound)
	missing := campaignTemplate(a, 9, campaign.DiscountCoupons)
	wantErr(t, "update a missing one", s.UpdateCampaignTemplate(ctx, missing), promotype.ErrNotFound)

	must(t, s.DeleteCampaignTemplate(ctx, a, one.ID))
	_, err = s.GetCampaignTemplate(ctx, a, one.ID)
	wantErr(t, "deleted", err, promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteCampaignTemplate(ctx, a, one.ID), promotype.ErrNotFound)
	wantErr(t, "delete another project's", s.DeleteCampaignTemplate(ctx, a, "camp_tpl_004"), promotype.ErrNotFound)
	reused := campaignTemplate(a, 7, campaign.DiscountCoupons)
	reused.Name = "Renamed"
	must(t, s.InsertCampaignTemplate(ctx, reused)) // the deleted one's name is free
}
