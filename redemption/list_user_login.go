package redemption

import "github.com/promoengine/promo/promotype"

// userLoginConditions replaces the conditions of f on user_login (the
// filter of GET /v1/redemptions; the dashboard user who redeemed) by
// constant ones: the engine has no dashboard users, so every row's
// user_login is null. A condition a null meets ($is_unknown, the negative
// operators) becomes "id has a value" (every row), any other "id is one
// no row has".
func userLoginConditions(f promotype.Filter) (promotype.Filter, error) {
	out := f
	out.Conditions = make([]promotype.Condition, 0, len(f.Conditions))
	for _, c := range f.Conditions {
		if c.Field != "user_login" {
			out.Conditions = append(out.Conditions, c)
			continue
		}
		one := promotype.Filter{Conditions: []promotype.Condition{c}}
		checked, err := one.Resolve(map[string]promotype.FieldKind{"user_login": promotype.FieldString}, promotype.Time{})
		if err != nil {
			return promotype.Filter{}, err
		}
		if checked.Conditions[0].Match(promotype.Value{Null: true}) {
			out.Conditions = append(out.Conditions, promotype.Condition{Field: "id", Op: promotype.OpHasValue})
		} else {
			out.Conditions = append(out.Conditions, promotype.Condition{Field: "id", Op: promotype.OpIn, Values: []string{noCampaign}})
		}
	}
	return out, nil
}
