package promotype

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// List is the envelope of every list response:
// {"object":"list","data_ref":"data","data":[...],"total":N,"has_more":B}.
// The array is encoded under the key DataRef names (empty means "data"), so
// a list answers in the hosted service's shape of its endpoint
// ({"data_ref":"vouchers","vouchers":[...]}) by setting DataRef; see
// [List.WithRef].
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
	return &List[T]{Object: "list", DataRef: DataRefData, Data: items, Total: total, HasMore: q.Offset+len(items) < total}
}

// ListWith answers a list request for one project: params checked against
// spec at now, one page read by a store's list method, each item passed
// through fix (nil: as read).
func ListWith[T any](ctx context.Context, read func(context.Context, string, Query) ([]T, int, error), projectID string,
	params ListParams, spec ListSpec, now Time, fix func(T) T,
) (*List[T], error) {
	q, err := params.Query(spec, now)
	if err != nil {
		return nil, err
	}
	items, total, err := read(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	if fix != nil {
		for i := range items {
			items[i] = fix(items[i])
		}
	}
	return NewList(items, total, q), nil
}

// DataRefData is the hosted API's uniform key of a list's array.
const DataRefData = "data"

// WithRef sets the key the array is encoded under and returns l (nil stays
// nil).
func (l *List[T]) WithRef(ref string) *List[T] {
	if l != nil {
		l.DataRef = ref
	}
	return l
}

// SetDataRef sets the key the array is encoded under (for code that holds a
// list of an unknown item type).
func (l *List[T]) SetDataRef(ref string) {
	if l != nil {
		l.DataRef = ref
	}
}

// MarshalJSON encodes the list with its array under the key DataRef names,
// in the order object, data_ref, array, total, has_more. "<>&" are not
// escaped, as everywhere in the adapter's answers.
func (l List[T]) MarshalJSON() ([]byte, error) {
	ref := cmpOr(l.DataRef, DataRefData)
	data := l.Data
	if data == nil {
		data = []T{}
	}
	le := GetEncoder()
	defer le.Put()
	b := &le.buf
	b.WriteString(`{"object":`)
	if err := le.name(cmpOr(l.Object, "list")); err != nil {
		return nil, err
	}
	b.WriteString(`,"data_ref":`)
	if err := le.name(ref); err != nil {
		return nil, err
	}
	b.WriteByte(',')
	if err := le.name(ref); err != nil {
		return nil, err
	}
	b.WriteByte(':')
	if err := le.enc.Encode(data); err != nil {
		return nil, err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteString(`,"total":`)
	b.WriteString(strconv.Itoa(l.Total))
	b.WriteString(`,"has_more":`)
	b.WriteString(strconv.FormatBool(l.HasMore))
	b.WriteByte('}')
	return bytes.Clone(b.Bytes()), nil
}

// name writes s as a JSON string: directly when it is a plain identifier
// (every object name and data_ref), else through the encoder.
func (le *Encoder) name(s string) error {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if plain {
		le.buf.WriteByte('"')
		le.buf.WriteString(s)
		le.buf.WriteByte('"')
		return nil
	}
	if err := le.enc.Encode(s); err != nil {
		return err
	}
	le.buf.Truncate(le.buf.Len() - 1)
	return nil
}

// UnmarshalJSON decodes a list in either shape: the array is read from the
// key data_ref names ("data" when data_ref is absent).
func (l *List[T]) UnmarshalJSON(raw []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	var out List[T]
	for k, dst := range map[string]any{"object": &out.Object, "data_ref": &out.DataRef, "total": &out.Total, "has_more": &out.HasMore} {
		if v, ok := m[k]; ok {
			if err := json.Unmarshal(v, dst); err != nil {
				return err
			}
		}
	}
	ref := out.DataRef
	if ref == "" {
		ref = DataRefData
	}
	if v, ok := m[ref]; ok {
		if err := json.Unmarshal(v, &out.Data); err != nil {
			return err
		}
	}
	*l = out
	return nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
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
