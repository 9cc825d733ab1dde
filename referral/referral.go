package referral

import (
	"context"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
)

// Holder roles of a referral code.
const (
	RoleReferrer = "REFERRER"
	RoleReferee  = "REFEREE"
)

// Related object types of a conversion: what converted the referee.
const (
	RelatedRedemption  = "redemption"
	RelatedCustomEvent = "custom_event"
)

// Conversion is the record that a referee converted in a referral
// program: at most one per program (CampaignID) and referee.
type Conversion struct {
	ProjectID  string
	CampaignID string
	RefereeID  string
	ReferrerID string
	// VoucherID is the referral code the referee converted with.
	VoucherID string
	// RelatedObjectType and RelatedObjectID name what converted: a
	// redemption (its id) or a custom event (its id).
	RelatedObjectType string
	RelatedObjectID   string
	CreatedAt         promotype.Time
}

// Holder is a customer holding a referral code (object
// "redeemable_holder"): its referrer, or a referee assigned to it.
type Holder struct {
	ID               string             `json:"id"`
	CreatedAt        promotype.Time     `json:"created_at"`
	RedeemableID     string             `json:"redeemable_id"`
	RedeemableObject string             `json:"redeemable_object"`
	CampaignID       *string            `json:"campaign_id"`
	CampaignType     *string            `json:"campaign_type"`
	VoucherType      string             `json:"voucher_type"`
	CustomerID       string             `json:"customer_id"`
	HolderRole       string             `json:"holder_role"`
	Metadata         promotype.Metadata `json:"metadata"`
	Object           string             `json:"object"`

	ProjectID string `json:"-"`
}

// Clone returns a deep copy.
func (h *Holder) Clone() *Holder {
	out := *h
	out.CampaignID, out.CampaignType = promotype.ClonePtr(h.CampaignID), promotype.ClonePtr(h.CampaignType)
	out.Metadata = h.Metadata.Clone()
	return &out
}

// Store is the storage port of referral conversions and of the referees
// assigned to referral codes, scoped by project. Returned values are the
// caller's own.
type Store interface {
	// ClaimConversion stores c and reports true, or reports false when
	// c.RefereeID converted in c.CampaignID already (committed, or
	// claimed by a concurrent transaction that then commits: the claim
	// waits for it).
	ClaimConversion(ctx context.Context, c *Conversion) (bool, error)
	// RefereeConversions returns the conversions of referee customerID,
	// oldest first.
	RefereeConversions(ctx context.Context, projectID, customerID string) ([]*Conversion, error)
	// ReferrerCounts returns, per campaign id, how many referees
	// referrer customerID converted.
	ReferrerCounts(ctx context.Context, projectID, customerID string) (map[string]int64, error)

	// InsertReferees stores new referee holders; a second holder of one
	// voucher and customer is a 409 duplicate_found (none is stored).
	InsertReferees(ctx context.Context, hs ...*Holder) error
	// ListReferees returns the referee holders of voucher voucherID in id
	// order (descending with desc) after afterID ("": from the first), at
	// most limit, and how many it has.
	ListReferees(ctx context.Context, projectID, voucherID, afterID string, desc bool, limit int) ([]*Holder, int, error)
	// DeleteReferee removes referee holder id of voucher voucherID
	// (not_found when it has none of that id).
	DeleteReferee(ctx context.Context, projectID, voucherID, id string) error
}

// ServiceStore is the port the referral Service consumes: its own rows,
// the card ledger it credits rewards through and the publications that
// give customers cards.
type ServiceStore interface {
	Store
	redemption.RedeemStore
	publication.ServiceStore
}
