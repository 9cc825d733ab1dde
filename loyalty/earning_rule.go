package loyalty

import (
	"slices"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// PrefixEarningRule is the id prefix of earning rules; PrefixAutomation
// that of the automation each rule is run by.
const (
	PrefixEarningRule = "ern_"
	PrefixAutomation  = "auto_"
)

// EventOrderPaid is the event of an earning rule that gives points when
// an order becomes PAID.
const EventOrderPaid = "order.paid"

// Earning types: a fixed number of points, or points proportional to a
// measured value.
const (
	Fixed        = "FIXED"
	Proportional = "PROPORTIONAL"
)

// Calculation types of a proportional earning: what is measured.
const (
	OrderAmount              = "ORDER_AMOUNT"                // order amount before discounts
	OrderTotalAmount         = "ORDER_TOTAL_AMOUNT"          // order amount after discounts
	OrderMetadata            = "ORDER_METADATA"              // a numeric order metadata property
	OrderItemsQuantity       = "ORDER_ITEMS_QUANTITY"        // units of the matching items
	OrderItemsAmount         = "ORDER_ITEMS_AMOUNT"          // amount of the matching items before discounts
	OrderItemsSubtotalAmount = "ORDER_ITEMS_SUBTOTAL_AMOUNT" // amount of the matching items after discounts
	CustomerMetadata         = "CUSTOMER_METADATA"           // a numeric customer metadata property
	CustomEventMetadata      = "CUSTOM_EVENT_METADATA"       // a numeric custom event metadata property
)

// EarningRule gives a loyalty program's members points when an event
// happens (object "earning_rule"): an order becoming PAID (order.paid) or
// a custom event (Event is its name), the customer entering a segment
// (customer.segment.entered, Segment names it), or a member's tier
// changing (a tier event; LoyaltyTier names the tier, or AnyTier).
type EarningRule struct {
	ID                string                    `json:"id"`
	CreatedAt         promotype.Time            `json:"created_at"`
	UpdatedAt         *promotype.Time           `json:"updated_at"`
	ValidationRuleID  *string                   `json:"validation_rule_id"`
	Loyalty           Earning                   `json:"loyalty"`
	Event             string                    `json:"event"`
	CustomEvent       *SchemaRef                `json:"custom_event,omitempty"`
	Segment           *SegmentRef               `json:"segment,omitempty"`      // a rule on customer.segment.entered
	LoyaltyTier       *TierRef                  `json:"loyalty_tier,omitempty"` // a rule on a tier event
	PendingPoints     *PendingPeriod            `json:"pending_points,omitempty"`
	ExpirationRules   *campaign.ExpirationRules `json:"expiration_rules,omitempty"`
	Source            Source                    `json:"source"`
	Active            bool                      `json:"active"`
	campaign.Validity                           // start_date, expiration_date, validity_* (absent: the campaign's)
	Metadata          promotype.Metadata        `json:"metadata"`
	AutomationID      string                    `json:"automation_id"`
	Object            string                    `json:"object"`

	ProjectID string `json:"-"`
}

// CampaignID is the id of the program the rule belongs to.
func (r *EarningRule) CampaignID() string { return r.Source.ObjectID }

// Source is the program an earning rule belongs to, with the banner the
// rule is shown under.
type Source struct {
	Banner     string `json:"banner,omitempty"`
	ObjectID   string `json:"object_id"`
	ObjectType string `json:"object_type"`
}

// Earning is how many points a rule gives: Points for a FIXED rule; for a
// PROPORTIONAL one, the ratio of its CalculationType, under Order,
// OrderItems or Customer.
type Earning struct {
	Type            string      `json:"type"`
	Points          *Int        `json:"points,omitempty"`
	CalculationType string      `json:"calculation_type,omitempty"`
	Order           *OrderRatio `json:"order,omitempty"`
	OrderItems      *ItemsRatio `json:"order_items,omitempty"`
	Customer        *MetaRatio  `json:"customer,omitempty"`
	CustomEvent     *MetaRatio  `json:"custom_event,omitempty"`
}

// OrderRatio holds the ratio of ORDER_AMOUNT, ORDER_TOTAL_AMOUNT or
// ORDER_METADATA.
type OrderRatio struct {
	Amount      *Ratio `json:"amount,omitempty"`
	TotalAmount *Ratio `json:"total_amount,omitempty"`
	Metadata    *Ratio `json:"metadata,omitempty"`
}

// ItemsRatio holds the ratio of ORDER_ITEMS_QUANTITY, ORDER_ITEMS_AMOUNT
// or ORDER_ITEMS_SUBTOTAL_AMOUNT.
type ItemsRatio struct {
	Quantity       *Ratio `json:"quantity,omitempty"`
	Amount         *Ratio `json:"amount,omitempty"`
	SubtotalAmount *Ratio `json:"subtotal_amount,omitempty"`
}

// MetaRatio holds the ratio of CUSTOMER_METADATA or CUSTOM_EVENT_METADATA.
type MetaRatio struct {
	Metadata *Ratio `json:"metadata,omitempty"`
}

// Ratio gives Points for every Every units of the measured value (cents
// for amounts, units for quantities, the value for metadata): points ×
// floor(value / every). Property names the metadata property measured;
// Object and ID, or ApplicableTo, the items counted.
type Ratio struct {
	Every        Int       `json:"every"`
	Points       Int       `json:"points"`
	Property     string    `json:"property,omitempty"`
	Object       string    `json:"object,omitempty"`
	ID           string    `json:"id,omitempty"`
	ApplicableTo []ItemRef `json:"applicable_to,omitempty"`
}

// ItemRef names the items a ratio counts: a product, a SKU or a product
// collection.
type ItemRef struct {
	Object string `json:"object"`
	ID     string `json:"id"`
}

// Item objects a ratio may count.
const (
	ItemProduct    = "product"
	ItemSKU        = "sku"
	ItemCollection = "products_collection"
)

// ratio returns the ratio of the rule's calculation type (nil: none
// given).
func (e *Earning) ratio() *Ratio {
	switch e.CalculationType {
	case OrderAmount, OrderTotalAmount, OrderMetadata:
		if e.Order == nil {
			return nil
		}
		return map[string]*Ratio{OrderAmount: e.Order.Amount, OrderTotalAmount: e.Order.TotalAmount, OrderMetadata: e.Order.Metadata}[e.CalculationType]
	case OrderItemsQuantity, OrderItemsAmount, OrderItemsSubtotalAmount:
		if e.OrderItems == nil {
			return nil
		}
		return map[string]*Ratio{OrderItemsQuantity: e.OrderItems.Quantity, OrderItemsAmount: e.OrderItems.Amount,
			OrderItemsSubtotalAmount: e.OrderItems.SubtotalAmount}[e.CalculationType]
	case CustomerMetadata:
		if e.Customer == nil {
			return nil
		}
		return e.Customer.Metadata
	case CustomEventMetadata:
		if e.CustomEvent == nil {
			return nil
		}
		return e.CustomEvent.Metadata
	}
	return nil
}

// Clone returns a deep copy.
func (r *EarningRule) Clone() *EarningRule {
	c := *r
	c.UpdatedAt = promotype.ClonePtr(r.UpdatedAt)
	c.ValidationRuleID = promotype.ClonePtr(r.ValidationRuleID)
	c.Validity = r.Validity.Clone()
	c.Metadata = r.Metadata.Clone()
	c.Loyalty = r.Loyalty.clone()
	c.CustomEvent = promotype.ClonePtr(r.CustomEvent)
	c.Segment = promotype.ClonePtr(r.Segment)
	c.LoyaltyTier = promotype.ClonePtr(r.LoyaltyTier)
	c.PendingPoints = promotype.ClonePtr(r.PendingPoints)
	c.ExpirationRules = promotype.ClonePtr(r.ExpirationRules)
	return &c
}

func (e Earning) clone() Earning {
	c := e
	c.Points = promotype.ClonePtr(e.Points)
	if e.Order != nil {
		c.Order = &OrderRatio{Amount: e.Order.Amount.clone(), TotalAmount: e.Order.TotalAmount.clone(), Metadata: e.Order.Metadata.clone()}
	}
	if e.OrderItems != nil {
		c.OrderItems = &ItemsRatio{Quantity: e.OrderItems.Quantity.clone(), Amount: e.OrderItems.Amount.clone(),
			SubtotalAmount: e.OrderItems.SubtotalAmount.clone()}
	}
	if e.Customer != nil {
		c.Customer = &MetaRatio{Metadata: e.Customer.Metadata.clone()}
	}
	if e.CustomEvent != nil {
		c.CustomEvent = &MetaRatio{Metadata: e.CustomEvent.Metadata.clone()}
	}
	return c
}

func (r *Ratio) clone() *Ratio {
	if r == nil {
		return nil
	}
	c := *r
	c.ApplicableTo = slices.Clone(r.ApplicableTo)
	return &c
}

// normalize sets what every answer carries.
func (r *EarningRule) normalize() *EarningRule {
	r.Object = "earning_rule"
	r.Source.ObjectType = "campaign"
	if r.Metadata == nil {
		r.Metadata = promotype.Metadata{}
	}
	return r
}
