package segment

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// PrefixSegment starts a segment id.
const PrefixSegment = "seg_"

// Segment types.
const (
	// Static segments hold the customers they were created with.
	Static = "static"
	// AutoUpdate segments hold the customers their filter matches and tell
	// of entries and exits (customer.segment.entered / left).
	AutoUpdate = "auto-update"
	// Passive segments hold the customers their filter matches, silently.
	Passive = "passive"
)

// Initial sync statuses. This engine fills a segment in its create, so a
// segment is always DONE.
const (
	SyncDone = "DONE"
)

// Segment is a customer segment (object "segment").
type Segment struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	CreatedAt promotype.Time  `json:"created_at"`
	UpdatedAt *promotype.Time `json:"updated_at"`
	Type      string          `json:"type"`
	// Filter is the filter as sent (null for a static segment).
	Filter            json.RawMessage `json:"filter"`
	InitialSyncStatus string          `json:"initial_sync_status"`
	Object            string          `json:"object"`

	ProjectID string `json:"-"`
}

// Clone returns a deep copy.
func (s *Segment) Clone() *Segment {
	out := *s
	out.UpdatedAt = promotype.ClonePtr(s.UpdatedAt)
	if s.Filter != nil {
		out.Filter = append(json.RawMessage(nil), s.Filter...)
	}
	return &out
}

func (s *Segment) normalize() *Segment {
	s.Object = "segment"
	if s.Filter == nil {
		s.Filter = json.RawMessage("null")
	}
	return s
}

// Dynamic reports whether the segment's members are those its filter
// matches (auto-update and passive segments).
func (s *Segment) Dynamic() bool { return s.Type != Static }

// Field returns a filterable or orderable field of s (type, name,
// created_at).
func (s *Segment) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: s.ID}
	case "type":
		return promotype.Value{Str: s.Type}
	case "name":
		return promotype.Value{Str: s.Name}
	case "created_at":
		return promotype.Value{Time: s.CreatedAt}
	}
	return promotype.Value{Null: true}
}

// Simple is how a customer's segment list shows a segment.
type Simple struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Object string `json:"object"`
}

// Getter reads one segment (promotype.NotFound when the project has none
// with id): what validation rules check the segments they name against.
type Getter interface {
	GetSegment(ctx context.Context, projectID, id string) (*Segment, error)
}

// Reader is what validations read of segments: the ids of the segments a
// customer is a member of, in ascending order.
type Reader interface {
	CustomerSegmentIDs(ctx context.Context, projectID, customerID string) ([]string, error)
}

// Store is the storage port of segments and their members, scoped by
// project. GetSegment returns promotype.NotFound for a missing segment;
// DeleteSegment removes the segment and its members. Membership rows are
// keyed by segment and customer: EnterSegments adds the rows that are not
// there yet and returns the segments it added (in the order given),
// LeaveSegments removes the rows that are there and returns the segments
// it removed; so concurrent changes of one customer tell each entry and
// exit once.
type Store interface {
	customer.Store
	Reader
	Getter
	InsertSegment(ctx context.Context, s *Segment) error
	DeleteSegment(ctx context.Context, projectID, id string) error
	// ListSegments returns one page of the project's segments matching q
	// (fields id, type, name, created_at) and the number of matches.
	ListSegments(ctx context.Context, projectID string, q promotype.Query) ([]*Segment, int, error)
	EnterSegments(ctx context.Context, projectID, customerID string, segmentIDs []string, at promotype.Time) ([]string, error)
	LeaveSegments(ctx context.Context, projectID, customerID string, segmentIDs []string) ([]string, error)
	// AddSegmentMembers makes the customers members of the segment (those
	// already members stay as they are).
	AddSegmentMembers(ctx context.Context, projectID, segmentID string, customerIDs []string, at promotype.Time) error
}

// Events of segment membership, in the activity log of the customer (and
// the outbox, for a webhook configuration that could list them), written
// in the transaction of the customer change, each with data {customer,
// segment}. Only auto-update segments tell of them.
const (
	EventEntered = "customer.segment.entered"
	EventLeft    = "customer.segment.left"
)
