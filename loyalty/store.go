package loyalty

import (
	"context"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/voucher"
)

// Store is the storage port of earning rules and of the claims that make
// each rule earn once per order, scoped by project. Get returns
// promotype.NotFound for a missing rule; returned values are the caller's
// own.
type Store interface {
	// InsertEarningRules stores new rules (a taken id is duplicate_found).
	InsertEarningRules(ctx context.Context, rules ...*EarningRule) error
	// UpdateEarningRule replaces the stored rule with r's id.
	UpdateEarningRule(ctx context.Context, r *EarningRule) error
	GetEarningRule(ctx context.Context, projectID, id string) (*EarningRule, error)
	// ListEarningRules lists a project's rules; q may filter on
	// campaign_id, event and active and order by created_at or
	// updated_at.
	ListEarningRules(ctx context.Context, projectID string, q promotype.Query) ([]*EarningRule, int, error)
	DeleteEarningRule(ctx context.Context, projectID, id string) error
	// LockEarningRules holds the project's earning rules until the
	// transaction ends, so that concurrent creations count them one after
	// the other (the per-project limit). A store that runs one
	// transaction at a time may do nothing.
	LockEarningRules(ctx context.Context, projectID string) error
	// ClaimEarning records that c.EarningRuleID earned for c.OrderID and
	// reports true, or reports false when that rule earned for that order
	// already (committed, or claimed by a concurrent transaction that then
	// commits: the claim waits for it).
	ClaimEarning(ctx context.Context, c *Claim) (bool, error)
	// TakeRewardStock adds one to the redeemed count of reward id when it
	// has no stock limit or redeemed is below its stock, and reports
	// whether it did: of concurrent takes, no more succeed than the stock
	// holds.
	TakeRewardStock(ctx context.Context, projectID, id string) (bool, error)

	// InsertTiers stores new loyalty tiers (a taken id is duplicate_found).
	InsertTiers(ctx context.Context, tiers ...*Tier) error
	GetTier(ctx context.Context, projectID, id string) (*Tier, error)
	// ListTiers lists a project's tiers; q may filter on campaign_id and
	// order by created_at or updated_at.
	ListTiers(ctx context.Context, projectID string, q promotype.Query) ([]*Tier, int, error)

	// InsertPendingPoints stores a new pending entry; UpdatePendingPoints
	// replaces the stored one with p's id (its status and points).
	InsertPendingPoints(ctx context.Context, p *PendingPoints) error
	UpdatePendingPoints(ctx context.Context, p *PendingPoints) error
	GetPendingPoints(ctx context.Context, projectID, id string) (*PendingPoints, error)
	// ListPendingPoints returns the PENDING entries q selects, in id order.
	ListPendingPoints(ctx context.Context, projectID string, q PendingQuery) ([]*PendingPoints, error)
	// DuePendingPoints returns up to limit PENDING entries of the project
	// due at or before at, earliest first.
	DuePendingPoints(ctx context.Context, projectID string, at promotype.Time, limit int) ([]*PendingPoints, error)
	// ProjectsWithDuePending returns up to limit ids of projects with
	// PENDING entries due at or before at (the background scheduler's one
	// read across projects).
	ProjectsWithDuePending(ctx context.Context, at promotype.Time, limit int) ([]string, error)

	// InsertBuckets stores new points buckets; UpdateBuckets writes the
	// points left (Bucket.TotalPoints), status and updated_at of stored
	// ones.
	InsertBuckets(ctx context.Context, bs ...*voucher.PointsBucket) error
	UpdateBuckets(ctx context.Context, bs ...*voucher.PointsBucket) error
	// CardBuckets returns the ACTIVE buckets of the cards ids of the
	// project (whose rows the caller's transaction holds) that have points
	// left or are due at or before dueBy, in no particular order.
	CardBuckets(ctx context.Context, projectID string, ids []string, dueBy promotype.Time) ([]*voucher.PointsBucket, error)
	// ListBuckets returns a page of the ACTIVE buckets of card voucherID,
	// in spending order (voucher.SpendOrder), and how many there are.
	ListBuckets(ctx context.Context, projectID, voucherID string, limit, offset int) ([]*voucher.PointsBucket, int, error)
	// DueBuckets returns up to limit ACTIVE buckets of the project due at
	// or before at, in (due, id) order after the bucket after (nil: from
	// the first). The cursor keeps a long expiry from reading again what
	// it has expired.
	DueBuckets(ctx context.Context, projectID string, at promotype.Time, after *voucher.PointsBucket, limit int) ([]*voucher.PointsBucket, error)
	// ProjectsWithDueBuckets returns up to limit ids of projects with
	// ACTIVE buckets due at or before at.
	ProjectsWithDueBuckets(ctx context.Context, at promotype.Time, limit int) ([]string, error)
	// LockCards locks, in id order, the rows of the live vouchers ids of
	// the project that no other transaction holds, and returns them; a
	// row another transaction holds is left out (a later round takes it).
	LockCards(ctx context.Context, projectID string, ids []string) ([]*voucher.Voucher, error)
	// GetTierHold returns the tier hold of card voucherID, nil when it
	// holds no tier.
	GetTierHold(ctx context.Context, projectID, voucherID string) (*TierHold, error)
	// PutTierHold stores h as its card's hold (replacing the one it had);
	// DeleteTierHold removes the card's hold, if any.
	PutTierHold(ctx context.Context, h *TierHold) error
	DeleteTierHold(ctx context.Context, projectID, voucherID string) error
	// DueTierHolds returns up to limit holds of the project that end at or
	// before at, earliest first.
	DueTierHolds(ctx context.Context, projectID string, at promotype.Time, limit int) ([]*TierHold, error)
	// ProjectsWithDueTierHolds returns up to limit ids of projects with
	// holds that end at or before at.
	ProjectsWithDueTierHolds(ctx context.Context, at promotype.Time, limit int) ([]string, error)
	// InsertTierChanges records tier changes rules earn on later;
	// TierChanges returns up to limit of the project's, oldest first;
	// DeleteTierChange deletes one and reports whether it did (of
	// concurrent deletes of one change, one reports true).
	// ProjectsWithTierChanges returns up to limit ids of projects that
	// have some.
	InsertTierChanges(ctx context.Context, cs ...*TierChange) error
	TierChanges(ctx context.Context, projectID string, limit int) ([]*TierChange, error)
	DeleteTierChange(ctx context.Context, projectID, id string) (bool, error)
	ProjectsWithTierChanges(ctx context.Context, limit int) ([]string, error)
	// CollectedPoints is the sum of the points the buckets of card
	// voucherID opened at or after since were opened with: the points the
	// card collected since then.
	CollectedPoints(ctx context.Context, projectID, voucherID string, since promotype.Time) (int64, error)
	// SetLoyaltyCards writes the loyalty_card fields and updated_at of
	// the vouchers vs (of one project, their rows locked).
	SetLoyaltyCards(ctx context.Context, projectID string, vs ...*voucher.Voucher) error
}

// PendingQuery selects PENDING entries: of a campaign and of a card ("":
// any), after AfterID in id order (descending with Desc), at most Limit.
type PendingQuery struct {
	CampaignID, VoucherID, AfterID string
	Desc                           bool
	Limit                          int
}

// Claim is the record that an earning rule earned for an order: at most
// one per rule and order.
type Claim struct {
	ProjectID     string
	EarningRuleID string
	OrderID       string
	CustomerID    string
	Points        int64
	CreatedAt     promotype.Time
}

// ServiceStore is the port the loyalty Service consumes: its own rules and
// claims, the card ledger it earns and spends through (vouchers, orders,
// transactions, events) and the publications that make members.
type ServiceStore interface {
	Store
	redemption.RedeemStore
	publication.ServiceStore
	segment.Getter
	// GetProject reads the project, whose time zone validity windows and
	// pending points' dates are read in.
	GetProject(ctx context.Context, id string) (*project.Project, error)
}
