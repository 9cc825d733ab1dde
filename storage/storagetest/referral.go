package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/referral"
	"github.com/promoengine/promo/storage"
)

func conversion(projectID, campaignID, referee, referrer string, sec int) *referral.Conversion {
	return &referral.Conversion{ProjectID: projectID, CampaignID: campaignID, RefereeID: referee, ReferrerID: referrer,
		VoucherID: "v_code", RelatedObjectType: referral.RelatedRedemption, RelatedObjectID: "r_" + referee,
		CreatedAt: promotype.Time{Time: time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC)}}
}

func refereeHolder(projectID, id, voucherID, customerID string) *referral.Holder {
	return &referral.Holder{ID: id, ProjectID: projectID, CreatedAt: promotype.Time{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		RedeemableID: voucherID, RedeemableObject: "voucher", CampaignID: promotype.Ptr("camp_1"),
		CampaignType: promotype.Ptr("REFERRAL_PROGRAM"), VoucherType: "DISCOUNT_VOUCHER", CustomerID: customerID,
		HolderRole: referral.RoleReferee, Metadata: promotype.Metadata{"k": "v"}, Object: "redeemable_holder"}
}

// testReferrals: a conversion is claimed once per program and referee
// (also by concurrent transactions), is read back by referee and counted
// by referrer, per project; referee holders are unique per code and
// customer, list in id order with a cursor, and delete.
func testReferrals(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	for _, tc := range []struct {
		c    *referral.Conversion
		want bool
	}{
		{conversion(p, "camp_1", "cust_bob", "cust_alice", 1), true},
		{conversion(p, "camp_1", "cust_bob", "cust_zed", 2), false},
		{conversion(p, "camp_2", "cust_bob", "cust_alice", 3), true},
		{conversion(p, "camp_1", "cust_carl", "cust_alice", 4), true},
		{conversion(other, "camp_1", "cust_bob", "cust_alice", 5), true},
	} {
		got, err := s.ClaimConversion(ctx, tc.c)
		must(t, err)
		diff(t, "claim "+tc.c.ProjectID+" "+tc.c.CampaignID+" "+tc.c.RefereeID, tc.want, got)
	}
	bob, err := s.RefereeConversions(ctx, p, "cust_bob")
	must(t, err)
	diff(t, "bob's conversions", []*referral.Conversion{conversion(p, "camp_1", "cust_bob", "cust_alice", 1),
		conversion(p, "camp_2", "cust_bob", "cust_alice", 3)}, bob)
	counts, err := s.ReferrerCounts(ctx, p, "cust_alice")
	must(t, err)
	diff(t, "alice's referees", map[string]int64{"camp_1": 2, "camp_2": 1}, counts)

	claimsOnce(t, s, "16 concurrent conversions of one referee", 16, func(ctx context.Context, tx storage.Tx) (bool, error) {
		return tx.ClaimConversion(ctx, conversion(p, "camp_3", "cust_race", "cust_alice", 9))
	})

	must(t, s.InsertReferees(ctx, refereeHolder(p, "rh_2", "v_code", "cust_bob"), refereeHolder(p, "rh_1", "v_code", "cust_carl"),
		refereeHolder(p, "rh_3", "v_other", "cust_bob")))
	wantErr(t, "a second assignment", s.InsertReferees(ctx, refereeHolder(p, "rh_9", "v_code", "cust_dan"),
		refereeHolder(p, "rh_4", "v_code", "cust_bob")), promotype.ErrDuplicateFound)
	page, total, err := s.ListReferees(ctx, p, "v_code", "", false, 10)
	must(t, err)
	diff(t, "holders", []*referral.Holder{refereeHolder(p, "rh_1", "v_code", "cust_carl"), refereeHolder(p, "rh_2", "v_code", "cust_bob")}, page)
	diff(t, "holders total (the refused add stored nothing)", 2, total)
	page, _, err = s.ListReferees(ctx, p, "v_code", "rh_2", true, 10)
	must(t, err)
	diff(t, "holders after rh_2, descending", []*referral.Holder{refereeHolder(p, "rh_1", "v_code", "cust_carl")}, page)
	page, total, err = s.ListReferees(ctx, other, "v_code", "", false, 10)
	must(t, err)
	diff(t, "another project's holders", 0, len(page)+total)
	wantErr(t, "delete through another code", s.DeleteReferee(ctx, p, "v_other", "rh_1"), promotype.ErrNotFound)
	must(t, s.DeleteReferee(ctx, p, "v_code", "rh_1"))
	wantErr(t, "delete twice", s.DeleteReferee(ctx, p, "v_code", "rh_1"), promotype.ErrNotFound)
	must(t, s.InsertReferees(ctx, refereeHolder(p, "rh_5", "v_code", "cust_carl"))) // assignable again
}
