package rule

import (
	"encoding/json"
	"slices"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
)

// Params is the body of a validation rule create or update.
// On update, absent fields are left as they are.
type Params struct {
	Name         *string                 `json:"name" validate:"omitempty,min=1,max=300"`
	Rules        *RuleSet                `json:"rules"`
	BundleRules  json.RawMessage         `json:"bundle_rules"`
	Error        *promotype.ErrorMessage `json:"error"`
	ApplicableTo *discount.Applicability `json:"applicable_to"`
	Type         *string                 `json:"type" validate:"omitempty,oneof=expression basic advanced complex"`
	ContextType  *string                 `json:"context_type"`
}

// AssignmentParams is the body of an assignment create: the object as
// related_object_type (voucher when empty) and related_object_id, or in the
// short form the JS SDK types (ValidationRulesCreateAssignment), one of
// voucher, campaign and promotion_tier naming it.
type AssignmentParams struct {
	RelatedObjectType string `json:"related_object_type"`
	RelatedObjectID   string `json:"related_object_id"`

	Voucher       *string `json:"voucher"`
	Campaign      *string `json:"campaign"`
	PromotionTier *string `json:"promotion_tier"`
}

// target returns the type and id of the object the body names; the type is
// empty when the long form leaves it to the default.
func (in AssignmentParams) target() (typ, id string, err error) {
	var short []string
	for _, f := range []struct {
		typ string
		v   *string
	}{{RelatedVoucher, in.Voucher}, {RelatedCampaign, in.Campaign}, {RelatedPromotionTier, in.PromotionTier}} {
		if f.v != nil {
			short = append(short, f.typ)
			typ, id = f.typ, *f.v
		}
	}
	switch {
	case len(short) == 0:
		if in.RelatedObjectID == "" {
			return "", "", promotype.InvalidPayload("Payload must have required property 'related_object_id'")
		}
		return in.RelatedObjectType, in.RelatedObjectID, nil
	case len(short) > 1:
		return "", "", promotype.InvalidPayload("Pass only one of the properties 'voucher', 'campaign' and 'promotion_tier'")
	case in.RelatedObjectType != "" || in.RelatedObjectID != "":
		return "", "", promotype.InvalidPayload("Pass either 'related_object_type' and 'related_object_id' or '%s'", short[0])
	case id == "":
		return "", "", promotype.InvalidPayload("Property .%s must NOT have fewer than 1 characters", short[0])
	}
	return typ, id, nil
}

// contextTypes are the documented context_type values.
var contextTypes = func() []string {
	discountContexts := []string{"apply_to_order", "apply_to_items", "apply_to_items_proportionally",
		"apply_to_items_proportionally_by_quantity", "apply_to_items_by_quantity", "fixed.apply_to_items", "percent.apply_to_items"}
	out := []string{"global", "earning_rule.order.paid", "earning_rule.custom_event", "earning_rule.customer.segment.entered",
		"earning_rule.customer.tier.joined", "earning_rule.customer.tier.left", "earning_rule.customer.tier.upgraded",
		"earning_rule.customer.tier.downgraded", "earning_rule.customer.tier.prolonged",
		"campaign.gift_vouchers", "campaign.gift_vouchers.gift.apply_to_order", "campaign.gift_vouchers.gift.apply_to_items",
		"campaign.loyalty_program", "voucher.gift_voucher", "voucher.gift_voucher.gift.apply_to_order",
		"voucher.gift_voucher.gift.apply_to_items", "voucher.loyalty_card",
		"distribution.custom_event", "distribution.order.paid", "distribution.order.created", "distribution.order.canceled",
		"distribution.order.updated", "reward_assignment.pay_with_points"}
	for _, base := range []string{"campaign.discount_coupons", "campaign.referral_program", "campaign.promotion", "voucher.discount_voucher"} {
		out = append(out, base)
		for _, d := range discountContexts {
			out = append(out, base+".discount."+d)
		}
	}
	return out
}()

// checkApplicability validates applicable_to entries.
func checkApplicability(a *discount.Applicability) error {
	check := func(kind string, ts []discount.Target) error {
		for i, t := range ts {
			at := func(format string, args ...any) error {
				return promotype.InvalidPayload("Property .applicable_to."+kind+"[%d]"+format, append([]any{i}, args...)...)
			}
			switch {
			case t.Object != "product" && t.Object != "sku" && t.Object != discount.ObjectCollection:
				return at(".object must be equal to one of the allowed values: product, sku, products_collection")
			case t.Object == discount.ObjectCollection && t.ID == "":
				return at(" must have required property 'id' (the collection's)")
			case t.ID == "" && t.SourceID == nil:
				return at(" must have required property 'id'")
			}
			if t.Effect == "" {
				ts[i].Effect = discount.ApplyToEvery
			} else if !slices.Contains([]string{discount.ApplyToEvery, discount.ApplyToCheapest, discount.ApplyFromCheapest,
				discount.ApplyToMostExpensive, discount.ApplyFromMostExpensive}, t.Effect) {
				return at(".effect must be equal to one of the allowed values: APPLY_TO_EVERY, APPLY_TO_CHEAPEST, APPLY_FROM_CHEAPEST, APPLY_TO_MOST_EXPENSIVE, APPLY_FROM_MOST_EXPENSIVE")
			}
			if t.Target != "" && t.Target != discount.TargetItem && t.Target != discount.TargetUnit {
				return at(".target must be equal to one of the allowed values: ITEM, UNIT")
			}
			for name, v := range map[string]*int64{"price": t.Price, "quantity_limit": t.QuantityLimit, "aggregated_quantity_limit": t.AggregatedQuantityLimit,
				"amount_limit": t.AmountLimit, "aggregated_amount_limit": t.AggregatedAmountLimit, "repeat": t.Repeat, "skip_initially": t.SkipInitially} {
				if v != nil && *v < 0 {
					return at(".%s must be >= 0", name)
				}
			}
		}
		return nil
	}
	if err := check("included", a.Included); err != nil {
		return err
	}
	return check("excluded", a.Excluded)
}
