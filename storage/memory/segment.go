package memory

import (
	"context"
	"maps"
	"slices"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/segment"
)

// segmentData holds segments and their members: (project, customer) →
// segment id → when the customer entered.
type segmentData struct {
	segments table[segment.Segment]
	members  map[[2]string]map[string]promotype.Time
}

func newSegmentData() segmentData {
	return segmentData{segments: newTable[segment.Segment](), members: map[[2]string]map[string]promotype.Time{}}
}

// enter makes customer a member of segment; it reports whether it was not
// one.
func (d *segmentData) enter(u *undo, project, customer, seg string, at promotype.Time) bool {
	k := [2]string{project, customer}
	m := d.members[k]
	if _, ok := m[seg]; ok {
		return false
	}
	if m == nil {
		m = map[string]promotype.Time{}
		d.members[k] = m
	}
	m[seg] = at
	u.push(func() {
		delete(m, seg)
		if len(m) == 0 {
			delete(d.members, k)
		}
	})
	return true
}

// leave removes customer from segment; it reports whether it was a member.
func (d *segmentData) leave(u *undo, project, customer, seg string) bool {
	k := [2]string{project, customer}
	m := d.members[k]
	at, ok := m[seg]
	if !ok {
		return false
	}
	delete(m, seg)
	u.push(func() {
		if d.members[k] == nil {
			d.members[k] = m
		}
		m[seg] = at
	})
	return true
}

// InsertSegment implements segment.Store.
func (s *Store) InsertSegment(ctx context.Context, sg *segment.Segment) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.segments.segments, u, sg.ProjectID, sg.ID, "segment", sg.Clone())
	})
}

// GetSegment implements segment.Store.
func (s *Store) GetSegment(ctx context.Context, projectID, id string) (out *segment.Segment, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.segments.segments, projectID, id, "segment", (*segment.Segment).Clone)
	})
	return out, err
}

// DeleteSegment implements segment.Store.
func (s *Store) DeleteSegment(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if err := remove(&d.segments.segments, u, projectID, id, "segment"); err != nil {
			return err
		}
		for k := range d.segments.members {
			if k[0] == projectID {
				d.segments.leave(u, projectID, k[1], id)
			}
		}
		return nil
	})
}

// ListSegments implements segment.Store.
func (s *Store) ListSegments(ctx context.Context, projectID string, q promotype.Query) (out []*segment.Segment, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.segments.segments.rows[projectID], q, (*segment.Segment).Field,
			func(sg *segment.Segment) string { return sg.ID }, nil, (*segment.Segment).Clone)
	})
	return out, total, nil
}

// CustomerSegmentIDs implements segment.Reader.
func (s *Store) CustomerSegmentIDs(ctx context.Context, projectID, customerID string) (out []string, err error) {
	s.read(ctx, func(d *data) {
		out = slices.Sorted(maps.Keys(d.segments.members[[2]string{projectID, customerID}]))
	})
	return out, nil
}

// EnterSegments implements segment.Store.
func (s *Store) EnterSegments(ctx context.Context, projectID, customerID string, segmentIDs []string, at promotype.Time) (out []string, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		out = out[:0]
		for _, id := range segmentIDs {
			if _, ok := d.segments.segments.get(projectID, id); ok && d.segments.enter(u, projectID, customerID, id, at) {
				out = append(out, id)
			}
		}
		return nil
	})
	return out, err
}

// LeaveSegments implements segment.Store.
func (s *Store) LeaveSegments(ctx context.Context, projectID, customerID string, segmentIDs []string) (out []string, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		out = out[:0]
		for _, id := range segmentIDs {
			if d.segments.leave(u, projectID, customerID, id) {
				out = append(out, id)
			}
		}
		return nil
	})
	return out, err
}

// AddSegmentMembers implements segment.Store.
func (s *Store) AddSegmentMembers(ctx context.Context, projectID, segmentID string, customerIDs []string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.segments.segments.get(projectID, segmentID); !ok {
			return promotype.NotFound("segment", segmentID)
		}
		for _, c := range customerIDs {
			d.segments.enter(u, projectID, c, segmentID, at)
		}
		return nil
	})
}
