package redemption

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

// TestStackingRulesParams: every field is checked for its range, its
// values and its relation to the others; an absent field keeps its value.
func TestStackingRulesParams(t *testing.T) {
	t.Parallel()
	n := func(v int) *int { return &v }
	s := func(v string) *string { return &v }
	l := func(v ...string) *[]string { return &v }
	tests := []struct {
		name string
		in   StackingRulesParams
		want string // details of the 400, "" when accepted
	}{
		{"defaults", StackingRulesParams{}, ""},
		{"redeemables_limit above 30", StackingRulesParams{RedeemablesLimit: n(31)}, "Property .redeemables_limit must be <= 30"},
		{"redeemables_limit below 1", StackingRulesParams{RedeemablesLimit: n(0)}, "Property .redeemables_limit must be >= 1"},
		{"applicable above redeemables_limit", StackingRulesParams{RedeemablesLimit: n(3), ApplicableRedeemablesLimit: n(4)},
			"Property .applicable_redeemables_limit must be <= redeemables_limit"},
		{"per category above applicable", StackingRulesParams{ApplicableRedeemablesPerCategoryLimit: n(6)},
			"Property .applicable_redeemables_per_category_limit must be <= applicable_redeemables_limit"},
		{"category limit above 10", StackingRulesParams{ApplicableRedeemablesCategoryLimits: &map[string]int{"cat_1": 11}},
			"Property .applicable_redeemables_category_limits['cat_1'] must be between 1 and 10"},
		{"exclusive limit above 5", StackingRulesParams{ApplicableExclusiveRedeemablesLimit: n(6)},
			"Property .applicable_exclusive_redeemables_limit must be <= 5"},
		{"exclusive per category above exclusive limit", StackingRulesParams{ApplicableExclusiveRedeemablesPerCategoryLimit: n(2)},
			"Property .applicable_exclusive_redeemables_per_category_limit must be <= applicable_exclusive_redeemables_limit"},
		{"calculation mode", StackingRulesParams{DiscountCalculationMode: s("TOTAL")},
			"Property .discount_calculation_mode must be equal to one of the allowed values: INITIAL_AMOUNT, DISCOUNTED_AMOUNT"},
		{"application mode", StackingRulesParams{RedeemablesApplicationMode: s("SOME")},
			"Property .redeemables_application_mode must be equal to one of the allowed values: ALL, PARTIAL"},
		{"sorting rule", StackingRulesParams{RedeemablesSortingRule: s("RANDOM")},
			"Property .redeemables_sorting_rule must be equal to one of the allowed values: CATEGORY_HIERARCHY, REQUESTED_ORDER"},
		{"no-effect rule", StackingRulesParams{RedeemablesNoEffectRule: s("IGNORE")},
			"Property .redeemables_no_effect_rule must be equal to one of the allowed values: REDEEM_ANYWAY, SKIP"},
		{"products mode", StackingRulesParams{RedeemablesProductsApplicationMode: s("TWICE")},
			"Property .redeemables_products_application_mode must be equal to one of the allowed values: STACK, ONCE"},
		{"rollback mode", StackingRulesParams{RedeemablesRollbackOrderMode: s("KEEP")},
			"Property .redeemables_rollback_order_mode must be equal to one of the allowed values: WITH_ORDER, WITHOUT_ORDER"},
		{"grouped sorting rule", StackingRulesParams{GroupedRedeemablesSortingRule: s("JOINT_ALWAYS_FIRST")},
			"Property .grouped_redeemables_sorting_rule must be equal to one of the allowed values: JOINT_ALWAYS_LAST"},
		{"no-effect categories overlap", StackingRulesParams{NoEffectSkipCategories: l("cat_1"), NoEffectRedeemAnywayCategories: l("cat_1")},
			"Category cat_1 cannot be in both no_effect_skip_categories and no_effect_redeem_anyway_categories"},
		{"exclusive and joint overlap", StackingRulesParams{ExclusiveCategories: l("cat_1"), JointCategories: l("cat_1")},
			"Category cat_1 cannot be in both exclusive_categories and joint_categories"},
		{"calculation mode categories overlap", StackingRulesParams{InitialAmountModeCategories: l("cat_1"), DiscountedAmountModeCategories: l("cat_1")},
			"Category cat_1 cannot be in both initial_amount_mode_categories and discounted_amount_mode_categories"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := DefaultStackingRules()
			err := tc.in.apply(r)
			got := ""
			if err != nil {
				e := promotype.AsError(err)
				if e.Key != "invalid_payload" || e.Code != 400 {
					t.Fatalf("error %v, want 400 invalid_payload", err)
				}
				got = e.Details
			}
			if got != tc.want {
				t.Errorf("apply = %q, want %q", got, tc.want)
			}
		})
	}
	r := DefaultStackingRules()
	in := StackingRulesParams{ExclusiveCategories: l("cat_x"), ApplicableRedeemablesLimit: n(10)}
	if err := in.apply(r); err != nil {
		t.Fatal(err)
	}
	want := DefaultStackingRules()
	want.ExclusiveCategories, want.ApplicableRedeemablesLimit = []string{"cat_x"}, 10
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("after apply (-want +got):\n%s", diff)
	}
}
