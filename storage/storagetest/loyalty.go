package storagetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

func earningRule(projectID, id, campaignID string, created int) *loyalty.EarningRule {
	points := loyalty.Int(5)
	return &loyalty.EarningRule{ID: id, ProjectID: projectID, Event: loyalty.EventOrderPaid, Active: true, Object: "earning_rule",
		CreatedAt: promotype.Time{Time: time.Date(2026, 1, 1, 0, 0, created, 0, time.UTC)},
		Loyalty:   loyalty.Earning{Type: loyalty.Fixed, Points: &points},
		Source:    loyalty.Source{Banner: "b", ObjectID: campaignID, ObjectType: "campaign"},
		Validity:  campaign.Validity{ValidityDayOfWeek: []int{1, 2}},
		Metadata:  promotype.Metadata{"k": "v"}, AutomationID: "auto_" + id}
}

// testEarningRules: the earning rule rows round-trip, list by campaign,
// event and active, update and delete, stay in their project; a claim is
// taken once per rule and order, also by concurrent transactions.
func testEarningRules(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	a, b := earningRule(p, "ern_1", "camp_1", 1), earningRule(p, "ern_2", "camp_2", 2)
	must(t, s.InsertEarningRules(ctx, a, b))
	got, err := s.GetEarningRule(ctx, p, "ern_1")
	must(t, err)
	diff(t, "earning rule", a, got)
	wantErr(t, "duplicate", s.InsertEarningRules(ctx, earningRule(p, "ern_1", "camp_1", 3)), promotype.ErrDuplicateFound)
	_, err = s.GetEarningRule(ctx, other, "ern_1")
	wantErr(t, "another project's rule", err, promotype.ErrNotFound)

	b.Active, b.UpdatedAt = false, promotype.Time{Time: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}.Ptr()
	must(t, s.UpdateEarningRule(ctx, b))
	is := func(f, v string) promotype.Condition {
		return promotype.Condition{Field: f, Op: promotype.OpIs, Values: []string{v}}
	}
	for _, tc := range []struct {
		name string
		must []promotype.Condition
		want []string
	}{
		{"all", nil, []string{"ern_1", "ern_2"}},
		{"campaign", []promotype.Condition{is("campaign_id", "camp_2")}, []string{"ern_2"}},
		{"active order.paid", []promotype.Condition{is("event", loyalty.EventOrderPaid), is("active", "true")}, []string{"ern_1"}},
	} {
		rules, total, err := s.ListEarningRules(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at", Must: tc.must})
		must(t, err)
		var ids []string
		for _, r := range rules {
			ids = append(ids, r.ID)
		}
		diff(t, "list "+tc.name, tc.want, ids)
		diff(t, "total "+tc.name, len(tc.want), total)
	}
	must(t, s.DeleteEarningRule(ctx, p, "ern_1"))
	wantErr(t, "delete twice", s.DeleteEarningRule(ctx, p, "ern_1"), promotype.ErrNotFound)
	wantErr(t, "update a deleted rule", s.UpdateEarningRule(ctx, a), promotype.ErrNotFound)

	claim := func(st loyalty.Store, project, order string) (bool, error) {
		return st.ClaimEarning(ctx, &loyalty.Claim{ProjectID: project, EarningRuleID: "ern_2", OrderID: order, CustomerID: "cust_1", Points: 5,
			CreatedAt: promotype.Time{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}})
	}
	for _, tc := range []struct {
		project, order string
		want           bool
	}{{p, "ord_1", true}, {p, "ord_1", false}, {p, "ord_2", true}, {other, "ord_1", true}} {
		got, err := claim(s, tc.project, tc.order)
		must(t, err)
		diff(t, "claim "+tc.project+" "+tc.order, tc.want, got)
	}
	claimsOnce(t, s, "16 concurrent claims of one rule and order", 16, func(ctx context.Context, tx storage.Tx) (bool, error) {
		must(t, tx.LockEarningRules(ctx, p))
		return claim(tx, p, "ord_race")
	})
	testRewardStock(t, s, p)
	testLoyaltyTiers(t, s, p)
	testPendingPoints(t, s, p)
	testPointsBuckets(t, s, p)
	testTierHolds(t, s, p)
	testTierChanges(t, s, p)
}

// testPendingPoints: entries round-trip; lists hold the PENDING ones of a
// campaign or card in id order, after a cursor, both ways; due entries
// come earliest first.
func testPendingPoints(t *testing.T, s storage.Store, p string) {
	day := func(d int) promotype.Time { return promotype.Time{Time: time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC)} }
	entry := func(id, voucherID, campaignID string, due int) *loyalty.PendingPoints {
		return &loyalty.PendingPoints{ID: id, ProjectID: p, VoucherID: voucherID, CampaignID: campaignID, CustomerID: "cust_1", OrderID: ptr("ord_" + id),
			Points: 10, ActivatesAt: day(due).Format(time.DateOnly), Status: loyalty.PendingState, Due: day(due), CreatedAt: day(1), UpdatedAt: day(1)}
	}
	entries := []*loyalty.PendingPoints{entry("lopp_1", "v_1", "camp_1", 5), entry("lopp_2", "v_1", "camp_1", 3), entry("lopp_3", "v_2", "camp_1", 4), entry("lopp_4", "v_3", "camp_2", 2)}
	for _, e := range entries {
		must(t, s.InsertPendingPoints(ctx, e))
	}
	got, err := s.GetPendingPoints(ctx, p, "lopp_1")
	must(t, err)
	diff(t, "pending entry", entries[0], got)
	done := entries[3].Clone()
	done.Status = loyalty.ActivatedState
	must(t, s.UpdatePendingPoints(ctx, done))
	ids := func(ps []*loyalty.PendingPoints, err error) []string {
		t.Helper()
		must(t, err)
		out := []string{}
		for _, e := range ps {
			out = append(out, e.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    loyalty.PendingQuery
		want []string
	}{
		{"all pending", loyalty.PendingQuery{Limit: 10}, []string{"lopp_1", "lopp_2", "lopp_3"}},
		{"of a card", loyalty.PendingQuery{VoucherID: "v_1", Limit: 10}, []string{"lopp_1", "lopp_2"}},
		{"of a campaign, after a cursor", loyalty.PendingQuery{CampaignID: "camp_1", AfterID: "lopp_1", Limit: 10}, []string{"lopp_2", "lopp_3"}},
		{"descending, limited", loyalty.PendingQuery{Desc: true, Limit: 2}, []string{"lopp_3", "lopp_2"}},
		{"descending after a cursor", loyalty.PendingQuery{Desc: true, AfterID: "lopp_3", Limit: 10}, []string{"lopp_2", "lopp_1"}},
	} {
		diff(t, "pending list "+tc.name, tc.want, ids(s.ListPendingPoints(ctx, p, tc.q)))
	}
	diff(t, "due by the 4th", []string{"lopp_2", "lopp_3"}, ids(s.DuePendingPoints(ctx, p, day(4), 10)))
	diff(t, "due in another project", []string{}, ids(s.DuePendingPoints(ctx, "proj_b", day(9), 10)))
}

// testLoyaltyTiers: tiers round-trip, list by campaign, stay in their
// project.
func testLoyaltyTiers(t *testing.T, s storage.Store, p string) {
	from, to := int64(1), int64(249)
	multiplier := promotype.NewDecimal("1.5")
	bottom := &loyalty.Tier{ID: "ltr_1", ProjectID: p, CampaignID: "camp_1", Name: "Bottom", Points: loyalty.TierPoints{From: &from, To: &to},
		Config: loyalty.TierConfig{Points: loyalty.TierPoints{From: &from, To: &to}}, Object: "loyalty_tier",
		EarningRules: map[string]loyalty.Mapping{"ern_2": {Type: loyalty.MappingMultiply, Multiplier: &multiplier}},
		Rewards:      map[string]loyalty.Mapping{}, Metadata: promotype.Metadata{}, CreatedAt: promotype.Time{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}}
	top := bottom.Clone()
	top.ID, top.CampaignID, top.Name, top.Points, top.Config = "ltr_2", "camp_2", "Top", loyalty.TierPoints{From: &to}, loyalty.TierConfig{Points: loyalty.TierPoints{From: &to}}
	must(t, s.InsertTiers(ctx, bottom, top))
	got, err := s.GetTier(ctx, p, "ltr_1")
	must(t, err)
	diff(t, "tier", bottom, got)
	wantErr(t, "duplicate tier", s.InsertTiers(ctx, bottom), promotype.ErrDuplicateFound)
	_, err = s.GetTier(ctx, "proj_b", "ltr_1")
	wantErr(t, "another project's tier", err, promotype.ErrNotFound)
	tiers, total, err := s.ListTiers(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "campaign_id", Op: promotype.OpIs, Values: []string{"camp_2"}}}})
	must(t, err)
	if total != 1 || len(tiers) != 1 || tiers[0].ID != "ltr_2" {
		t.Errorf("tiers of camp_2: %d %v", total, tiers)
	}
}

// testRewardStock: of 20 concurrent takes of a reward with stock 7,
// exactly 7 succeed and redeemed ends at 7; a reward without stock limit
// always gives.
func testRewardStock(t *testing.T, s storage.Store, p string) {
	limited := rewardRow(p, 2) // MATERIAL, stock 7
	unlimited := rewardRow(p, 5)
	unlimited.Stock = nil
	must(t, s.InsertReward(ctx, limited))
	must(t, s.InsertReward(ctx, unlimited))
	var mu sync.Mutex
	taken := 0
	_, errs := runConcurrently(t, "concurrent stock takes", 20, func(int) error {
		ok, err := s.TakeRewardStock(ctx, p, limited.ID)
		if ok {
			mu.Lock()
			taken++
			mu.Unlock()
		}
		return err
	})
	got, err := s.GetReward(ctx, p, limited.ID)
	must(t, err)
	if taken != 7 || len(errs) != 0 || got.Redeemed == nil || *got.Redeemed != 7 {
		t.Errorf("20 takes of a stock of 7: %d taken, redeemed %v, errors %v", taken, got.Redeemed, errs)
	}
	for range 3 {
		ok, err := s.TakeRewardStock(ctx, p, unlimited.ID)
		must(t, err)
		diff(t, "take unlimited stock", true, ok)
	}
	ok, err := s.TakeRewardStock(ctx, "proj_b", limited.ID)
	if ok {
		t.Errorf("another project took the reward's stock (err %v)", err)
	}
}

// testPointsBuckets: buckets round-trip; a card's are listed in spending
// order (earliest due first, never last) with their total, its ACTIVE
// ones with points left (or due) are read for a spend; due ones come in
// (due, id) order after a cursor, per project; cards lock and take their
// loyalty_card fields; nothing crosses projects.
func testPointsBuckets(t *testing.T, s storage.Store, p string) {
	day := func(d int) *promotype.Time { return &promotype.Time{Time: time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC)} }
	bucket := func(id, card string, points int64, due *promotype.Time, created int) *voucher.PointsBucket {
		b := &voucher.PointsBucket{ID: id, ProjectID: p, VoucherID: card, CampaignID: "camp_1", Points: points,
			Bucket: voucher.BucketPoints{TotalPoints: points}, Status: voucher.BucketActive, Due: due,
			CreatedAt: *day(created), UpdatedAt: day(created), Object: "loyalty_points_bucket"}
		if due != nil {
			on := due.AddDate(0, 0, -1).Format(time.DateOnly)
			b.ExpiresAt = &on
		}
		return b
	}
	bs := []*voucher.PointsBucket{bucket("lopb_1", "v_c1", 10, nil, 1), bucket("lopb_2", "v_c1", 20, day(20), 2),
		bucket("lopb_3", "v_c1", 30, day(10), 3), bucket("lopb_4", "v_c2", 40, day(10), 1)}
	must(t, s.InsertBuckets(ctx, bs...))
	wantErr(t, "duplicate bucket", s.InsertBuckets(ctx, bucket("lopb_1", "v_c1", 1, nil, 1)), promotype.ErrDuplicateFound)
	list, total, err := s.ListBuckets(ctx, p, "v_c1", 10, 0)
	must(t, err)
	diff(t, "card buckets in spending order", []*voucher.PointsBucket{bs[2], bs[1], bs[0]}, list)
	if total != 3 {
		t.Errorf("card bucket total %d, want 3", total)
	}
	list, total, err = s.ListBuckets(ctx, p, "v_c1", 1, 1)
	must(t, err)
	diff(t, "second page of one", []string{"lopb_2"}, ids(list, func(b *voucher.PointsBucket) string { return b.ID }))
	diff(t, "total beside a page", 3, total)
	spent := bs[2].Clone()
	spent.Bucket.TotalPoints, spent.UpdatedAt = 0, day(5)
	must(t, s.UpdateBuckets(ctx, spent))
	read, err := s.CardBuckets(ctx, p, []string{"v_c1", "v_c2"}, promotype.Time{})
	must(t, err)
	slices.SortFunc(read, voucher.SpendOrder)
	diff(t, "buckets with points left", []string{"lopb_4", "lopb_2", "lopb_1"}, ids(read, func(b *voucher.PointsBucket) string { return b.ID }))
	read, err = s.CardBuckets(ctx, p, []string{"v_c1"}, *day(10))
	must(t, err)
	slices.SortFunc(read, voucher.SpendOrder)
	diff(t, "with the empty one due", []*voucher.PointsBucket{spent, bs[1], bs[0]}, read)

	byID := func(b *voucher.PointsBucket) string { return b.ID }
	due, err := s.DueBuckets(ctx, p, *day(10), nil, 10)
	must(t, err)
	diff(t, "due by the 10th", []string{"lopb_3", "lopb_4"}, ids(due, byID))
	due, err = s.DueBuckets(ctx, p, *day(20), due[0], 10)
	must(t, err)
	diff(t, "due by the 20th after lopb_3", []string{"lopb_4", "lopb_2"}, ids(due, byID))
	projects, err := s.ProjectsWithDueBuckets(ctx, *day(10), 10)
	must(t, err)
	diff(t, "projects with due buckets", []string{p}, projects)
	due, err = s.DueBuckets(ctx, "proj_b", *day(30), nil, 10)
	must(t, err)
	diff(t, "due in another project", []string{}, ids(due, byID))
	gone := bs[3].Clone()
	gone.Status, gone.UpdatedAt = voucher.BucketExpired, day(10)
	must(t, s.UpdateBuckets(ctx, gone))
	list, _, err = s.ListBuckets(ctx, p, "v_c2", 10, 0)
	must(t, err)
	diff(t, "an expired bucket is not listed", []string{}, ids(list, byID))

	card := discountVoucher(p, "", 7)
	card.Type, card.Discount, card.LoyaltyCard = campaign.LoyaltyCard, nil, &voucher.LoyaltyCard{Points: 100, Balance: 60}
	must(t, s.InsertVoucher(ctx, card))
	must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		locked, err := tx.LockCards(ctx, p, []string{card.ID, "v_missing"})
		if err != nil {
			return err
		}
		diff(t, "locked cards", []string{card.ID}, ids(locked, func(v *voucher.Voucher) string { return v.ID }))
		c := locked[0]
		c.LoyaltyCard.Balance, c.LoyaltyCard.ExpiredPoints, c.LoyaltyCard.NextExpirationDate = 50, ptr(int64(10)), ptr("2026-04-01")
		c.UpdatedAt = day(11)
		return tx.SetLoyaltyCards(ctx, p, c)
	}))
	got, err := s.GetVoucher(ctx, p, card.ID)
	must(t, err)
	diff(t, "card after SetLoyaltyCards", &voucher.LoyaltyCard{Points: 100, Balance: 50, ExpiredPoints: ptr(int64(10)), NextExpirationDate: ptr("2026-04-01")}, got.LoyaltyCard)
	locked, err := s.LockCards(ctx, "proj_b", []string{card.ID})
	must(t, err)
	diff(t, "another project's card", []string{}, ids(locked, func(v *voucher.Voucher) string { return v.ID }))
}

// testTierHolds: a card's hold round-trips and is replaced; holds with an
// end come due in end order, in their project only; points collected are
// summed from the buckets opened since a time, spent or not.
func testTierHolds(t *testing.T, s storage.Store, p string) {
	at := func(d int) promotype.Time { return promotype.Time{Time: time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC)} }
	hold := func(card, tier string, due int) *loyalty.TierHold {
		h := &loyalty.TierHold{ProjectID: p, VoucherID: card, CampaignID: "camp_1", CustomerID: "cust_1", TierID: tier,
			StartDate: "2026-03-01", CreatedAt: at(1), UpdatedAt: at(1)}
		if due > 0 {
			end, d := at(due-1).Format(time.DateOnly), at(due)
			h.ExpirationDate, h.Due = &end, &d
		}
		return h
	}
	none, err := s.GetTierHold(ctx, p, "v_h1")
	must(t, err)
	if none != nil {
		t.Errorf("a card without a hold reads %+v, want nil", none)
	}
	h1, h2, h3 := hold("v_h1", "ltr_a", 0), hold("v_h2", "ltr_a", 20), hold("v_h3", "ltr_b", 10)
	for _, h := range []*loyalty.TierHold{h1, h2, h3} {
		must(t, s.PutTierHold(ctx, h))
	}
	moved := hold("v_h1", "ltr_b", 15)
	moved.StartDate, moved.UpdatedAt = "2026-03-05", at(5)
	must(t, s.PutTierHold(ctx, moved))
	got, err := s.GetTierHold(ctx, p, "v_h1")
	must(t, err)
	diff(t, "a hold replaced", moved, got)
	byCard := func(h *loyalty.TierHold) string { return h.VoucherID }
	due, err := s.DueTierHolds(ctx, p, at(15), 10)
	must(t, err)
	diff(t, "holds due by the 15th, earliest first", []string{"v_h3", "v_h1"}, ids(due, byCard))
	due, err = s.DueTierHolds(ctx, p, at(30), 1)
	must(t, err)
	diff(t, "one due hold", []string{"v_h3"}, ids(due, byCard))
	projects, err := s.ProjectsWithDueTierHolds(ctx, at(10), 10)
	must(t, err)
	diff(t, "projects with due holds", []string{p}, projects)
	due, err = s.DueTierHolds(ctx, "proj_b", at(30), 10)
	must(t, err)
	diff(t, "due holds of another project", []string{}, ids(due, byCard))
	other, err := s.GetTierHold(ctx, "proj_b", "v_h1")
	must(t, err)
	if other != nil {
		t.Errorf("another project reads the hold %+v", other)
	}
	must(t, s.DeleteTierHold(ctx, p, "v_h3"))
	must(t, s.DeleteTierHold(ctx, p, "v_h3"))
	due, err = s.DueTierHolds(ctx, p, at(30), 10)
	must(t, err)
	diff(t, "due holds after a delete", []string{"v_h1", "v_h2"}, ids(due, byCard))

	// v_c1's buckets (testPointsBuckets) were opened on the 1st (10), 2nd
	// (20) and 3rd (30); one of them is spent since.
	for _, tc := range []struct {
		since int
		want  int64
	}{{1, 60}, {2, 50}, {3, 30}, {4, 0}} {
		n, err := s.CollectedPoints(ctx, p, "v_c1", at(tc.since))
		must(t, err)
		if n != tc.want {
			t.Errorf("points collected since the %d: %d, want %d", tc.since, n, tc.want)
		}
	}
	n, err := s.CollectedPoints(ctx, "proj_b", "v_c1", at(1))
	must(t, err)
	if n != 0 {
		t.Errorf("points collected by another project's card: %d", n)
	}
}

// testTierChanges: changes are listed oldest first, in their project only;
// of concurrent deletes of one change exactly one takes it.
func testTierChanges(t *testing.T, s storage.Store, p string) {
	at := func(m int) promotype.Time { return promotype.Time{Time: time.Date(2026, 3, 1, 0, m, 0, 0, time.UTC)} }
	change := func(id string, m int) *loyalty.TierChange {
		return &loyalty.TierChange{ProjectID: p, ID: id, VoucherID: "v_1", CustomerID: "cust_1", CampaignID: "camp_1",
			TierID: "ltr_1", Event: loyalty.EventTierJoined, CreatedAt: at(m)}
	}
	must(t, s.InsertTierChanges(ctx, change("evt_b", 1), change("evt_a", 2), change("evt_c", 1)))
	wantErr(t, "duplicate change", s.InsertTierChanges(ctx, change("evt_a", 3)), promotype.ErrDuplicateFound)
	byID := func(c *loyalty.TierChange) string { return c.ID }
	got, err := s.TierChanges(ctx, p, 10)
	must(t, err)
	diff(t, "changes oldest first", []*loyalty.TierChange{change("evt_b", 1), change("evt_c", 1), change("evt_a", 2)}, got)
	got, err = s.TierChanges(ctx, p, 1)
	must(t, err)
	diff(t, "the first change", []string{"evt_b"}, ids(got, byID))
	got, err = s.TierChanges(ctx, "proj_b", 10)
	must(t, err)
	diff(t, "another project's changes", []string{}, ids(got, byID))
	projects, err := s.ProjectsWithTierChanges(ctx, 10)
	must(t, err)
	diff(t, "projects with changes", []string{p}, projects)

	var mu sync.Mutex
	taken := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				ok, err := tx.DeleteTierChange(ctx, p, "evt_b")
				if ok {
					mu.Lock()
					taken++
					mu.Unlock()
				}
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if taken != 1 {
		t.Errorf("8 concurrent deletes of one change: %d took it, want 1", taken)
	}
	for _, id := range []string{"evt_a", "evt_c"} {
		ok, err := s.DeleteTierChange(ctx, p, id)
		must(t, err)
		if !ok {
			t.Errorf("delete of %s took nothing", id)
		}
	}
	projects, err = s.ProjectsWithTierChanges(ctx, 10)
	must(t, err)
	diff(t, "projects with changes after deletes", []string{}, projects)
}
