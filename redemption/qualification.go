package redemption

import (
	"encoding/json"
	"slices"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// Qualification scenarios: which redeemables a qualification considers.
const (
	ScenarioAll                        = "ALL"
	ScenarioCustomerWallet             = "CUSTOMER_WALLET"
	ScenarioAudienceOnly               = "AUDIENCE_ONLY"
	ScenarioProducts                   = "PRODUCTS"
	ScenarioProductsDiscount           = "PRODUCTS_DISCOUNT"
	ScenarioPromotionStacks            = "PROMOTION_STACKS"
	ScenarioProductsByCustomer         = "PRODUCTS_BY_CUSTOMER"
	ScenarioProductsDiscountByCustomer = "PRODUCTS_DISCOUNT_BY_CUSTOMER"
)

// Sorting rules of a qualification.
const (
	SortDefault   = "DEFAULT"    // created_at descending
	SortBestDeal  = "BEST_DEAL"  // total_applied_discount_amount descending
	SortLeastDeal = "LEAST_DEAL" // total_applied_discount_amount ascending
)

// Limits of a qualification (limit at most 100, as the hosted service accepts; default 5).
const (
	DefaultQualificationLimit = 5
	MaxQualificationLimit     = 100
	// MaxQualificationSource bounds one read of a source of candidates
	// (the tier index, the wallet, the public vouchers, the campaigns, the
	// promotion stacks): a qualification reads each source in batches of
	// this many, evaluates a batch and keeps only the best page so far, so
	// it holds at most a batch and a page, and misses nothing.
	MaxQualificationSource = 1000
)

// ObjectCampaign names a campaign in a qualification filter.
const ObjectCampaign = "campaign"

// QualificationParams is the body of POST /v1/qualifications and POST
// /client/v1/qualifications.
type QualificationParams struct {
	Customer   *customer.Params      `json:"customer"`
	Order      *order.Params         `json:"order"`
	TrackingID *string               `json:"tracking_id"`
	Scenario   *string               `json:"scenario"`
	Options    *QualificationOptions `json:"options"`
	// Session with type LOCK shows the gift credits other sessions lock
	// (result.gift.locked_credits); nothing is locked.
	Session  *SessionParams     `json:"session"`
	Metadata promotype.Metadata `json:"metadata"`
}

// QualificationOptions are the options of a qualification.
type QualificationOptions struct {
	Limit *int `json:"limit"`
	// StartingAfter is the cursor: the redeemables created before it (see
	// Cursor for those sharing its instant).
	StartingAfter *Cursor               `json:"starting_after"`
	Filters       *QualificationFilters `json:"filters"`
	Expand        []string              `json:"expand"` // redeemable, category, validation_rules
	SortingRule   *string               `json:"sorting_rule"`
}

// QualificationFilters narrow the redeemables returned (options.filters).
// A property that is not one of the documented filters is refused (400).
type QualificationFilters struct {
	Junction *string
	// Fields maps a filter name (category_id, campaign_id, campaign_type,
	// resource_id, resource_type, voucher_type, code, holder_role) to its
	// conditions.
	Fields map[string]*FieldConditions
	// unknown holds the properties that are no filter.
	unknown []string
}

// FieldConditions are the conditions of one filter.
type FieldConditions struct {
	Conditions *FilterConditions `json:"conditions"`
}

// FilterConditions are a filter's operators: $is (the first value),
// $is_not (not the first value), $in, $not_in, $has_value, $is_unknown.
type FilterConditions struct {
	Is        []string        `json:"$is"`
	IsNot     []string        `json:"$is_not"`
	In        []string        `json:"$in"`
	NotIn     []string        `json:"$not_in"`
	HasValue  json.RawMessage `json:"$has_value"`
	IsUnknown json.RawMessage `json:"$is_unknown"`
}

// qualificationFilterNames are the documented filters.
var qualificationFilterNames = []string{"category_id", "campaign_id", "campaign_type", "resource_id",
	"resource_type", "voucher_type", "code", "holder_role"}

// UnmarshalJSON reads the junction and the filters, keeping the names of
// unknown properties for the service to refuse.
func (f *QualificationFilters) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	f.Fields = map[string]*FieldConditions{}
	for k, v := range raw {
		switch {
		case k == "junction":
			if err := json.Unmarshal(v, &f.Junction); err != nil {
				return err
			}
		case slices.Contains(qualificationFilterNames, k):
			var fc FieldConditions
			if err := json.Unmarshal(v, &fc); err != nil {
				return err
			}
			f.Fields[k] = &fc
		default:
			f.unknown = append(f.unknown, k)
		}
	}
	slices.Sort(f.unknown)
	return nil
}

// MarshalJSON writes the filters back as one object.
func (f QualificationFilters) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	if f.Junction != nil {
		m["junction"] = *f.Junction
	}
	for k, v := range f.Fields {
		m[k] = v
	}
	return json.Marshal(m)
}

// Qualification is the answer of a qualification: the
// redeemables that qualify, the request's calculated order and the
// stacking rules.
type Qualification struct {
	Redeemables   QualifiedList  `json:"redeemables"`
	TrackingID    string         `json:"tracking_id"`
	Order         *order.Order   `json:"order,omitempty"`
	StackingRules *StackingRules `json:"stacking_rules"`
}

// QualifiedList is one page of qualified redeemables: Total counts the
// page; HasMore with MoreStartingAfter (the created_at of the page's last
// redeemable, with the count of the redeemables of the pages so far
// sharing it when the next page starts at the same instant) tell the
// cursor of the next one.
type QualifiedList struct {
	Object            string       `json:"object"`
	DataRef           string       `json:"data_ref"`
	Data              []*Qualified `json:"data"`
	Total             int          `json:"total"`
	HasMore           bool         `json:"has_more"`
	MoreStartingAfter *Cursor      `json:"more_starting_after,omitempty"`
}

// Qualified is one redeemable that qualifies: a voucher (id is its code;
// a loyalty card paying with points among them), a promotion tier, a
// promotion stack (Redeemables holds its tiers) or a campaign (a customer
// given its next free code could use it), with the order it prices
// applied alone and what it gives.
type Qualified struct {
	ID        string          `json:"id"`
	Object    string          `json:"object"`
	CreatedAt promotype.Time  `json:"created_at"`
	Result    QualifiedResult `json:"result"`
	Order     *order.Order    `json:"order,omitempty"`
	// ValidationRuleID is the first validation rule assigned to the
	// redeemable itself, else to its campaign (none: omitted).
	ValidationRuleID *string                          `json:"validation_rule_id,omitempty"`
	ApplicableTo     *promotype.List[discount.Target] `json:"applicable_to,omitempty"`
	InapplicableTo   *promotype.List[discount.Target] `json:"inapplicable_to,omitempty"`
	Metadata         promotype.Metadata               `json:"metadata,omitzero"`
	Categories       []*Category                      `json:"categories,omitzero"`
	Banner           *string                          `json:"banner,omitempty"`
	Name             *string                          `json:"name,omitempty"`
	CampaignName     *string                          `json:"campaign_name,omitempty"`
	CampaignID       *string                          `json:"campaign_id,omitempty"`
	// ValidationRulesAssignments, with options.expand validation_rules.
	ValidationRulesAssignments *promotype.List[*QualifiedAssignment] `json:"validation_rules_assignments,omitempty"`
	Redeemables                []*Qualified                          `json:"redeemables,omitempty"`

	discounted int64       // total_applied_discount_amount, for the sorting rules
	rules      [][2]string // the objects whose rule assignments apply (type, id)
}

// Validation statuses of a qualified redeemable's rule assignment.
const (
	RulesValid          = "VALID"           // every rule was checked and holds
	RulesPartiallyValid = "PARTIALLY_VALID" // the rules checked hold; some were not checked
	RulesInvalid        = "INVALID"         // a rule fails (never on a qualified redeemable)
)

// QualifiedAssignment is a rule assignment of a qualified redeemable with
// how its rule fared: VALID when every rule of it was checked,
// PARTIALLY_VALID when the scenario left some out (AUDIENCE_ONLY checks
// the customer rules alone), their keys in ValidationOmittedRules.
type QualifiedAssignment struct {
	*rule.Assignment
	ValidationStatus       string   `json:"validation_status"`
	ValidationOmittedRules []string `json:"validation_omitted_rules"`
}

// QualifiedResult is what a qualified redeemable gives.
type QualifiedResult struct {
	Discount    *discount.Discount `json:"discount,omitempty"`
	Gift        *QualifiedGift     `json:"gift,omitempty"`
	LoyaltyCard *QualifiedLoyalty  `json:"loyalty_card,omitempty"`
}

// QualifiedLoyalty is a loyalty card that pays with points: the points it
// ever got, its balance, and its campaign's pay-with-points rate
// (PointsRatio points are worth ExchangeRatio currency units).
type QualifiedLoyalty struct {
	Points        int64             `json:"points"`
	Balance       int64             `json:"balance"`
	ExchangeRatio promotype.Decimal `json:"exchange_ratio"`
	PointsRatio   int64             `json:"points_ratio"`
}

// QualifiedGift is a gift card's balance, the credits it would give this
// order and, with a LOCK session, the credits sessions hold.
type QualifiedGift struct {
	Balance       int64  `json:"balance"`
	Credits       int64  `json:"credits"`
	LockedCredits *int64 `json:"locked_credits,omitempty"`
}
