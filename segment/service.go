package segment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// Limits of segments (as the hosted service sets them).
const (
	// MaxStaticCustomers bounds the customers of a static segment.
	MaxStaticCustomers = 20000
	// MaxDynamic bounds a project's auto-update and passive segments.
	MaxDynamic = 100
	maxName    = 300
	syncPage   = 1000
)

// Params is the body of POST /v1/segments: a static segment lists its
// customers (ids or source ids); an auto-update or passive one has a
// filter.
type Params struct {
	Name      *string         `json:"name"`
	Type      *string         `json:"type"`
	Customers []string        `json:"customers"`
	Filter    json.RawMessage `json:"filter"`
}

// Service is the segment use cases over a [Store].
type Service struct {
	store Store
	tx    promotype.TxFunc[Store]
	env   promotype.Env
	// filters caches the parsed filter of each segment by id (a segment's
	// filter never changes).
	filters sync.Map
	// none holds, per project, when it was last read without filter
	// segments (time.Time): for noneTTL a customer change there reads no
	// segments (a create through this engine forgets it at once).
	none sync.Map
}

// noneTTL is how long a project read without filter segments is taken
// to have none: a filter segment created through another engine moves
// customers changed here after at most this long.
const noneTTL = time.Second

// NewService returns a segment service reading through store and writing
// in transactions opened by tx.
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env) *Service {
	return &Service{store: store, tx: tx, env: env}
}

func (p *Params) check() (*Filter, error) {
	if p.Name == nil || strings.TrimSpace(*p.Name) == "" {
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	if utf8.RuneCountInString(*p.Name) > maxName {
		return nil, promotype.InvalidPayload("Property .name must have at most %d characters", maxName)
	}
	if p.Type == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'type'")
	}
	hasFilter := len(p.Filter) > 0 && string(p.Filter) != "null"
	switch *p.Type {
	case Static:
		if hasFilter {
			return nil, promotype.InvalidPayload("Property .filter is not allowed for a static segment")
		}
		if len(p.Customers) == 0 {
			return nil, promotype.InvalidPayload("Property .customers must have at least 1 item for a static segment")
		}
		if len(p.Customers) > MaxStaticCustomers {
			return nil, promotype.InvalidPayload("Property .customers must have at most %d items", MaxStaticCustomers)
		}
		for i, c := range p.Customers {
			if c == "" {
				return nil, promotype.InvalidPayload("Property .customers[%d] must not be empty", i)
			}
		}
		return nil, nil
	case AutoUpdate, Passive:
		if p.Customers != nil {
			return nil, promotype.InvalidPayload("Property .customers is allowed only for a static segment")
		}
		if !hasFilter {
			return nil, promotype.InvalidPayload("Payload must have required property 'filter' for a %s segment", *p.Type)
		}
		return ParseFilter(p.Filter)
	}
	return nil, promotype.InvalidPayload("Property .type must be one of static, auto-update, passive")
}

// Create makes a segment (POST /v1/segments) and, in the same
// transaction, its members: a static segment's customers (each must
// exist: 404 otherwise), or every live customer a filter matches now. The
// customers found inside a new segment entered it by no change: no event
// tells of them.
func (s *Service) Create(ctx context.Context, projectID string, in Params) (*Segment, error) {
	f, err := in.check()
	if err != nil {
		return nil, err
	}
	now := s.env.Clock.Now()
	seg := &Segment{ID: s.env.IDs.NewID(PrefixSegment), ProjectID: projectID, Name: *in.Name, Type: *in.Type,
		CreatedAt: now, InitialSyncStatus: SyncDone}
	if f != nil {
		var buf bytes.Buffer
		if err := json.Compact(&buf, in.Filter); err != nil {
			return nil, promotype.InvalidPayload("Property .filter must be an object")
		}
		seg.Filter = buf.Bytes()
	}
	err = s.tx(ctx, func(ctx context.Context, st Store) error {
		if f != nil {
			_, n, err := st.ListSegments(ctx, projectID, dynamicQuery(1))
			if err != nil {
				return err
			}
			if n >= MaxDynamic {
				return promotype.InvalidPayload("A project may have at most %d auto-update and passive segments", MaxDynamic)
			}
		}
		if err := st.InsertSegment(ctx, seg); err != nil {
			return err
		}
		if f == nil {
			ids, err := resolveAll(ctx, st, projectID, in.Customers)
			if err != nil {
				return err
			}
			return st.AddSegmentMembers(ctx, projectID, seg.ID, ids, now)
		}
		return fill(ctx, st, projectID, seg.ID, f, now)
	})
	if err != nil {
		return nil, err
	}
	s.filters.Store(seg.ID, f)
	s.none.Delete(projectID)
	return seg.normalize(), nil
}

// resolveAll returns the ids of the customers refs names (ids or source
// ids), without repeats.
func resolveAll(ctx context.Context, st Store, projectID string, refs []string) ([]string, error) {
	ids := make([]string, 0, len(refs))
	for _, ref := range refs {
		c, err := customer.Resolve(ctx, st, projectID, ref)
		if err != nil {
			return nil, err
		}
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// fill makes every live customer f matches at now a member of segment id.
func fill(ctx context.Context, st Store, projectID, id string, f *Filter, now promotype.Time) error {
	q := promotype.Query{Limit: syncPage, OrderBy: "created_at"}
	for {
		page, total, err := st.ListCustomers(ctx, projectID, q)
		if err != nil {
			return err
		}
		var ids []string
		for _, c := range page {
			if f.Match(c, now) {
				ids = append(ids, c.ID)
			}
		}
		if len(ids) > 0 {
			if err := st.AddSegmentMembers(ctx, projectID, id, ids, now); err != nil {
				return err
			}
		}
		q.Offset += len(page)
		if len(page) == 0 || q.Offset >= total {
			return nil
		}
	}
}

// dynamicQuery lists a project's auto-update and passive segments.
func dynamicQuery(limit int) promotype.Query {
	return promotype.Query{Limit: limit, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "type", Op: promotype.OpIn, Values: []string{AutoUpdate, Passive}}}}
}

// Get returns a segment.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Segment, error) {
	seg, err := s.store.GetSegment(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return seg.normalize(), nil
}

// Delete removes a segment and its members (DELETE /v1/segments/{id}).
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	if err := s.store.DeleteSegment(ctx, projectID, id); err != nil {
		return err
	}
	s.filters.Delete(id)
	return nil
}

// CustomerList is the answer of GET /v1/customers/{customerId}/segments.
type CustomerList struct {
	Object  string   `json:"object"`
	DataRef string   `json:"data_ref"`
	Data    []Simple `json:"data"`
	Total   int      `json:"total"`
}

// ForCustomer lists the segments of the customer ref (an id or a source
// id), in id order. For a customer the project does not have, it lists the
// filter segments a customer with that source id and nothing else would be
// in.
func (s *Service) ForCustomer(ctx context.Context, projectID, ref string) (*CustomerList, error) {
	out := &CustomerList{Object: "list", DataRef: "data", Data: []Simple{}}
	c, err := customer.Resolve(ctx, s.store, projectID, ref)
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		segs, err := s.dynamic(ctx, s.store, projectID)
		if err != nil {
			return nil, err
		}
		ghost := &customer.Customer{SourceID: &ref, Metadata: promotype.Metadata{}}
		now := s.env.Clock.Now()
		for _, sg := range segs {
			if sg.f.Match(ghost, now) {
				out.Data = append(out.Data, Simple{ID: sg.ID, Name: sg.Name, Object: "segment"})
			}
		}
		slices.SortFunc(out.Data, func(a, b Simple) int { return strings.Compare(a.ID, b.ID) })
		out.Total = len(out.Data)
		return out, nil
	case err != nil:
		return nil, err
	}
	ids, err := s.store.CustomerSegmentIDs(ctx, projectID, c.ID)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		seg, err := s.store.GetSegment(ctx, projectID, id)
		if errors.Is(err, promotype.ErrNotFound) {
			continue // deleted meanwhile
		}
		if err != nil {
			return nil, err
		}
		out.Data = append(out.Data, Simple{ID: seg.ID, Name: seg.Name, Object: "segment"})
	}
	out.Total = len(out.Data)
	return out, nil
}

// CustomerSegmentIDs returns the ids of the segments the customer id is a
// member of, ascending (what customer.segment rules read).
func (s *Service) CustomerSegmentIDs(ctx context.Context, projectID, customerID string) ([]string, error) {
	return s.store.CustomerSegmentIDs(ctx, projectID, customerID)
}

// compiled is a filter segment with its parsed filter.
type compiled struct {
	*Segment
	f *Filter
}

// dynamic returns the project's filter segments, their filters parsed.
func (s *Service) dynamic(ctx context.Context, st Store, projectID string) ([]compiled, error) {
	segs, _, err := st.ListSegments(ctx, projectID, dynamicQuery(MaxDynamic))
	if err != nil {
		return nil, err
	}
	out := make([]compiled, 0, len(segs))
	for _, sg := range segs {
		f, err := s.filter(sg)
		if err != nil {
			return nil, err
		}
		out = append(out, compiled{sg, f})
	}
	return out, nil
}

func (s *Service) filter(sg *Segment) (*Filter, error) {
	if f, ok := s.filters.Load(sg.ID); ok && f.(*Filter) != nil {
		return f.(*Filter), nil
	}
	f, err := ParseFilter(sg.Filter)
	if err != nil {
		return nil, err
	}
	s.filters.Store(sg.ID, f)
	return f, nil
}

// Moved brings the membership of customer c (just created or updated,
// through st, in the transaction of that change) in line with the
// project's filter segments: c enters each segment whose filter it now
// matches and leaves each it no longer matches. Each entry and exit of an
// auto-update segment writes customer.segment.entered / left through st,
// and an entry is told to enter (the automations answering it, in this
// same transaction); nil enter tells nobody.
func (s *Service) Moved(ctx context.Context, st Store, c *customer.Customer, enter func(ctx context.Context, ev *promotype.Event) error) error {
	if at, ok := s.none.Load(c.ProjectID); ok && time.Since(at.(time.Time)) < noneTTL {
		return nil
	}
	read := time.Now()
	segs, err := s.dynamic(ctx, st, c.ProjectID)
	if err != nil {
		return err
	}
	if len(segs) == 0 {
		s.none.Store(c.ProjectID, read)
		return nil
	}
	current, err := st.CustomerSegmentIDs(ctx, c.ProjectID, c.ID)
	if err != nil {
		return err
	}
	now := s.env.Clock.Now()
	var ins, outs []string
	byID := make(map[string]*Segment, len(segs))
	for _, sg := range segs {
		byID[sg.ID] = sg.Segment
		_, member := slices.BinarySearch(current, sg.ID)
		switch match := sg.f.Match(c, now); {
		case match && !member:
			ins = append(ins, sg.ID)
		case !match && member:
			outs = append(outs, sg.ID)
		}
	}
	entered, left := ins[:0:0], outs[:0:0]
	if len(ins) > 0 {
		if entered, err = st.EnterSegments(ctx, c.ProjectID, c.ID, ins, now); err != nil {
			return err
		}
	}
	if len(outs) > 0 {
		if left, err = st.LeaveSegments(ctx, c.ProjectID, c.ID, outs); err != nil {
			return err
		}
	}
	var events, enters []*promotype.Event
	var cust json.RawMessage // c encoded once for all the events
	for _, group := range []struct {
		ids []string
		typ string
	}{{entered, EventEntered}, {left, EventLeft}} {
		for _, id := range group.ids {
			sg := byID[id]
			if sg.Type != AutoUpdate {
				continue
			}
			if cust == nil {
				if cust, err = encode(c); err != nil {
					return err
				}
			}
			ev, err := promotype.NewEvent(s.env, c.ProjectID, group.typ, c.ID, segmentEvent{
				Customer: cust, Segment: Simple{ID: sg.ID, Name: sg.Name, Object: "segment"}})
			if err != nil {
				return err
			}
			events = append(events, ev.For(c.ID, group.typ))
			if group.typ == EventEntered {
				enters = append(enters, ev)
			}
		}
	}
	if len(events) == 0 {
		return nil
	}
	if err := st.AppendEvents(ctx, events...); err != nil {
		return err
	}
	if enter == nil {
		return nil
	}
	for _, ev := range enters {
		if err := enter(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

// encode is v's JSON as events encode it ("<>&" unescaped), in a slice
// of its own.
func encode(v any) (json.RawMessage, error) {
	e := promotype.GetEncoder()
	defer e.Put()
	b, err := e.Encode(v)
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(append(json.RawMessage(nil), b...), "\n"), nil
}

// segmentEvent is the data of customer.segment.entered and left.
type segmentEvent struct {
	Customer json.RawMessage `json:"customer"`
	Segment  Simple          `json:"segment"`
}

// SegmentOf returns the segment id an entered or left event names.
func SegmentOf(ev *promotype.Event) (string, error) {
	var data struct {
		Segment Simple `json:"segment"`
	}
	if err := json.Unmarshal(ev.Data, &data); err != nil {
		return "", err
	}
	return data.Segment.ID, nil
}
