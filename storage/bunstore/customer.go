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
	return listDomain[customerRow, *customerRow, *customer.Customer](ctx, s.db, customerColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("c.project_id = ? AND c.binned_at IS NULL", projectID)
	}, projectTally("customers", projectID, q))
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
