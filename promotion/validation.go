package promotion

import (
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// ValidationParams is the body of POST /v1/promotions/validation. Every
// field is optional: the zero value validates an empty order without a
// customer.
type ValidationParams struct {
	// Customer names a stored customer (by id, or by source id when it
	// sends no metadata) or describes one by its metadata.
	Customer customer.Params `json:"customer"`
	// Order is the cart (see order.Resolve): a stored order by id or
	// source id, or items joined to the catalog.
	Order order.Params `json:"order"`
	// Metadata is the request's (redemption) metadata the rules read.
	Metadata promotype.Metadata `json:"metadata"`
	Options  ValidationOptions  `json:"options"`
}

// ValidationOptions are the options of a validation request.
type ValidationOptions struct {
	// Expand lists what the answer fills in: "category" fills each valid
	// tier's categories.
	Expand []string `json:"expand"`
}

// ValidationQuery is the query of POST /v1/promotions/validation.
type ValidationQuery struct {
	AudienceRulesOnly bool     // audienceRulesOnly: only customer rules are checked
	PromotionIDs      []string // filters[promotion_id]: the tiers to keep (all when empty)
}

// Validation is the answer of POST /v1/promotions/validation.
type Validation struct {
	Valid      bool              `json:"valid"`
	TrackingID string            `json:"tracking_id"`
	Promotions []*TierValidation `json:"promotions"`
}

// TierValidation is one valid tier with the order it prices. Order is a
// view of the request's order (what the tier changed in it): it encodes as
// the full order, and Order.Order() builds it as an *order.Order.
type TierValidation struct {
	Valid                 bool                             `json:"valid"`
	ApplicableTo          *promotype.List[discount.Target] `json:"applicable_to"`
	InapplicableTo        *promotype.List[discount.Target] `json:"inapplicable_to"`
	TrackingID            string                           `json:"tracking_id"`
	Order                 order.View                       `json:"order"`
	ID                    string                           `json:"id"`
	Name                  string                           `json:"name"`
	Banner                *string                          `json:"banner,omitempty"`
	Discount              *discount.Discount               `json:"discount"`
	StartDate             *promotype.Time                  `json:"start_date,omitempty"`
	ExpirationDate        *promotype.Time                  `json:"expiration_date,omitempty"`
	Campaign              TierValidationCampaign           `json:"campaign"`
	Hierarchy             int                              `json:"hierarchy"`
	DiscountAmount        int64                            `json:"discount_amount"`
	AppliedDiscountAmount int64                            `json:"applied_discount_amount"`
	Metadata              promotype.Metadata               `json:"metadata"`
	Object                string                           `json:"object"`
	CategoryID            *string                          `json:"category_id"`
	Categories            []*campaign.Category             `json:"categories"`
}

// TierValidationCampaign is the campaign of a validated tier.
type TierValidationCampaign struct {
	ID             string          `json:"id"`
	StartDate      *promotype.Time `json:"start_date"`
	ExpirationDate *promotype.Time `json:"expiration_date"`
	Active         bool            `json:"active"`
	Object         string          `json:"object"`
}

// StackEvaluation is a stack applied to an order: one step per tier id, in
// the stack's order, and the order after the last.
type StackEvaluation struct {
	StackID string
	Steps   []StackStep
	Order   *order.Order
}
