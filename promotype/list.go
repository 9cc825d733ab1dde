package promotype

import (
	"slices"
	"strings"
	"time"
)

// List is the envelope of every list response:
// {"object":"list","data_ref":"data","data":[...],"total":N,"has_more":B}.
type List[T any] struct {
	Object  string `json:"object"`
	DataRef string `json:"data_ref"`
	Data    []T    `json:"data"`
	Total   int    `json:"total"`
	HasMore bool   `json:"has_more"`
}

// NewList wraps one page of items; total counts every match of the query.
func NewList[T any](items []T, total int, q Query) *List[T] {
	if items == nil {
		items = []T{}
	}
	return &List[T]{Object: "list", DataRef: "data", Data: items, Total: total, HasMore: q.Offset+len(items) < total}
}

// Paging limits shared by every list endpoint.
const (
	DefaultLimit = 10
	MaxLimit     = 100
	MaxPage      = 1000
)

// ListParams are the paging, order and filter parameters of a list call as a
// client gives them. Zero values mean the defaults.
type ListParams struct {
	Limit   int
	Page    int
	Order   string // field name; a leading '-' means descending
	Filter  Filter
	EndDate *Time // only records created at or before it
}

// Query is a list query as a store runs it: validated, with offsets computed
// and relative dates resolved. Stores order by OrderBy then by id, in the
// same direction, so pages never overlap.
type Query struct {
	Limit   int
	Offset  int
	OrderBy string
	Desc    bool
	Filter  Filter      // the client's conditions, joined by Filter.Junction
	Must    []Condition // conditions that always hold in addition (end_date, scoping)
}

// ListSpec tells [ListParams.Query] what one list endpoint accepts.
type ListSpec struct {
	Orders       []string             // accepted order fields (without '-')
	DefaultOrder string               // e.g. "-created_at"
	Fields       map[string]FieldKind // filterable fields
}

// Query validates p against spec and returns the store query. now resolves
// the relative date conditions ($more_than, $less_than days ago).
func (p ListParams) Query(spec ListSpec, now Time) (Query, error) {
	q := Query{Limit: p.Limit}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return Query{}, InvalidQueryParams("Property .limit must be between 1 and %d", MaxLimit)
	}
	page := p.Page
	if page == 0 {
		page = 1
	}
	if page < 1 {
		return Query{}, InvalidQueryParams("Property .page must be greater than or equal to 1")
	}
	if page > MaxPage {
		return Query{}, Newf(400, "page_over_limit", "Page over limit", "Property .page cannot be higher than %d", MaxPage)
	}
	q.Offset = (page - 1) * q.Limit
	order := p.Order
	if order == "" {
		order = spec.DefaultOrder
	}
	q.OrderBy, q.Desc = strings.TrimPrefix(order, "-"), strings.HasPrefix(order, "-")
	if !slices.Contains(spec.Orders, q.OrderBy) {
		return Query{}, InvalidQueryParams("Property .order must be one of %s", orderChoices(spec.Orders))
	}
	f, err := p.Filter.resolve(spec.Fields, now)
	if err != nil {
		return Query{}, err
	}
	q.Filter = f
	if p.EndDate != nil {
		// "at or before": $before is strict, so move the bound by one millisecond.
		q.Must = append(q.Must, Condition{Field: "created_at", Op: OpBefore, At: NewTime(p.EndDate.Add(time.Millisecond))})
	}
	return q, nil
}

func orderChoices(fields []string) string {
	out := make([]string, 0, 2*len(fields))
	for _, f := range fields {
		out = append(out, f, "-"+f)
	}
	return strings.Join(out, ", ")
}
