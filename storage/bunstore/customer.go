package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
)

type customerRow struct {
	bun.BaseModel `bun:"table:promo_customers,alias:c"`

	ProjectID   string          `bun:"project_id,pk"`
	ID          string          `bun:"id,pk"`
	SourceID    *string         `bun:"source_id"`
	Name        *string         `bun:"name"`
	Description *string         `bun:"description"`
	Email       *string         `bun:"email"`
	Phone       *string         `bun:"phone"`
	Birthdate   *string         `bun:"birthdate"`
	Address     json.RawMessage `bun:"address"` // NULL for nil
	Metadata    json.RawMessage `bun:"metadata"`
	CreatedAt   time.Time       `bun:"created_at"`
	UpdatedAt   *time.Time      `bun:"updated_at"`
	BinnedAt    *time.Time      `bun:"binned_at"`

	Total int `bun:"total,scanonly"`
}

func (r *customerRow) listTotal() int { return r.Total }

// customerColumns are the filterable and orderable fields of the customer
// list (customer.ListSpec); city is the generated column of the address's
// city (migration 0025).
var customerColumns = columns{
	"id":           {"id", promotype.FieldString},
	"source_id":    {"source_id", promotype.FieldString},
	"email":        {"email", promotype.FieldString},
	"name":         {"name", promotype.FieldString},
	"address.city": {"city", promotype.FieldString},
	"created_at":   {"created_at", promotype.FieldTime},
	"updated_at":   {"updated_at", promotype.FieldTime},
}

func newCustomerRow(c *customer.Customer) (*customerRow, error) {
	if err := checkText("customer", str("id", c.ID), str("project_id", c.ProjectID), text{"source_id", c.SourceID},
		text{"name", c.Name}, text{"description", c.Description}, text{"email", c.Email}, text{"phone", c.Phone},
		text{"birthdate", c.Birthdate}); err != nil {
		return nil, err
	}
	var addr json.RawMessage
	if c.Address != nil {
		var err error
		if addr, err = encodeJSON(c.Address); err != nil {
			return nil, err
		}
	}
	meta, err := encodeMetadata(c.Metadata)
	if err != nil {
		return nil, err
	}
	return &customerRow{
		ProjectID:   c.ProjectID,
		ID:          c.ID,
		SourceID:    promotype.ClonePtr(c.SourceID),
		Name:        promotype.ClonePtr(c.Name),
		Description: promotype.ClonePtr(c.Description),
		Email:       promotype.ClonePtr(c.Email),
		Phone:       promotype.ClonePtr(c.Phone),
		Birthdate:   promotype.ClonePtr(c.Birthdate),
		Address:     addr,
		Metadata:    meta,
		CreatedAt:   sqlTime(c.CreatedAt),
		UpdatedAt:   sqlTimePtr(c.UpdatedAt),
		BinnedAt:    sqlTimePtr(c.BinnedAt),
	}, nil
}

func (r *customerRow) domain() (*customer.Customer, error) {
	c := &customer.Customer{
		ID:          r.ID,
		ProjectID:   r.ProjectID,
		SourceID:    r.SourceID,
		Name:        r.Name,
		Description: r.Description,
		Email:       r.Email,
		Phone:       r.Phone,
		Birthdate:   r.Birthdate,
		CreatedAt:   domainTime(r.CreatedAt),
		UpdatedAt:   domainTimePtr(r.UpdatedAt),
		BinnedAt:    domainTimePtr(r.BinnedAt),
	}
	if err := decodeJSON(r.Address, &c.Address); err != nil {
		return nil, err
	}
	var err error
	if c.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	return c, nil
}

func customerNotFound(id string) func() error {
	return func() error { return promotype.NotFound("customer", id) }
}

// customerKeys is the live-source-id uniqueness of promo_customers.
var customerKeys = keyed{kind: "customer", table: "promo_customers", alias: "c", column: "source_id", live: "binned_at IS NULL"}

// InsertCustomer implements customer.Store.
func (s *Store) InsertCustomer(ctx context.Context, c *customer.Customer) error {
	row, err := newCustomerRow(c)
	if err != nil {
		return err
	}
	if p := s.held(); p != nil {
		p.customers = append(p.customers, row)
		return s.sendIfFull(ctx)
	}
	return customerKeys.insert(ctx, s.db, row, c.ProjectID, c.ID, c.SourceID)
}

// UpdateCustomer implements customer.Store.
func (s *Store) UpdateCustomer(ctx context.Context, c *customer.Customer) error {
	row, err := newCustomerRow(c)
	return customerKeys.replace(ctx, s.db, row, err, c.ProjectID, c.ID, c.SourceID, customerNotFound(c.ID), func() error {
		_, err := s.GetCustomer(ctx, c.ProjectID, c.ID)
		return err
	})
}

// GetCustomer implements customer.Store.
func (s *Store) GetCustomer(ctx context.Context, projectID, id string) (*customer.Customer, error) {
	return getLive[customerRow, *customerRow, *customer.Customer](ctx, s.db, customerKeys, "id", projectID, id, customerNotFound(id))
}

// FindCustomerBySourceID implements customer.Store.
func (s *Store) FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (*customer.Customer, error) {
	return getLive[customerRow, *customerRow, *customer.Customer](ctx, s.db, customerKeys, "source_id", projectID, sourceID, customerNotFound(sourceID))
}

// ListCustomers implements customer.Store.
func (s *Store) ListCustomers(ctx context.Context, projectID string, q promotype.Query) ([]*customer.Customer, int, error) {
	if !storable(projectID) {
		return []*customer.Customer{}, 0, nil
	}
	t := projectTally("customers", projectID, q)
	seg, q := segmentOf(q)
	return listDomain[customerRow, *customerRow, *customer.Customer](ctx, s.db, customerColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		sel = sel.Where("c.project_id = ? AND c.binned_at IS NULL", projectID)
		if seg != nil {
			sel = sel.Where("c.id IN (SELECT m.customer_id FROM promo_segment_members AS m WHERE m.project_id = ? AND m.segment_id = ?)", projectID, *seg)
		}
		return sel
	}, t)
}

// BinCustomer implements customer.Store.
func (s *Store) BinCustomer(ctx context.Context, projectID, id string, at promotype.Time) error {
	if !storableKeys(projectID, id) {
		return customerNotFound(id)()
	}
	res, err := s.db.NewUpdate().Table("promo_customers").Set("binned_at = ?", sqlTime(at)).
		Where("project_id = ? AND id = ? AND binned_at IS NULL", projectID, id).Exec(ctx)
	if err != nil {
		return fail("bin customer", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return customerNotFound(id)()
	}
	return nil
}

// DeleteCustomer implements customer.Store.
func (s *Store) DeleteCustomer(ctx context.Context, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return customerNotFound(id)()
	}
	res, err := s.db.NewDelete().Table("promo_customers").Where("project_id = ? AND id = ?", projectID, id).Exec(ctx)
	if err != nil {
		return fail("delete customer", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return customerNotFound(id)()
	}
	return nil
}

// activityRow is an entry of a customer's activity log (migration 0038).
type activityRow struct {
	bun.BaseModel `bun:"table:promo_customer_activities,alias:ca"`

	ProjectID    string    `bun:"project_id"`
	CustomerID   string    `bun:"customer_id"`
	CreatedAt    time.Time `bun:"created_at"`
	Seq          int64     `bun:"seq,autoincrement"` // numbered by the database
	ID           string    `bun:"id"`
	Type         string    `bun:"type"`
	CampaignID   *string   `bun:"campaign_id"`
	CampaignType *string   `bun:"campaign_type"`
	// Data is the event's payload text, kept as is (see eventRow.Data).
	Data string `bun:"data"`
}

func (r *activityRow) domain() *customer.Activity {
	return &customer.Activity{ID: r.ID, Type: r.Type, Data: json.RawMessage(r.Data), CreatedAt: domainTime(r.CreatedAt), GroupID: r.ID,
		ProjectID: r.ProjectID, CustomerID: r.CustomerID, CampaignID: orEmpty(r.CampaignID), CampaignType: orEmpty(r.CampaignType)}
}

// appendActivities enters the events that have an Activity in their
// customers' logs: into the transaction's buffer, or at once outside one.
func (s *Store) appendActivities(ctx context.Context, events []*promotype.Event) error {
	now := &pending{}
	buf := s.pending
	if buf == nil {
		buf = now
	}
	for _, e := range events {
		a := e.Activity
		if a == nil {
			continue
		}
		if err := checkText("activity", str("customer_id", a.CustomerID), str("type", a.Type), str("campaign_id", a.CampaignID)); err != nil {
			return err
		}
		data := string(e.Data)
		if data == "" {
			data = "null"
		}
		buf.activities = append(buf.activities, activityRow{ProjectID: e.ProjectID, CustomerID: a.CustomerID, CreatedAt: sqlTime(e.CreatedAt), ID: e.ID,
			Type: a.Type, CampaignID: nonEmpty(a.CampaignID), CampaignType: nonEmpty(a.CampaignType), Data: data})
	}
	if err := now.flush(ctx, s.db); err != nil {
		return err
	}
	return s.sendIfFull(ctx)
}

// nonEmpty returns &s, or nil for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// orEmpty returns *p, or "" for nil.
func orEmpty(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// ListActivities implements customer.ActivityStore: one statement over the
// log's index (time, then write order), after the cursor row (a subquery:
// an unknown cursor gives no rows).
func (s *Store) ListActivities(ctx context.Context, projectID, customerID string, q customer.ActivityQuery) ([]*customer.Activity, error) {
	out := []*customer.Activity{}
	if !storableKeys(projectID, customerID) || !storable(q.After) || (q.Types != nil && len(storableList(q.Types)) == 0) {
		return out, nil
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	var rows []activityRow
	sel := s.db.NewSelect().Model(&rows).Where("project_id = ? AND customer_id = ?", projectID, customerID)
	if q.After != "" {
		sel = sel.Where("(created_at, seq) "+cmp+" (SELECT created_at, seq FROM promo_customer_activities WHERE project_id = ? AND customer_id = ? AND id = ?)",
			projectID, customerID, q.After)
	}
	if q.Start != nil {
		sel = sel.Where("created_at >= ?", sqlTime(*q.Start))
	}
	if q.End != nil {
		sel = sel.Where("created_at <= ?", sqlTime(*q.End))
	}
	if q.CampaignID != "" {
		sel = sel.Where("campaign_id = ?", q.CampaignID)
	}
	if q.CampaignType != "" {
		sel = sel.Where("campaign_type = ?", q.CampaignType)
	}
	if q.Types != nil {
		sel = sel.Where("type IN (?)", bun.List(storableList(q.Types)))
	}
	if err := sel.OrderExpr("created_at " + dir + ", seq " + dir).Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, fail("list customer activities", err, nil)
	}
	for i := range rows {
		out = append(out, rows[i].domain())
	}
	return out, nil
}

// DeleteActivities implements customer.ActivityStore; rows buffered in the
// transaction for the customer are dropped too.
func (s *Store) DeleteActivities(ctx context.Context, projectID, customerID string) (int, error) {
	if !storableKeys(projectID, customerID) {
		return 0, nil
	}
	n := 0
	if b := s.pending; b != nil {
		kept := b.activities[:0]
		for _, r := range b.activities {
			if r.ProjectID == projectID && r.CustomerID == customerID {
				n++
				continue
			}
			kept = append(kept, r)
		}
		b.activities = kept
	}
	res, err := s.db.NewDelete().TableExpr("promo_customer_activities").Where("project_id = ? AND customer_id = ?", projectID, customerID).Exec(ctx)
	if err != nil {
		return 0, fail("delete customer activities", err, nil)
	}
	deleted, _ := res.RowsAffected()
	return n + int(deleted), nil
}

// segmentOf takes the customer.FieldSegmentID condition out of q: the
// segment whose members the list keeps (nil: none), and q without it.
func segmentOf(q promotype.Query) (*string, promotype.Query) {
	for i, c := range q.Must {
		if c.Field == customer.FieldSegmentID && len(c.Values) == 1 {
			q.Must = append(q.Must[:i:i], q.Must[i+1:]...)
			return &c.Values[0], q
		}
	}
	return nil, q
}
