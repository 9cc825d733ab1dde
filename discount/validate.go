package discount

import (
	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

var effectsByType = map[Type][]Effect{
	Amount:  {ApplyToOrder, ApplyToItems, ApplyToItemsProportionally, ApplyToItemsProportionallyByQuantity, ApplyToItemsByQuantity},
	Percent: {ApplyToOrder, ApplyToItems},
	Fixed:   {ApplyToOrder, ApplyToItems},
	Unit:    {AddMissingItems, AddNewItems, AddManyItems},
}

// Validate checks a discount as a request gives it, at path (".discount",
// ".voucher.discount", ".action.discount"), and fills is_dynamic.
func (d *Discount) Validate(path string) error {
	bad := func(format string, args ...any) error {
		return promotype.InvalidPayload("Property "+path+format, args...)
	}
	allowed, ok := effectsByType[d.Type]
	if !ok {
		return bad(".type must be equal to one of the allowed values: AMOUNT, PERCENT, FIXED, UNIT")
	}
	if d.Effect == AddSameItems {
		return bad(".effect ADD_SAME_ITEMS is not supported by this engine yet")
	}
	if d.Effect != "" && !hasEffect(allowed, d.Effect) {
		return bad(".effect must be one of %v for a %s discount", allowed, d.Type)
	}
	// Money fields are integers in the smallest currency unit, bounded like
	// every order amount: a fraction would be rounded and a larger value
	// could never be applied.
	nonNegative := func(name string, v *promotype.Decimal) error {
		switch {
		case v == nil:
		case v.IsNegative():
			return bad(".%s must be >= 0", name)
		case !v.IsInteger():
			return bad(".%s must be an integer (an amount in the smallest currency unit)", name)
		case v.GreaterThan(decimal.NewFromInt(order.MaxAmount)):
			return bad(".%s must be <= %d", name, order.MaxAmount)
		}
		return nil
	}
	switch d.Type {
	case Amount:
		if d.AmountOff == nil {
			return bad(" must have required property 'amount_off'")
		}
		if err := nonNegative("amount_off", d.AmountOff); err != nil {
			return err
		}
	case Percent:
		if d.PercentOff == nil {
			return bad(" must have required property 'percent_off'")
		}
		if d.PercentOff.IsNegative() || d.PercentOff.GreaterThan(decimal.NewFromInt(100)) {
			return bad(".percent_off must be between 0 and 100")
		}
		if err := nonNegative("amount_limit", d.AmountLimit); err != nil {
			return err
		}
	case Fixed:
		if d.FixedAmount == nil {
			return bad(" must have required property 'fixed_amount'")
		}
		if err := nonNegative("fixed_amount", d.FixedAmount); err != nil {
			return err
		}
	case Unit:
		if err := d.validateUnits(path); err != nil {
			return err
		}
	}
	if d.AggregatedAmountLimit != nil && *d.AggregatedAmountLimit < 0 {
		return bad(".aggregated_amount_limit must be >= 0")
	}
	if d.AggregatedAmountLimit != nil && *d.AggregatedAmountLimit > order.MaxAmount {
		return bad(".aggregated_amount_limit must be <= %d", order.MaxAmount)
	}
	for _, fm := range []struct {
		name string
		src  *string
	}{{"amount_off_formula", d.AmountOffFormula}, {"percent_off_formula", d.PercentOffFormula},
		{"fixed_amount_formula", d.FixedAmountFormula}, {"unit_off_formula", d.UnitOffFormula}} {
		if fm.src == nil {
			continue
		}
		if err := CheckFormula(*fm.src); err != nil {
			return bad(".%s is not a valid formula: %v", fm.name, err)
		}
	}
	d.IsDynamic = d.AmountOffFormula != nil || d.PercentOffFormula != nil || d.FixedAmountFormula != nil || d.UnitOffFormula != nil
	for _, u := range d.Units {
		d.IsDynamic = d.IsDynamic || u.UnitOffFormula != nil
	}
	return nil
}

func (d *Discount) validateUnits(path string) error {
	bad := func(format string, args ...any) error {
		return promotype.InvalidPayload("Property "+path+format, args...)
	}
	if len(d.Units) > 0 || d.Effect == AddManyItems {
		if d.Effect != "" && d.Effect != AddManyItems {
			return bad(".effect must be ADD_MANY_ITEMS when units are given")
		}
		if len(d.Units) == 0 {
			return bad(".units must NOT have fewer than 1 items")
		}
		d.Effect = AddManyItems
		for i := range d.Units {
			u := &d.Units[i]
			if u.UnitType == "" {
				return bad(".units[%d] must have required property 'unit_type'", i)
			}
			if u.UnitOff == nil || *u.UnitOff < 1 {
				return bad(".units[%d].unit_off must be >= 1", i)
			}
			if *u.UnitOff > order.MaxAmount {
				return bad(".units[%d].unit_off must be <= %d", i, order.MaxAmount)
			}
			if u.Effect != AddMissingItems && u.Effect != AddNewItems {
				return bad(".units[%d].effect must be equal to one of the allowed values: ADD_MISSING_ITEMS, ADD_NEW_ITEMS", i)
			}
			if u.UnitOffFormula != nil {
				if err := CheckFormula(*u.UnitOffFormula); err != nil {
					return bad(".units[%d].unit_off_formula is not a valid formula: %v", i, err)
				}
			}
		}
		return nil
	}
	if d.UnitType == "" {
		return bad(" must have required property 'unit_type'")
	}
	if d.UnitOff == nil || *d.UnitOff < 1 {
		return bad(".unit_off must be >= 1")
	}
	if *d.UnitOff > order.MaxAmount {
		return bad(".unit_off must be <= %d", order.MaxAmount)
	}
	if d.Effect == "" {
		d.Effect = AddMissingItems
	}
	return nil
}

func hasEffect(list []Effect, e Effect) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}
