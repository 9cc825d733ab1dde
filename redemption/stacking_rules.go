package redemption

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// PrefixStackingRules is the id prefix of stored stacking rules.
const PrefixStackingRules = "stk_"

// Values of the stacking rules' enumerated fields.
const (
	ModeAll     = "ALL"
	ModePartial = "PARTIAL"

	SortRequestedOrder    = "REQUESTED_ORDER"
	SortCategoryHierarchy = "CATEGORY_HIERARCHY"

	GroupedJointAlwaysLast = "JOINT_ALWAYS_LAST"

	CalcInitialAmount    = "INITIAL_AMOUNT"
	CalcDiscountedAmount = "DISCOUNTED_AMOUNT"

	ProductsStack = "STACK"
	ProductsOnce  = "ONCE"

	NoEffectRedeemAnyway = "REDEEM_ANYWAY"
	NoEffectSkip         = "SKIP"

	RollbackWithOrder    = "WITH_ORDER"
	RollbackWithoutOrder = "WITHOUT_ORDER"
)

// StackingRules are a project's rules for combining redeemables (object
// of /management/v1/projects/{projectId}/stacking-rules). The defaults
// (DefaultStackingRules) have no id and no timestamps; validation
// responses echo the effective rules without them.
type StackingRules struct {
	ID                                             string          `json:"id,omitempty"`
	ExclusiveCategories                            []string        `json:"exclusive_categories"`
	JointCategories                                []string        `json:"joint_categories"`
	RedeemablesLimit                               int             `json:"redeemables_limit"`
	ApplicableRedeemablesLimit                     int             `json:"applicable_redeemables_limit"`
	ApplicableRedeemablesPerCategoryLimit          int             `json:"applicable_redeemables_per_category_limit"`
	ApplicableRedeemablesCategoryLimits            map[string]int  `json:"applicable_redeemables_category_limits"`
	ApplicableExclusiveRedeemablesLimit            int             `json:"applicable_exclusive_redeemables_limit"`
	ApplicableExclusiveRedeemablesPerCategoryLimit int             `json:"applicable_exclusive_redeemables_per_category_limit"`
	DiscountCalculationMode                        string          `json:"discount_calculation_mode"`
	InitialAmountModeCategories                    []string        `json:"initial_amount_mode_categories"`
	DiscountedAmountModeCategories                 []string        `json:"discounted_amount_mode_categories"`
	RedeemablesApplicationMode                     string          `json:"redeemables_application_mode"`
	RedeemablesSortingRule                         string          `json:"redeemables_sorting_rule"`
	RedeemablesNoEffectRule                        string          `json:"redeemables_no_effect_rule"`
	NoEffectSkipCategories                         []string        `json:"no_effect_skip_categories"`
	NoEffectRedeemAnywayCategories                 []string        `json:"no_effect_redeem_anyway_categories"`
	RedeemablesProductsApplicationMode             string          `json:"redeemables_products_application_mode"`
	RedeemablesRollbackOrderMode                   string          `json:"redeemables_rollback_order_mode"`
	GroupedRedeemablesSortingRule                  string          `json:"grouped_redeemables_sorting_rule"`
	CreatedAt                                      *promotype.Time `json:"created_at,omitempty"`
	UpdatedAt                                      *promotype.Time `json:"updated_at,omitempty"`
	ProjectID                                      string          `json:"-"`
}

// DefaultStackingRules are the rules of a project that stored none
// (the hosted service's defaults).
func DefaultStackingRules() *StackingRules {
	return &StackingRules{
		ExclusiveCategories:                            []string{},
		JointCategories:                                []string{},
		RedeemablesLimit:                               30,
		ApplicableRedeemablesLimit:                     5,
		ApplicableRedeemablesPerCategoryLimit:          1,
		ApplicableRedeemablesCategoryLimits:            map[string]int{},
		ApplicableExclusiveRedeemablesLimit:            1,
		ApplicableExclusiveRedeemablesPerCategoryLimit: 1,
		DiscountCalculationMode:                        CalcDiscountedAmount,
		InitialAmountModeCategories:                    []string{},
		DiscountedAmountModeCategories:                 []string{},
		RedeemablesApplicationMode:                     ModePartial,
		RedeemablesSortingRule:                         SortRequestedOrder,
		RedeemablesNoEffectRule:                        NoEffectRedeemAnyway,
		NoEffectSkipCategories:                         []string{},
		NoEffectRedeemAnywayCategories:                 []string{},
		RedeemablesProductsApplicationMode:             ProductsStack,
		RedeemablesRollbackOrderMode:                   RollbackWithOrder,
		GroupedRedeemablesSortingRule:                  GroupedJointAlwaysLast,
	}
}

// Clone returns a deep copy.
func (r *StackingRules) Clone() *StackingRules {
	c := *r
	c.ExclusiveCategories = slices.Clone(r.ExclusiveCategories)
	c.JointCategories = slices.Clone(r.JointCategories)
	c.ApplicableRedeemablesCategoryLimits = maps.Clone(r.ApplicableRedeemablesCategoryLimits)
	c.InitialAmountModeCategories = slices.Clone(r.InitialAmountModeCategories)
	c.DiscountedAmountModeCategories = slices.Clone(r.DiscountedAmountModeCategories)
	c.NoEffectSkipCategories = slices.Clone(r.NoEffectSkipCategories)
	c.NoEffectRedeemAnywayCategories = slices.Clone(r.NoEffectRedeemAnywayCategories)
	c.CreatedAt = promotype.ClonePtr(r.CreatedAt)
	c.UpdatedAt = promotype.ClonePtr(r.UpdatedAt)
	return &c
}

// Effective returns the rules as validations echo them: no id, no
// timestamps.
func (r *StackingRules) Effective() *StackingRules {
	c := r.Clone()
	c.ID, c.CreatedAt, c.UpdatedAt, c.ProjectID = "", nil, nil, ""
	return c
}

// Store is the storage port of stacking rules: at most one row per project.
// GetStackingRules returns promotype.NotFound when the project stored none;
// InsertStackingRules returns duplicate_found when it has one already.
// Returned values are the caller's own.
type Store interface {
	LedgerStore
	TransactionStore
	InsertStackingRules(ctx context.Context, r *StackingRules) error
	UpdateStackingRules(ctx context.Context, r *StackingRules) error
	GetStackingRules(ctx context.Context, projectID string) (*StackingRules, error)
	DeleteStackingRules(ctx context.Context, projectID string) error
}

// StackingRulesParams is the body of the stacking rules create and update:
// every field is optional; an absent (or null) one keeps its value (the
// default on create), a sent array replaces the old one.
type StackingRulesParams struct {
	ExclusiveCategories                            *[]string       `json:"exclusive_categories"`
	JointCategories                                *[]string       `json:"joint_categories"`
	RedeemablesLimit                               *int            `json:"redeemables_limit"`
	ApplicableRedeemablesLimit                     *int            `json:"applicable_redeemables_limit"`
	ApplicableRedeemablesPerCategoryLimit          *int            `json:"applicable_redeemables_per_category_limit"`
	ApplicableRedeemablesCategoryLimits            *map[string]int `json:"applicable_redeemables_category_limits"`
	ApplicableExclusiveRedeemablesLimit            *int            `json:"applicable_exclusive_redeemables_limit"`
	ApplicableExclusiveRedeemablesPerCategoryLimit *int            `json:"applicable_exclusive_redeemables_per_category_limit"`
	DiscountCalculationMode                        *string         `json:"discount_calculation_mode"`
	InitialAmountModeCategories                    *[]string       `json:"initial_amount_mode_categories"`
	DiscountedAmountModeCategories                 *[]string       `json:"discounted_amount_mode_categories"`
	RedeemablesApplicationMode                     *string         `json:"redeemables_application_mode"`
	RedeemablesSortingRule                         *string         `json:"redeemables_sorting_rule"`
	RedeemablesNoEffectRule                        *string         `json:"redeemables_no_effect_rule"`
	NoEffectSkipCategories                         *[]string       `json:"no_effect_skip_categories"`
	NoEffectRedeemAnywayCategories                 *[]string       `json:"no_effect_redeem_anyway_categories"`
	RedeemablesProductsApplicationMode             *string         `json:"redeemables_products_application_mode"`
	RedeemablesRollbackOrderMode                   *string         `json:"redeemables_rollback_order_mode"`
	GroupedRedeemablesSortingRule                  *string         `json:"grouped_redeemables_sorting_rule"`
}

// apply sets the fields in sends on r and checks the result.
func (in *StackingRulesParams) apply(r *StackingRules) error {
	list := func(dst *[]string, src *[]string) {
		if src != nil {
			*dst = append([]string{}, (*src)...)
		}
	}
	num := func(dst *int, src *int) {
		if src != nil {
			*dst = *src
		}
	}
	str := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	list(&r.ExclusiveCategories, in.ExclusiveCategories)
	list(&r.JointCategories, in.JointCategories)
	list(&r.InitialAmountModeCategories, in.InitialAmountModeCategories)
	list(&r.DiscountedAmountModeCategories, in.DiscountedAmountModeCategories)
	list(&r.NoEffectSkipCategories, in.NoEffectSkipCategories)
	list(&r.NoEffectRedeemAnywayCategories, in.NoEffectRedeemAnywayCategories)
	num(&r.RedeemablesLimit, in.RedeemablesLimit)
	num(&r.ApplicableRedeemablesLimit, in.ApplicableRedeemablesLimit)
	num(&r.ApplicableRedeemablesPerCategoryLimit, in.ApplicableRedeemablesPerCategoryLimit)
	num(&r.ApplicableExclusiveRedeemablesLimit, in.ApplicableExclusiveRedeemablesLimit)
	num(&r.ApplicableExclusiveRedeemablesPerCategoryLimit, in.ApplicableExclusiveRedeemablesPerCategoryLimit)
	if in.ApplicableRedeemablesCategoryLimits != nil {
		r.ApplicableRedeemablesCategoryLimits = maps.Clone(*in.ApplicableRedeemablesCategoryLimits)
		if r.ApplicableRedeemablesCategoryLimits == nil {
			r.ApplicableRedeemablesCategoryLimits = map[string]int{}
		}
	}
	str(&r.DiscountCalculationMode, in.DiscountCalculationMode)
	str(&r.RedeemablesApplicationMode, in.RedeemablesApplicationMode)
	str(&r.RedeemablesSortingRule, in.RedeemablesSortingRule)
	str(&r.RedeemablesNoEffectRule, in.RedeemablesNoEffectRule)
	str(&r.RedeemablesProductsApplicationMode, in.RedeemablesProductsApplicationMode)
	str(&r.RedeemablesRollbackOrderMode, in.RedeemablesRollbackOrderMode)
	str(&r.GroupedRedeemablesSortingRule, in.GroupedRedeemablesSortingRule)
	return r.Validate()
}

// Validate checks every field's range, enumeration and the relations
// between limits.
func (r *StackingRules) Validate() error {
	for _, f := range []struct {
		name     string
		v, lo, h int
	}{
		{"redeemables_limit", r.RedeemablesLimit, 1, 30},
		{"applicable_redeemables_limit", r.ApplicableRedeemablesLimit, 1, 30},
		{"applicable_redeemables_per_category_limit", r.ApplicableRedeemablesPerCategoryLimit, 1, 30},
		{"applicable_exclusive_redeemables_limit", r.ApplicableExclusiveRedeemablesLimit, 1, 5},
		{"applicable_exclusive_redeemables_per_category_limit", r.ApplicableExclusiveRedeemablesPerCategoryLimit, 1, 30},
	} {
		if f.v < f.lo {
			return promotype.InvalidPayload("Property .%s must be >= %d", f.name, f.lo)
		}
		if f.v > f.h {
			return promotype.InvalidPayload("Property .%s must be <= %d", f.name, f.h)
		}
	}
	switch {
	case r.ApplicableRedeemablesLimit > r.RedeemablesLimit:
		return promotype.InvalidPayload("Property .applicable_redeemables_limit must be <= redeemables_limit")
	case r.ApplicableRedeemablesPerCategoryLimit > r.ApplicableRedeemablesLimit:
		return promotype.InvalidPayload("Property .applicable_redeemables_per_category_limit must be <= applicable_redeemables_limit")
	case r.ApplicableExclusiveRedeemablesPerCategoryLimit > r.ApplicableExclusiveRedeemablesLimit:
		return promotype.InvalidPayload("Property .applicable_exclusive_redeemables_per_category_limit must be <= applicable_exclusive_redeemables_limit")
	}
	for _, k := range slices.Sorted(maps.Keys(r.ApplicableRedeemablesCategoryLimits)) {
		if n := r.ApplicableRedeemablesCategoryLimits[k]; n < 1 || n > 10 {
			return promotype.InvalidPayload("Property .applicable_redeemables_category_limits['%s'] must be between 1 and 10", k)
		}
	}
	for _, f := range []struct {
		name, v string
		allowed []string
	}{
		{"discount_calculation_mode", r.DiscountCalculationMode, []string{CalcInitialAmount, CalcDiscountedAmount}},
		{"redeemables_application_mode", r.RedeemablesApplicationMode, []string{ModeAll, ModePartial}},
		{"redeemables_sorting_rule", r.RedeemablesSortingRule, []string{SortCategoryHierarchy, SortRequestedOrder}},
		{"redeemables_no_effect_rule", r.RedeemablesNoEffectRule, []string{NoEffectRedeemAnyway, NoEffectSkip}},
		{"redeemables_products_application_mode", r.RedeemablesProductsApplicationMode, []string{ProductsStack, ProductsOnce}},
		{"redeemables_rollback_order_mode", r.RedeemablesRollbackOrderMode, []string{RollbackWithOrder, RollbackWithoutOrder}},
		{"grouped_redeemables_sorting_rule", r.GroupedRedeemablesSortingRule, []string{GroupedJointAlwaysLast}},
	} {
		if !slices.Contains(f.allowed, f.v) {
			return promotype.InvalidPayload("Property .%s must be equal to one of the allowed values: %s", f.name, strings.Join(f.allowed, ", "))
		}
	}
	for _, c := range r.NoEffectSkipCategories {
		if slices.Contains(r.NoEffectRedeemAnywayCategories, c) {
			return promotype.InvalidPayload("Category %s cannot be in both no_effect_skip_categories and no_effect_redeem_anyway_categories", c)
		}
	}
	for _, c := range r.ExclusiveCategories {
		if slices.Contains(r.JointCategories, c) {
			return promotype.InvalidPayload("Category %s cannot be in both exclusive_categories and joint_categories", c)
		}
	}
	for _, c := range r.InitialAmountModeCategories {
		if slices.Contains(r.DiscountedAmountModeCategories, c) {
			return promotype.InvalidPayload("Category %s cannot be in both initial_amount_mode_categories and discounted_amount_mode_categories", c)
		}
	}
	return nil
}
