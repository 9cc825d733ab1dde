package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/segment"
)

type segmentRow struct {
	bun.BaseModel `bun:"table:promo_segments,alias:sg"`

	ProjectID string          `bun:"project_id,pk"`
	ID        string          `bun:"id,pk"`
	Type      string          `bun:"type"`
	Name      string          `bun:"name"`
	CreatedAt time.Time       `bun:"created_at"`
	Filter    *string         `bun:"filter"`
	Doc       json.RawMessage `bun:"doc"`

	Total int `bun:"total,scanonly"`
}

func (r *segmentRow) listTotal() int { return r.Total }

var segmentColumns = columns{
	"id":         {"id", promotype.FieldString},
	"type":       {"type", promotype.FieldString},
	"name":       {"name", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
}

func (r *segmentRow) domain() (*segment.Segment, error) {
	var sg segment.Segment
	if err := decodeJSON(r.Doc, &sg); err != nil {
		return nil, err
	}
	sg.ProjectID, sg.Filter = r.ProjectID, nil
	if r.Filter != nil {
		sg.Filter = json.RawMessage(*r.Filter)
	}
	return &sg, nil
}

func segmentNotFound(id string) func() error {
	return func() error { return promotype.NotFound("segment", id) }
}

// InsertSegment implements segment.Store.
func (s *Store) InsertSegment(ctx context.Context, sg *segment.Segment) error {
	if err := checkText("segment", str("id", sg.ID), str("project_id", sg.ProjectID), str("name", sg.Name), str("type", sg.Type)); err != nil {
		return err
	}
	bare := sg.Clone()
	bare.Filter = nil
	doc, err := encodeJSON(bare)
	if err != nil {
		return err
	}
	row := &segmentRow{ProjectID: sg.ProjectID, ID: sg.ID, Type: sg.Type, Name: sg.Name, CreatedAt: sqlTime(sg.CreatedAt), Doc: doc}
	if sg.Filter != nil && string(sg.Filter) != "null" {
		f := string(sg.Filter)
		if !storable(f) {
			return promotype.InvalidPayload("Property .filter must be UTF-8 text without NUL characters")
		}
		row.Filter = &f
	}
	return insertNew(ctx, s.db, "insert segment", row, func() error {
		return promotype.Duplicate("segment", "Duplicated segment exists with id %s", sg.ID)
	})
}

// GetSegment implements segment.Store.
func (s *Store) GetSegment(ctx context.Context, projectID, id string) (*segment.Segment, error) {
	return getByID[segmentRow, *segmentRow, *segment.Segment](ctx, s.db, "get segment", "sg", projectID, id, segmentNotFound(id))
}

// DeleteSegment implements segment.Store: the segment and its members.
func (s *Store) DeleteSegment(ctx context.Context, projectID, id string) error {
	if err := deleteByID[segmentRow](ctx, s.db, "delete segment", "sg", projectID, id, segmentNotFound(id)); err != nil {
		return err
	}
	if _, err := s.db.NewRaw(`DELETE FROM promo_segment_members WHERE project_id = ? AND segment_id = ?`, projectID, id).Exec(ctx); err != nil {
		return fail("delete segment members", err, nil)
	}
	return nil
}

// ListSegments implements segment.Store.
func (s *Store) ListSegments(ctx context.Context, projectID string, q promotype.Query) ([]*segment.Segment, int, error) {
	return listProject[segmentRow, *segmentRow, *segment.Segment](ctx, s.db, segmentColumns, "sg", "", projectID, q)
}

// CustomerSegmentIDs implements segment.Reader: one read of the
// customer's rows of the members' primary key.
func (s *Store) CustomerSegmentIDs(ctx context.Context, projectID, customerID string) ([]string, error) {
	if !storableKeys(projectID, customerID) {
		return nil, nil
	}
	var out []string
	err := s.db.NewRaw(`SELECT segment_id FROM promo_segment_members WHERE project_id = ? AND customer_id = ? ORDER BY segment_id`,
		projectID, customerID).Scan(ctx, &out)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("customer segments", err, nil)
	}
	return out, nil
}

// EnterSegments implements segment.Store: one INSERT ... ON CONFLICT DO
// NOTHING of the segments that exist, returning the rows it added.
func (s *Store) EnterSegments(ctx context.Context, projectID, customerID string, segmentIDs []string, at promotype.Time) ([]string, error) {
	ids := storableList(segmentIDs)
	if !storableKeys(projectID, customerID) || len(ids) == 0 {
		return nil, nil
	}
	var added []string
	err := s.db.NewRaw(`INSERT INTO promo_segment_members (project_id, customer_id, segment_id, created_at)
		SELECT sg.project_id, ?, sg.id, ? FROM promo_segments sg
		WHERE sg.project_id = ? AND sg.id = ANY(?::text[])
		ORDER BY sg.id
		ON CONFLICT DO NOTHING
		RETURNING segment_id`, customerID, sqlTime(at), projectID, pgdialect.Array(ids)).Scan(ctx, &added)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("enter segments", err, nil)
	}
	return inOrder(segmentIDs, added), nil
}

// LeaveSegments implements segment.Store: one DELETE ... RETURNING.
func (s *Store) LeaveSegments(ctx context.Context, projectID, customerID string, segmentIDs []string) ([]string, error) {
	ids := storableList(segmentIDs)
	if !storableKeys(projectID, customerID) || len(ids) == 0 {
		return nil, nil
	}
	var removed []string
	err := s.db.NewRaw(`DELETE FROM promo_segment_members
		WHERE project_id = ? AND customer_id = ? AND segment_id = ANY(?::text[])
		RETURNING segment_id`, projectID, customerID, pgdialect.Array(ids)).Scan(ctx, &removed)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("leave segments", err, nil)
	}
	return inOrder(segmentIDs, removed), nil
}

// inOrder returns the elements of want that got holds, in want's order.
func inOrder(want, got []string) []string {
	if len(got) == 0 {
		return nil
	}
	set := make(map[string]struct{}, len(got))
	for _, g := range got {
		set[g] = struct{}{}
	}
	out := make([]string, 0, len(got))
	for _, w := range want {
		if _, ok := set[w]; ok {
			out = append(out, w)
			delete(set, w)
		}
	}
	return out
}

// AddSegmentMembers implements segment.Store: one INSERT ... ON CONFLICT
// DO NOTHING of the customers.
func (s *Store) AddSegmentMembers(ctx context.Context, projectID, segmentID string, customerIDs []string, at promotype.Time) error {
	ids := storableList(customerIDs)
	if !storableKeys(projectID, segmentID) {
		return promotype.NotFound("segment", segmentID)
	}
	if _, err := s.GetSegment(ctx, projectID, segmentID); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := s.db.NewRaw(`INSERT INTO promo_segment_members (project_id, customer_id, segment_id, created_at)
		SELECT ?, u.id, ?, ? FROM unnest(?::text[]) AS u(id) ORDER BY u.id
		ON CONFLICT DO NOTHING`, projectID, segmentID, sqlTime(at), pgdialect.Array(ids)).Exec(ctx)
	if err != nil {
		return fail("add segment members", err, nil)
	}
	return nil
}
