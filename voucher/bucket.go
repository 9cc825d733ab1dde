package voucher

import "github.com/promoengine/promo/promotype"

// Statuses of a loyalty points bucket.
const (
	BucketActive  = "ACTIVE"
	BucketExpired = "EXPIRED"
)

// PrefixBucket is the id prefix of loyalty points buckets.
const PrefixBucket = "lopb_"

// PointsBucket is one credit of a loyalty card's points with its expiry
// (GET /v1/loyalties/{campaignId}/members/{memberId}/points-expiration):
// every addition of points opens one, spending takes points from the
// buckets that expire first, and at its expiry what is left in an ACTIVE
// bucket expires (status EXPIRED). Bucket.TotalPoints is what is left (an
// EXPIRED bucket: what expired).
type PointsBucket struct {
	ID         string          `json:"id"`
	VoucherID  string          `json:"voucher_id"`
	CampaignID string          `json:"campaign_id"`
	Bucket     BucketPoints    `json:"bucket"`
	Status     string          `json:"status"`
	ExpiresAt  *string         `json:"expires_at,omitempty"` // YYYY-MM-DD, the last day; nil: never
	CreatedAt  promotype.Time  `json:"created_at"`
	UpdatedAt  *promotype.Time `json:"updated_at"`
	Object     string          `json:"object"`

	ProjectID string `json:"-"`
	// Points are the points the bucket was opened with.
	Points int64 `json:"-"`
	// Due is the instant the bucket expires (the start of the day after
	// ExpiresAt in the project's time zone); nil: never.
	Due *promotype.Time `json:"-"`
}

// BucketPoints is what a bucket holds.
type BucketPoints struct {
	TotalPoints int64 `json:"total_points"`
}

// Clone returns a copy of b.
func (b *PointsBucket) Clone() *PointsBucket {
	c := *b
	c.ExpiresAt = promotype.ClonePtr(b.ExpiresAt)
	c.UpdatedAt = promotype.ClonePtr(b.UpdatedAt)
	c.Due = promotype.ClonePtr(b.Due)
	return &c
}

// SpendOrder compares buckets in the order spending takes their points:
// the earliest expiry first, never-expiring last, then the oldest, then by
// id.
func SpendOrder(a, b *PointsBucket) int {
	switch {
	case a.Due == nil && b.Due != nil:
		return 1
	case a.Due != nil && b.Due == nil:
		return -1
	case a.Due != nil && !a.Due.Time.Equal(b.Due.Time):
		return a.Due.Compare(b.Due.Time)
	case !a.CreatedAt.Time.Equal(b.CreatedAt.Time):
		return a.CreatedAt.Compare(b.CreatedAt.Time)
	case a.ID < b.ID:
		return -1
	case a.ID > b.ID:
		return 1
	}
	return 0
}

// Field is the value of b's list field name (export filters and orders):
// id, voucher_id, campaign_id, created_at, expires_at (the due instant;
// null when the bucket never expires).
func (b *PointsBucket) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: b.ID}
	case "voucher_id":
		return promotype.Value{Str: b.VoucherID}
	case "campaign_id":
		return promotype.Value{Str: b.CampaignID}
	case "created_at":
		return promotype.Value{Time: b.CreatedAt}
	case "expires_at":
		if b.Due == nil {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Time: *b.Due}
	}
	return promotype.Value{Null: true}
}
