package promotion

import (
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// Tier is a promotion tier as validation sees it.
type Tier struct {
	ID         string
	Name       string
	Banner     *string
	Hierarchy  int
	Active     bool
	Validity   campaign.Validity // the tier's own; when zero the campaign's applies
	Campaign   CampaignInfo
	Discount   *discount.Discount
	Metadata   promotype.Metadata
	CategoryID *string
	CreatedAt  promotype.Time

	// Programs are the compiled rules assigned to the tier and to its
	// campaign: all must pass.
	Programs []*rule.Program
	// Applicability merges the applicable_to of those rules (nil: none).
	Applicability *discount.Applicability
}

// facts are what t's discount formulas read besides the order.
func (t *Tier) facts(req Request) *discount.Facts {
	return &discount.Facts{Customer: req.Customer, Redemption: req.Redemption, Redeemable: t.Metadata}
}

// CampaignInfo is what a tier needs of its campaign.
type CampaignInfo struct {
	ID       string
	Active   bool
	Validity campaign.Validity
}

// MergeApplicability joins the applicable_to of several rules: included
// and excluded entries add up, included_all holds if any says so.
func MergeApplicability(rules ...*rule.ValidationRule) *discount.Applicability {
	var out *discount.Applicability
	for _, r := range rules {
		a := r.ApplicableTo
		if len(a.Included) == 0 && len(a.Excluded) == 0 && !a.IncludedAll {
			continue
		}
		if out == nil {
			out = &discount.Applicability{}
		}
		out.Included = append(out.Included, a.Included...)
		out.Excluded = append(out.Excluded, a.Excluded...)
		out.IncludedAll = out.IncludedAll || a.IncludedAll
	}
	return out
}
