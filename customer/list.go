package customer

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// ListSpec is what the customer list accepts: orders by created_at,
// updated_at and source_id (newest first by default, as the hosted service
// answers), and the fields its query parameters filter.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at", "source_id"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"source_id":    promotype.FieldString,
		"email":        promotype.FieldString,
		"name":         promotype.FieldString,
		"address.city": promotype.FieldString,
		"created_at":   promotype.FieldTime,
		"updated_at":   promotype.FieldTime,
	},
}

// FieldSegmentID is the condition of a customer list that keeps the
// members of a segment (OpIs, one segment id): a store's ListCustomers
// reads it from the segment memberships, not from the customer.
const FieldSegmentID = "segment_id"

// ListParams is the query of GET /v1/customers: paging and order, the
// exact-match filters email, city and name, the created_at / updated_at
// bounds (strict), and the starting_after cursor.
type ListParams struct {
	promotype.ListParams
	Email, City, Name *string
	// SegmentID keeps the members of that segment (an unknown segment
	// has none).
	SegmentID                   *string
	CreatedBefore, CreatedAfter *promotype.Time
	UpdatedBefore, UpdatedAfter *promotype.Time
	// StartingAfter is a created_at cursor: the list goes on past it in
	// its order (created before it for -created_at, the default; after it
	// for created_at). Any other order refuses it.
	StartingAfter *promotype.Time
}

// List returns one page of the project's live customers, each with its
// summary, loyalty and referrals.
func (s *Service) List(ctx context.Context, projectID string, p ListParams) (*promotype.List[*Customer], error) {
	q, err := p.ListParams.Query(ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	is := func(field, v string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
	}
	for _, f := range []struct {
		field string
		v     *string
	}{{"email", p.Email}, {"address.city", p.City}, {"name", p.Name}} {
		if f.v != nil {
			q.Must = append(q.Must, is(f.field, *f.v))
		}
	}
	q.Must = append(q.Must, promotype.Within("created_at", p.CreatedBefore, p.CreatedAfter)...)
	q.Must = append(q.Must, promotype.Within("updated_at", p.UpdatedBefore, p.UpdatedAfter)...)
	if p.StartingAfter != nil {
		if q.OrderBy != "created_at" {
			return nil, promotype.InvalidQueryParams("Property .starting_after can only be used with order created_at or -created_at")
		}
		op := promotype.OpAfter
		if q.Desc {
			op = promotype.OpBefore
		}
		q.Must = append(q.Must, promotype.Condition{Field: "created_at", Op: op, At: *p.StartingAfter})
	}
	if p.SegmentID != nil {
		q.Must = append(q.Must, promotype.Condition{Field: FieldSegmentID, Op: promotype.OpIs, Values: []string{*p.SegmentID}})
	}
	items, total, err := s.store.ListCustomers(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, c := range items {
		if _, err := s.present(ctx, c.normalize()); err != nil {
			return nil, err
		}
	}
	return promotype.NewList(items, total, q), nil
}
