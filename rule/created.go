package rule

import "github.com/promoengine/promo/discount"

// Created is the answer of a validation rule create (POST
// /v1/validation-rules) as the hosted service gives it, which its SDKs'
// test snapshots record: applicable_to as the request sent it (null
// without one; included or excluded null when not sent, the entries with
// their defaults) and assignments_count null. A read answers the rule
// itself: empty lists and the count (docs/behaviour.md, issue 29).
type Created struct {
	*ValidationRule
	ApplicableTo     *SentApplicability `json:"applicable_to"`
	AssignmentsCount *int               `json:"assignments_count"`
}

// SentApplicability is the applicable_to of a Created answer.
type SentApplicability struct {
	Excluded    []discount.Target `json:"excluded"`
	Included    []discount.Target `json:"included"`
	IncludedAll bool              `json:"included_all"`
}

// NewCreated is the answer of the create of r with in.
func NewCreated(r *ValidationRule, in Params) *Created {
	out := &Created{ValidationRule: r}
	if a := in.ApplicableTo; a != nil {
		out.ApplicableTo = &SentApplicability{IncludedAll: r.ApplicableTo.IncludedAll}
		if a.Included != nil {
			out.ApplicableTo.Included = r.ApplicableTo.Included
		}
		if a.Excluded != nil {
			out.ApplicableTo.Excluded = r.ApplicableTo.Excluded
		}
	}
	return out
}
