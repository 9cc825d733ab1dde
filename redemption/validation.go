package redemption

import (
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// Limits of a validation request.
const (
	MaxRedeemables = 30
	// PrefixValidation is the id prefix of a validation answer.
	PrefixValidation = "valid_"
)

// ValidationParams is the body of POST /v1/validations and
// POST /v1/redemptions. Session with Type SessionLock
// makes a validation reserve what its applicable vouchers promise
// (see Reservation); a redemption with the session's Key uses and
// releases that reservation.
type ValidationParams struct {
	Redeemables []RedeemableParams `json:"redeemables"`
	Order       *order.Params      `json:"order"`
	Customer    *customer.Params   `json:"customer"`
	Session     *SessionParams     `json:"session,omitempty"`
	TrackingID  *string            `json:"tracking_id"`
	Metadata    promotype.Metadata `json:"metadata"`
	Options     *ValidationOptions `json:"options"`
}

// ValidationOptions are the options of a validation.
type ValidationOptions struct {
	// Expand ⊂ order, redeemable, category; default ["order"].
	Expand []string `json:"expand"`
	// Explain (an extension beyond the hosted service) adds an
	// explanation to every INAPPLICABLE or SKIPPED redeemable: the rule
	// and condition, or the engine's check, that decided it.
	Explain bool `json:"explain,omitempty"`
}

// RedeemableParams is one redeemable of a request: a voucher (by code or
// id), a promotion tier or a promotion stack.
type RedeemableParams struct {
	Object string        `json:"object"`
	ID     string        `json:"id"`
	Gift   *GiftParams   `json:"gift,omitempty"`
	Reward *RewardParams `json:"reward,omitempty"`
}

// GiftParams are the credits asked of a gift card.
type GiftParams struct {
	Credits *int64 `json:"credits"`
}

// RewardParams is the reward a loyalty card pays for with points.
type RewardParams struct {
	ID     string `json:"id"`
	Points *int64 `json:"points"`
}

// Validation is the answer of Validate (POST /v1/validations).
type Validation struct {
	ID                      string              `json:"id"`
	Valid                   bool                `json:"valid"`
	Redeemables             []*RedeemableResult `json:"redeemables"`
	InapplicableRedeemables []*RedeemableResult `json:"inapplicable_redeemables,omitempty"`
	SkippedRedeemables      []*RedeemableResult `json:"skipped_redeemables,omitempty"`
	Order                   *order.Order        `json:"order,omitempty"`
	TrackingID              string              `json:"tracking_id"`
	Session                 *Session            `json:"session,omitempty"` // a LOCK request's session
	StackingRules           *StackingRules      `json:"stacking_rules"`
}

// RedeemableResult is one redeemable of a validation. An APPLICABLE one
// carries its order (cumulative amounts, its own applied_*), what it
// applies to and its result; the others only their status and result.
type RedeemableResult struct {
	Status         Status                           `json:"status"`
	ID             string                           `json:"id"`
	Object         string                           `json:"object"`
	Order          *order.Order                     `json:"order,omitempty"`
	ApplicableTo   *promotype.List[discount.Target] `json:"applicable_to,omitempty"`
	InapplicableTo *promotype.List[discount.Target] `json:"inapplicable_to,omitempty"`
	Result         Result                           `json:"result"`
	Metadata       promotype.Metadata               `json:"metadata,omitzero"`
	Categories     []*Category                      `json:"categories,omitzero"`
	CampaignName   *string                          `json:"campaign_name,omitempty"`
	CampaignID     *string                          `json:"campaign_id,omitempty"`
	Name           *string                          `json:"name,omitempty"`
	// Explanation is what decided an INAPPLICABLE or SKIPPED redeemable,
	// with options.explain only (an extension).
	Explanation *Explanation `json:"explanation,omitempty"`
}

// Result is what a redeemable gives (discount, gift credits, loyalty
// points) or why it does not (error, details).
type Result struct {
	Discount    *discount.Discount `json:"discount,omitempty"`
	Gift        *GiftResult        `json:"gift,omitempty"`
	LoyaltyCard *LoyaltyResult     `json:"loyalty_card,omitempty"`
	Error       *promotype.Error   `json:"error,omitempty"`
	Details     *Details           `json:"details,omitempty"`
}

// GiftResult is the credits a gift card gives.
type GiftResult struct {
	Credits int64 `json:"credits"`
}

// LoyaltyResult is the points a loyalty card pays.
type LoyaltyResult struct {
	Points int64 `json:"points"`
}

// Category is a redeemable's category as options.expand ["category"]
// shows it, with its kind under the stacking rules.
type Category struct {
	*campaign.Category
	StackingRulesType string `json:"stacking_rules_type,omitempty"` // JOINT or EXCLUSIVE
}
