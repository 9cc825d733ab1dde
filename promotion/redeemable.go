package promotion

import (
	"time"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// What stackable validation (package redemption) reads of a snapshot: it
// walks vouchers and tiers with one running order, so it builds the rule
// input of each step itself and prices tiers with the snapshot's catalog.

// RuleInput builds what rules read of order o with the customer's and the
// request's metadata. Give it back with ReleaseInput when nothing reads it.
func RuleInput(o *order.Order, customer, redemption promotype.Metadata) *rule.Input {
	return ruleInput(o, customer, redemption)
}

// ReleaseInput recycles an input RuleInput returned; it must not be used again.
func ReleaseInput(in *rule.Input) { releaseInput(in) }

// Catalog resolves the products the snapshot's unit discounts give.
func (s *Snapshot) Catalog() discount.Catalog { return s.catalog }

// Location is the project's time zone the snapshot evaluates windows in.
func (s *Snapshot) Location() *time.Location { return s.loc }
