package campaign

import "github.com/promoengine/promo/discount"

// Discount is what a discount voucher or a promotion tier takes off: the
// discount package's type (validation with Validate, computation with its
// Apply functions). Money is in the smallest currency unit; percent_off is
// exact; formulas are evaluated at validation, the static value their
// fallback (docs/formulas.md).
type Discount = discount.Discount

// DiscountType is the kind of a discount.
type DiscountType = discount.Type

// Effect is how a discount (or a gift card's credits) applies to an order.
type Effect = discount.Effect

// Discount types and the effects campaigns and vouchers name.
const (
	DiscountAmount  = discount.Amount
	DiscountPercent = discount.Percent
	DiscountFixed   = discount.Fixed
	DiscountUnit    = discount.Unit

	EffectApplyToOrder = discount.ApplyToOrder
	EffectApplyToItems = discount.ApplyToItems
	EffectAddSameItems = discount.AddSameItems
)
