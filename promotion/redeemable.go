package promotion

import (
	"context"
	"errors"
	"time"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
)

// What stackable validation (package redemption) reads of a snapshot: it
// walks vouchers and tiers with one running order, so it builds the rule
// input of each step itself and prices tiers with the snapshot's catalog.

// RuleInput builds what rules read of order o with the customer's and the
// request's metadata. Give it back with ReleaseInput when nothing reads it.
func RuleInput(o *order.Order, customer, redemption promotype.Metadata) *rule.Input {
	return ruleInput(o, customer, redemption, nil, nil)
}

// RuleInputIn is RuleInput with the customer's segments (ascending ids)
// and each line's product collections among cols (a snapshot's
// Collections), which customer.segment and products_collection rules read.
func RuleInputIn(o *order.Order, customer, redemption promotype.Metadata, segments []string, cols *catalog.Collections) *rule.Input {
	return ruleInput(o, customer, redemption, segments, cols)
}

// Collections is the project's product collections, compiled when the
// snapshot was.
func (s *Snapshot) Collections() *catalog.Collections { return s.collections }

// ReleaseInput recycles an input RuleInput returned; it must not be used again.
func ReleaseInput(in *rule.Input) { releaseInput(in) }

// Catalog resolves the products the snapshot's unit discounts give.
func (s *Snapshot) Catalog() discount.Catalog { return s.catalog }

// Location is the project's time zone the snapshot evaluates windows in.
func (s *Snapshot) Location() *time.Location { return s.loc }

// Snapshot returns the project's compiled tiers from the per-project cache
// (stackable validation resolves the tiers a request names in it).
func (s *Service) Snapshot(ctx context.Context, projectID string) (*Snapshot, error) {
	return s.cache.Snapshot(ctx, projectID)
}

// TrackingID is "track_" and a keyed hash of the customer's source id,
// stable per project; random without one.
func TrackingID(projectID, sourceID string) string { return trackingID(projectID, sourceID) }

// ResolveCustomer returns the metadata rules read of a request's customer
// and its source id ("" without one): a customer named by id must exist;
// one named by source id alone is looked up and, when unknown, taken as
// sent.
func ResolveCustomer(ctx context.Context, st customer.Reader, projectID string, c *customer.Params) (promotype.Metadata, string, error) {
	l, err := LookupCustomer(ctx, st, projectID, c)
	return l.Metadata, l.SourceID, err
}

// CustomerLookup is what LookupCustomer found of a request's customer.
type CustomerLookup struct {
	Metadata promotype.Metadata // what rules read of the customer
	SourceID string             // "" without one
	// Looked reports whether the stored customer was looked up (by id,
	// or by source id when the request sent no metadata); Stored is the
	// customer found then (nil when none has the source id).
	Looked bool
	Stored *customer.Customer
}

// CustomerRef is what LookupCustomer resolves c by: its id, else its
// source id when c carries no metadata of its own (with metadata, the
// request's customer is taken as sent); "" when it reads nothing.
func CustomerRef(c *customer.Params) string {
	switch {
	case c.ID != nil:
		return *c.ID
	case c.SourceID != nil && c.Metadata == nil:
		return *c.SourceID
	}
	return ""
}

// LookupCustomer is ResolveCustomer that also returns the stored customer
// it read, so a caller that needs it does not read it again.
func LookupCustomer(ctx context.Context, st customer.Reader, projectID string, c *customer.Params) (CustomerLookup, error) {
	l := CustomerLookup{Metadata: c.Metadata}
	if c.SourceID != nil {
		l.SourceID = *c.SourceID
	}
	ref := CustomerRef(c)
	if ref == "" {
		return l, nil
	}
	stored, err := customer.Resolve(ctx, st, projectID, ref)
	switch {
	case err == nil:
		l.Metadata, l.Looked, l.Stored = stored.Metadata, true, stored
		if stored.SourceID != nil {
			l.SourceID = *stored.SourceID
		}
	case c.ID != nil || !errors.Is(err, promotype.ErrNotFound):
		return CustomerLookup{}, err
	default:
		l.Looked = true
	}
	return l, nil
}

// SegmentReader is what CustomerSegments reads.
type SegmentReader interface {
	customer.Reader
	segment.Reader
}

// CustomerSegments returns the ids of the segments of the customer a
// request names (l, what LookupCustomer found), ascending: none for a
// request without a stored customer. A customer named by source id with
// metadata of its own was not looked up: it is found by its source id
// here.
func CustomerSegments(ctx context.Context, st SegmentReader, projectID string, l CustomerLookup) ([]string, error) {
	c := l.Stored
	if c == nil && !l.Looked && l.SourceID != "" {
		found, err := st.FindCustomerBySourceID(ctx, projectID, l.SourceID)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			return nil, nil
		case err != nil:
			return nil, err
		}
		c = found
	}
	if c == nil {
		return nil, nil
	}
	return st.CustomerSegmentIDs(ctx, projectID, c.ID)
}
