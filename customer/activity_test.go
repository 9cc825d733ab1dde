package customer

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestActivityCategory(t *testing.T) {
	t.Parallel()
	for typ, want := range map[string]string{
		ActivityCreated:                      CategoryAction,
		ActivityOrderPaid:                    CategoryAction,
		ActivityRedemptionSucceeded:          CategoryAction,
		ActivityCustomEvent:                  CategoryAction,
		"customer.validation.failed":         CategoryAction,
		ActivityPublicationSucceeded:         CategoryEffect,
		ActivityGiftBalanceAdded:             CategoryEffect,
		ActivityVoucherDeleted:               CategoryEffect,
		"customer.rewarded":                  CategoryEffect,
		"customer.loyalty.tier.joined":       CategoryEffect,
		"customer.email.sent":                CategoryEffect,
		"customer.holder.assignment.created": CategoryEffect,
	} {
		if got := ActivityCategory(typ); got != want {
			t.Errorf("ActivityCategory(%s) = %s, want %s", typ, got, want)
		}
	}
}

// The query a store gets: one row more than the page, newest first by
// default, the category as the recorded types of it (and of type).
func TestActivityParamsQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   ActivityParams
		want ActivityQuery
	}{
		{"defaults", ActivityParams{}, ActivityQuery{Limit: 11, Desc: true}},
		{"oldest first", ActivityParams{Limit: 5, Order: "created_at", StartingAfterID: "evt_1"}, ActivityQuery{Limit: 6, After: "evt_1"}},
		{"type", ActivityParams{Type: "customer.segment.entered"}, ActivityQuery{Limit: 11, Desc: true, Types: []string{"customer.segment.entered"}}},
		{"effects", ActivityParams{Category: CategoryEffect}, ActivityQuery{Limit: 11, Desc: true,
			Types: []string{ActivityPublicationSucceeded, ActivityGiftBalanceAdded, ActivityLoyaltyPointsAdded, ActivityVoucherDeleted,
				ActivityRewarded, ActivityRewardedPoints, ActivityTierJoined, ActivityTierLeft, ActivityTierUpgraded, ActivityTierDowngraded,
				ActivityTierProlonged, ActivitySegmentEntered, ActivitySegmentLeft}}},
		{"an action of the effects", ActivityParams{Category: CategoryEffect, Type: ActivityOrderPaid}, ActivityQuery{Limit: 11, Desc: true, Types: []string{}}},
		{"an action of the actions", ActivityParams{Category: CategoryAction, Type: ActivityOrderPaid}, ActivityQuery{Limit: 11, Desc: true, Types: []string{ActivityOrderPaid}}},
	} {
		got, err := tc.in.query()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	for _, bad := range []ActivityParams{{Limit: 101}, {Limit: -1}, {Order: "type"}, {Category: "BOTH"}, {CampaignType: "COUPONS"}, {Type: "voucher.created"}} {
		if _, err := bad.query(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
