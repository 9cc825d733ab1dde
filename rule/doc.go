// Package rule compiles validation rules (the numbered rule map with its
// `logic` expression, conditions and item sub-rules) into typed programs and
// evaluates them against a typed [Input] without reflection.
//
// A rule set is compiled once, when it is saved; names and conditions the
// engine cannot evaluate are refused then (400 invalid_validation_rules),
// never silently true or false at validation time. [Anchors] tells which
// facts of a request a program needs, so an [Index] can skip programs that
// cannot pass before evaluating them.
//
// The [Service] (Engine.ValidationRules()) creates, reads, updates and
// deletes a [ValidationRule] and assigns it to vouchers, campaigns,
// promotion tiers and other objects (Assign, or the validation_rules of
// their create). A rule set numbers its rules and joins them with its
// Logic ("1 and (2 or 3)"; all of them with "and" when empty); each [Rule]
// names a fact (order.amount, customer.metadata with its Property,
// product.id, customer.segment, redemption.count.per_customer, ...) and
// its conditions by operator ($is, $is_not, $in, $not_in, $more_than,
// $less_than, $more_than_or_equal, $less_than_or_equal, $contains,
// $starts_with, $ends_with, $before, $after, $count_more, ...).
//
//	r, err := eng.ValidationRules().Create(ctx, projectID, rule.Params{
//		Name: promo.Ptr("Orders over 50.00"),
//		Rules: &rule.RuleSet{Rules: map[string]rule.Rule{
//			"1": {Name: "order.amount", Conditions: map[string][]any{"$more_than": {5000}}},
//		}},
//	})
//	// then voucher.Params{ValidationRules: []string{r.ID}, ...}
package rule
