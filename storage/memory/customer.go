package memory

import (
	"bytes"
	"context"
	"slices"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// InsertCustomer implements customer.Store.
func (s *Store) InsertCustomer(ctx context.Context, c *customer.Customer) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.customers.insert(u, c) })
}

// UpdateCustomer implements customer.Store.
func (s *Store) UpdateCustomer(ctx context.Context, c *customer.Customer) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.customers.update(u, c) })
}

// GetCustomer implements customer.Store.
func (s *Store) GetCustomer(ctx context.Context, projectID, id string) (out *customer.Customer, err error) {
	s.read(ctx, func(d *data) { out, err = d.customers.copyOf(projectID, id) })
	return out, err
}

// FindCustomerBySourceID implements customer.Store.
func (s *Store) FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (out *customer.Customer, err error) {
	s.read(ctx, func(d *data) { out, err = d.customers.find(projectID, sourceID) })
	return out, err
}

func liveCustomer(c *customer.Customer) bool { return c.BinnedAt == nil }

// ListCustomers implements customer.Store.
func (s *Store) ListCustomers(ctx context.Context, projectID string, q promotype.Query) (out []*customer.Customer, total int, err error) {
	s.read(ctx, func(d *data) {
		for i, c := range q.Must {
			if c.Field != customer.FieldSegmentID || len(c.Values) != 1 {
				continue
			}
			members := []string{}
			for k, segs := range d.segments.members {
				if _, ok := segs[c.Values[0]]; ok && k[0] == projectID {
					members = append(members, k[1])
				}
			}
			q.Must = append(q.Must[:i:i], q.Must[i+1:]...)
			q.Must = append(q.Must, promotype.Condition{Field: "id", Op: promotype.OpIn, Values: members})
			break
		}
		out, total = d.customers.list(projectID, q, (*customer.Customer).Field)
	})
	return out, total, nil
}

// BinCustomer implements customer.Store.
func (s *Store) BinCustomer(ctx context.Context, projectID, id string, at promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		c, err := d.customers.liveRow(projectID, id)
		if err != nil {
			return err
		}
		b := c.Clone()
		b.BinnedAt = at.Ptr()
		return d.customers.save(u, b)
	})
}

// DeleteCustomer implements customer.Store.
func (s *Store) DeleteCustomer(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error { return d.customers.remove(u, projectID, id) })
}

// appendActivity enters event e in its customer's activity log. The row
// shares e.Data, which nobody changes once appended (EventStore.AppendEvents).
func (d *data) appendActivity(u *undo, e *promotype.Event) {
	k := [2]string{e.ProjectID, e.Activity.CustomerID}
	old, had := d.activities[k]
	// In place: old's length excludes the new row, so the undo restores it.
	d.activities[k] = append(old, &customer.Activity{
		ID: e.ID, Type: e.Activity.Type, Data: e.Data, CreatedAt: e.CreatedAt, GroupID: e.ID,
		ProjectID: e.ProjectID, CustomerID: e.Activity.CustomerID, CampaignID: e.Activity.CampaignID, CampaignType: e.Activity.CampaignType,
	})
	u.push(func() {
		if had {
			d.activities[k] = old
		} else {
			delete(d.activities, k)
		}
	})
}

// ListActivities implements customer.ActivityStore.
func (s *Store) ListActivities(ctx context.Context, projectID, customerID string, q customer.ActivityQuery) (out []*customer.Activity, err error) {
	var rows []*customer.Activity
	s.read(ctx, func(d *data) { rows = slices.Clone(d.activities[[2]string{projectID, customerID}]) })
	// By time, then in the order they were appended (a stable sort of the
	// log, which is in append order).
	slices.SortStableFunc(rows, func(a, b *customer.Activity) int { return a.CreatedAt.Time.Compare(b.CreatedAt.Time) })
	if q.Desc {
		slices.Reverse(rows)
	}
	if q.After != "" {
		i := slices.IndexFunc(rows, func(a *customer.Activity) bool { return a.ID == q.After })
		if i < 0 {
			return []*customer.Activity{}, nil
		}
		rows = rows[i+1:]
	}
	out = []*customer.Activity{}
	for _, a := range rows {
		if len(out) == q.Limit {
			break
		}
		if activityMatches(a, q) {
			c := *a
			c.Data = bytes.Clone(a.Data)
			out = append(out, &c)
		}
	}
	return out, nil
}

// activityMatches reports whether a passes q's filters.
func activityMatches(a *customer.Activity, q customer.ActivityQuery) bool {
	switch {
	case q.Start != nil && a.CreatedAt.Before(q.Start.Time),
		q.End != nil && a.CreatedAt.After(q.End.Time),
		q.CampaignID != "" && a.CampaignID != q.CampaignID,
		q.CampaignType != "" && a.CampaignType != q.CampaignType,
		q.Types != nil && !slices.Contains(q.Types, a.Type):
		return false
	}
	return true
}

// DeleteActivities implements customer.ActivityStore.
func (s *Store) DeleteActivities(ctx context.Context, projectID, customerID string) (n int, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		k := [2]string{projectID, customerID}
		n = len(d.activities[k])
		dropWhere(u, d.activities, func(key [2]string, _ []*customer.Activity) bool { return key == k })
		return nil
	})
	return n, err
}
