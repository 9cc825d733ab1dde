package customer

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// Activity is an entry of a customer's activity log (GET
// /v1/customers/{customerId}/activity): an event about the customer,
// written in the transaction of its change (promotype.Event.Activity).
type Activity struct {
	// ID is the id of the event it was written with ("evt_…").
	ID   string `json:"id"`
	Type string `json:"type"`
	// Data is the event's data, as its webhook delivery carries it.
	Data      json.RawMessage `json:"data"`
	CreatedAt promotype.Time  `json:"created_at"`
	// GroupID is the event id: the engine keeps no request ids (as in the
	// webhook envelope).
	GroupID string `json:"group_id"`

	ProjectID    string `json:"-"`
	CustomerID   string `json:"-"`
	CampaignID   string `json:"-"`
	CampaignType string `json:"-"`
}

// ActivityList is a page of a customer's activity log.
type ActivityList = promotype.CursorList[*Activity]

// ActivityQuery is what a store lists of one customer's log.
type ActivityQuery struct {
	// Limit is the number of rows to return.
	Limit int
	// Desc orders newest first. Rows of the same time are in the order
	// they were appended (reversed by Desc).
	Desc bool
	// After is an activity id: only rows after it in the order (none when
	// no activity of the customer has that id).
	After        string
	Start, End   *promotype.Time // created_at bounds, inclusive
	CampaignID   string
	CampaignType string
	// Types keeps the rows of these types; nil keeps all.
	Types []string
}

// ActivityStore is the storage port of customers' activity logs; they are
// written through promotype.EventStore.AppendEvents.
type ActivityStore interface {
	// ListActivities returns up to q.Limit rows of the log of customer
	// customerID matching q, in q's order.
	ListActivities(ctx context.Context, projectID, customerID string, q ActivityQuery) ([]*Activity, error)
	// DeleteActivities removes the customer's log and returns how many
	// rows it held.
	DeleteActivities(ctx context.Context, projectID, customerID string) (int, error)
}

// ActivityParams is the query of GET /v1/customers/{customerId}/activity.
type ActivityParams struct {
	Limit int // 1–100, 10 when 0
	// Order is created_at or -created_at (the default: newest first).
	Order           string
	StartingAfterID string
	StartDate       *promotype.Time
	EndDate         *promotype.Time
	CampaignID      string
	CampaignType    string
	// Category is ACTION or EFFECT (see ActivityCategory).
	Category string
	Type     string
}

// Activity types the engine records, by its changes.
const (
	ActivityCreated              = "customer.created"
	ActivityUpdated              = "customer.updated"
	ActivityDeleted              = "customer.deleted"
	ActivityCustomEvent          = "customer.custom_event"
	ActivityPublicationSucceeded = "customer.publication.succeeded"
	ActivityRedemptionSucceeded  = "customer.redemption.succeeded"
	ActivityRedemptionFailed     = "customer.redemption.failed"
	ActivityRollbackSucceeded    = "customer.redemption.rollback.succeeded"
	ActivityRollbackFailed       = "customer.redemption.rollback.failed"
	ActivityOrderCreated         = "customer.order.created"
	ActivityOrderUpdated         = "customer.order.updated"
	ActivityOrderPaid            = "customer.order.paid"
	ActivityOrderCanceled        = "customer.order.canceled"
	ActivityOrderFulfilled       = "customer.order.fulfilled"
	ActivityGiftBalanceAdded     = "customer.voucher.gift.balance_added"
	ActivityLoyaltyPointsAdded   = "customer.voucher.loyalty_card.points_added"
	ActivityVoucherDeleted       = "customer.voucher.deleted"
	ActivityRewarded             = "customer.rewarded"
	ActivityRewardedPoints       = "customer.rewarded.loyalty_points"
	ActivityTierJoined           = "customer.loyalty.tier.joined"
	ActivityTierLeft             = "customer.loyalty.tier.left"
	ActivityTierUpgraded         = "customer.loyalty.tier.upgraded"
	ActivityTierDowngraded       = "customer.loyalty.tier.downgraded"
	ActivityTierProlonged        = "customer.loyalty.tier.prolonged"
	ActivitySegmentEntered       = "customer.segment.entered"
	ActivitySegmentLeft          = "customer.segment.left"
)

// Activity categories: what the customer (or the API on its behalf) did,
// and what followed from it.
const (
	CategoryAction = "ACTION"
	CategoryEffect = "EFFECT"
)

// ActivityCategory returns the category of an activity type: EFFECT for
// what a change brings the customer (rewards, points and balances,
// publications, loyalty tiers, segments, messages sent, holder
// assignments), ACTION for the rest (the customer's own changes, events,
// validations, redemptions, orders). The hosted service does not publish
// its mapping; this is ours.
func ActivityCategory(typ string) string {
	for _, p := range effectPrefixes {
		if strings.HasPrefix(typ, p) {
			return CategoryEffect
		}
	}
	for _, ch := range messageChannels {
		if strings.HasPrefix(typ, "customer."+ch+".") {
			return CategoryEffect
		}
	}
	return CategoryAction
}

var (
	effectPrefixes = []string{"customer.rewarded", "customer.voucher.", "customer.publication.", "customer.loyalty.",
		"customer.segment.", "customer.holder.", "customer.reward_redemptions."}
	messageChannels = []string{"sms", "email", "activecampaign", "braze", "mailchimp", "intercom", "shopify", "klaviyo", "batch"}
	campaignTypes   = []string{"PROMOTION", "GIFT_VOUCHERS", "REFERRAL_PROGRAM", "DISCOUNT_COUPONS", "LOYALTY_PROGRAM"}
)

// query checks p and returns the store query (one row more than the page,
// to tell whether there are more).
func (p ActivityParams) query() (ActivityQuery, error) {
	q := ActivityQuery{Limit: p.Limit, Desc: true, After: p.StartingAfterID, Start: p.StartDate, End: p.EndDate,
		CampaignID: p.CampaignID, CampaignType: p.CampaignType}
	if q.Limit == 0 {
		q.Limit = promotype.DefaultLimit
	}
	if q.Limit < 1 || q.Limit > promotype.MaxLimit {
		return q, promotype.InvalidQueryParams("Property .limit must be between 1 and %d", promotype.MaxLimit)
	}
	q.Limit++
	switch p.Order {
	case "", "-created_at":
	case "created_at":
		q.Desc = false
	default:
		return q, promotype.InvalidQueryParams("Property .order must be equal to one of the allowed values: created_at, -created_at")
	}
	if p.CampaignType != "" && !slices.Contains(campaignTypes, p.CampaignType) {
		return q, promotype.InvalidQueryParams("Property .campaign_type must be equal to one of the allowed values: %s", strings.Join(campaignTypes, ", "))
	}
	if p.Type != "" && !strings.HasPrefix(p.Type, "customer.") {
		return q, promotype.InvalidQueryParams("Property .type must be a customer event name (customer.…)")
	}
	switch p.Category {
	case "":
		if p.Type != "" {
			q.Types = []string{p.Type}
		}
	case CategoryAction, CategoryEffect:
		q.Types = []string{}
		for _, t := range recordedActivities {
			if ActivityCategory(t) == p.Category && (p.Type == "" || p.Type == t) {
				q.Types = append(q.Types, t)
			}
		}
	default:
		return q, promotype.InvalidQueryParams("Property .category must be equal to one of the allowed values: ACTION, EFFECT")
	}
	return q, nil
}

// recordedActivities are the activity types the engine writes.
var recordedActivities = []string{ActivityCreated, ActivityUpdated, ActivityDeleted, ActivityCustomEvent,
	ActivityPublicationSucceeded, ActivityRedemptionSucceeded, ActivityRedemptionFailed, ActivityRollbackSucceeded,
	ActivityRollbackFailed, ActivityOrderCreated, ActivityOrderUpdated, ActivityOrderPaid, ActivityOrderCanceled,
	ActivityOrderFulfilled, ActivityGiftBalanceAdded, ActivityLoyaltyPointsAdded, ActivityVoucherDeleted,
	ActivityRewarded, ActivityRewardedPoints, ActivityTierJoined, ActivityTierLeft, ActivityTierUpgraded,
	ActivityTierDowngraded, ActivityTierProlonged, ActivitySegmentEntered, ActivitySegmentLeft}

// Activities returns a page of the activity log of the customer ref (id or
// source id), newest first unless p.Order says otherwise, keyset-paged by
// starting_after_id.
func (s *Service) Activities(ctx context.Context, projectID, ref string, p ActivityParams) (*ActivityList, error) {
	q, err := p.query()
	if err != nil {
		return nil, err
	}
	c, err := Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.ListActivities(ctx, projectID, c.ID, q)
	if err != nil {
		return nil, err
	}
	return promotype.NewCursorList(rows, q.Limit-1, func(a *Activity) string { return a.ID }), nil
}
