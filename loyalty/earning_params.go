package loyalty

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/segment"
)

// EarningRuleParams is one earning rule of a create (POST
// /v1/loyalties/{campaignId}/earning-rules takes an array of them).
type EarningRuleParams struct {
	Event            string        `json:"event"`
	Loyalty          Earning       `json:"loyalty"`
	ValidationRuleID *string       `json:"validation_rule_id"`
	Source           *BannerParams `json:"source"`
	// Active is true when not given.
	Active *bool `json:"active"`
	campaign.ValidityParams
	Metadata promotype.Metadata `json:"metadata"`

	// What the hosted service accepts and this engine cannot yet honour is
	// refused rather than stored and ignored.
	// CustomEvent names the custom event schema of a rule on a custom
	// event (Event is then the event's name).
	CustomEvent *SchemaRef `json:"custom_event"`
	// PendingPoints makes an order.paid rule's points wait some days.
	PendingPoints *PendingPeriod `json:"pending_points"`
	// ExpirationRules say when the rule's points expire, instead of the
	// program's.
	ExpirationRules *campaign.ExpirationRules `json:"expiration_rules"`

	// Segment names the segment of a rule on customer.segment.entered.
	Segment *SegmentRef `json:"segment"`
	// LoyaltyTier names the tier of a rule on a tier event (TierEvent):
	// a tier's id, of any program, or AnyTier.
	LoyaltyTier *TierRef `json:"loyalty_tier"`
}

// TierRef names a loyalty tier, or any tier (AnyTier).
type TierRef struct {
	ID string `json:"id"`
}

// AnyTier is the tier of a rule on a tier event that earns on a change
// of any tier of the rule's program.
const AnyTier = "__ANY__"

// The tier events an earning rule can earn on: a member joins the tiers
// (reaches one holding none), leaves them, moves up or down, or keeps a
// tier whose hold ended.
const (
	EventTierJoined     = "customer.loyalty.tier.joined"
	EventTierLeft       = "customer.loyalty.tier.left"
	EventTierUpgraded   = "customer.loyalty.tier.upgraded"
	EventTierDowngraded = "customer.loyalty.tier.downgraded"
	EventTierProlonged  = "customer.loyalty.tier.prolonged"
)

// TierEvent reports whether event is one of the tier events.
func TierEvent(event string) bool {
	switch event {
	case EventTierJoined, EventTierLeft, EventTierUpgraded, EventTierDowngraded, EventTierProlonged:
		return true
	}
	return false
}

// SegmentRef names a segment.
type SegmentRef struct {
	ID string `json:"id"`
}

// SchemaRef names a custom event schema.
type SchemaRef struct {
	SchemaID string `json:"schema_id"`
}

// EarningRuleUpdate is the body of an earning rule update: what it gives
// replaces the rule's (the event cannot change).
type EarningRuleUpdate struct {
	Loyalty          *Earning      `json:"loyalty"`
	ValidationRuleID *string       `json:"validation_rule_id"`
	Source           *BannerParams `json:"source"`
	Active           *bool         `json:"active"`
	campaign.ValidityParams
	Metadata      promotype.Metadata `json:"metadata"`
	PendingPoints *PendingPeriod     `json:"pending_points"`
	// ExpirationRules replace the rule's expiration rules.
	ExpirationRules *campaign.ExpirationRules `json:"expiration_rules"`
}

// BannerParams is the banner a rule is shown under.
type BannerParams struct {
	Banner string `json:"banner"`
}

// maxBanner bounds a banner's length.
const maxBanner = 300

// allowedCalculations are the proportional calculation types a rule on
// event accepts: a custom event's rules measure the event's or the
// customer's metadata.
func allowedCalculations(event string) []string {
	if event == EventOrderPaid {
		return []string{OrderAmount, OrderTotalAmount, OrderMetadata, OrderItemsQuantity, OrderItemsAmount, OrderItemsSubtotalAmount, CustomerMetadata}
	}
	if event == segment.EventEntered || TierEvent(event) {
		return []string{CustomerMetadata}
	}
	return []string{CustomerMetadata, CustomEventMetadata}
}

// ratioProperty names, per calculation type, the property that holds its
// ratio, as the refusal of a missing one says it.
var ratioProperty = map[string]string{
	OrderAmount: "amount", OrderTotalAmount: "total_amount", OrderMetadata: "metadata",
	OrderItemsQuantity: "quantity", OrderItemsAmount: "amount", OrderItemsSubtotalAmount: "subtotal_amount",
	CustomerMetadata: "metadata", CustomEventMetadata: "metadata",
}

// checkEvent refuses events no rule can earn on: an event that is not
// order.paid, customer.segment.entered or a tier event is a custom
// event's name, but for another customer.loyalty.tier.* name.
func checkEvent(event string) error {
	switch {
	case event == "":
		return promotype.InvalidPayload("Payload must have required property 'event'")
	case strings.HasPrefix(event, "customer.loyalty.tier.") && !TierEvent(event):
		return promotype.InvalidPayload("Property .event '%s' is not a tier event (%s, %s, %s, %s, %s)", event,
			EventTierJoined, EventTierLeft, EventTierUpgraded, EventTierDowngraded, EventTierProlonged)
	case utf8.RuneCountInString(event) > maxBanner:
		return promotype.InvalidPayload("Property .event must have at most %d characters", maxBanner)
	}
	return nil
}

// check validates an earning of a rule on event.
func (e *Earning) check(event string) error {
	switch e.Type {
	case Fixed:
		if e.Points == nil {
			return promotype.InvalidPayload("Property .loyalty.points is required for a FIXED earning rule")
		}
		return checkPoints(".loyalty.points", *e.Points)
	case Proportional:
		if allowed := allowedCalculations(event); !slices.Contains(allowed, e.CalculationType) {
			return promotype.InvalidPayload("Property .loyalty.calculation_type must be one of %v for event %s", allowed, event)
		}
		r := e.ratio()
		if r == nil {
			return promotype.InvalidPayload("Loyalty order rules must contain one of the following properties - '%s'", ratioProperty[e.CalculationType])
		}
		return r.check(e.CalculationType)
	case "":
		return promotype.InvalidPayload("Payload must have required property 'loyalty.type'")
	}
	return promotype.InvalidPayload("Property .loyalty.type must be one of FIXED, PROPORTIONAL")
}

// check validates the ratio of calculation type ct.
func (r *Ratio) check(ct string) error {
	if r.Every < 1 || r.Every > MaxPoints {
		return promotype.InvalidPayload("Property .every of the ratio must be a whole number between 1 and %d", int64(MaxPoints))
	}
	if err := checkPoints(".points of the ratio", r.Points); err != nil {
		return err
	}
	switch ct {
	case OrderMetadata, CustomerMetadata, CustomEventMetadata:
		if r.Property == "" || utf8.RuneCountInString(r.Property) > maxBanner {
			return promotype.InvalidPayload("Property .property of a %s ratio must name a metadata property", ct)
		}
	case OrderItemsQuantity, OrderItemsAmount, OrderItemsSubtotalAmount:
		refs := r.items()
		if len(refs) == 0 {
			return promotype.InvalidPayload("A %s ratio must name the items it counts: object and id, or applicable_to", ct)
		}
		for _, it := range refs {
			switch {
			case it.Object == ItemCollection:
				return promotype.InvalidPayload("Counting the items of a products_collection is not supported by this engine: name products or SKUs")
			case it.Object != ItemProduct && it.Object != ItemSKU:
				return promotype.InvalidPayload("Property .object of a ratio's item must be one of product, sku, products_collection")
			case it.ID == "":
				return promotype.InvalidPayload("Property .id of a ratio's item is required")
			}
		}
	}
	return nil
}

// items returns the items a ratio counts: applicable_to, or its object and
// id.
func (r *Ratio) items() []ItemRef {
	if len(r.ApplicableTo) > 0 {
		return r.ApplicableTo
	}
	if r.Object == "" && r.ID == "" {
		return nil
	}
	return []ItemRef{{Object: r.Object, ID: r.ID}}
}

func checkPoints(what string, n Int) error {
	if n < 1 || n > MaxPoints {
		return promotype.InvalidPayload("Property %s must be a whole number between 1 and %d", what, int64(MaxPoints))
	}
	return nil
}

// checkBanner validates a rule's banner.
func checkBanner(b *BannerParams) error {
	if b != nil && (utf8.RuneCountInString(b.Banner) > maxBanner || !utf8.ValidString(b.Banner)) {
		return promotype.InvalidPayload("Property .source.banner must be UTF-8 text of at most %d characters", maxBanner)
	}
	return nil
}
