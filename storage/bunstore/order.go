package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/uptrace/bun"
)

type orderRow struct {
	bun.BaseModel `bun:"table:promo_orders,alias:o"`

	ProjectID                  string          `bun:"project_id,pk"`
	ID                         string          `bun:"id,pk"`
	SourceID                   *string         `bun:"source_id"`
	Status                     string          `bun:"status"`
	Amount                     int64           `bun:"amount"`
	InitialAmount              int64           `bun:"initial_amount"`
	DiscountAmount             int64           `bun:"discount_amount"`
	ItemsDiscountAmount        int64           `bun:"items_discount_amount"`
	TotalDiscountAmount        int64           `bun:"total_discount_amount"`
	TotalAmount                int64           `bun:"total_amount"`
	AppliedDiscountAmount      int64           `bun:"applied_discount_amount"`
	ItemsAppliedDiscountAmount int64           `bun:"items_applied_discount_amount"`
	TotalAppliedDiscountAmount int64           `bun:"total_applied_discount_amount"`
	Items                      json.RawMessage `bun:"items"`
	Metadata                   json.RawMessage `bun:"metadata"`
	CustomerID                 *string         `bun:"customer_id"`
	ReferrerID                 *string         `bun:"referrer_id"`
	Redemptions                json.RawMessage `bun:"redemptions"`
	CreatedAt                  time.Time       `bun:"created_at"`
	UpdatedAt                  *time.Time      `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *orderRow) listTotal() int { return r.Total }

var orderColumns = columns{
	"source_id":   {"source_id", promotype.FieldString},
	"status":      {"status", promotype.FieldString},
	"customer_id": {"customer_id", promotype.FieldString},
	"referrer_id": {"referrer_id", promotype.FieldString},
	"created_at":  {"created_at", promotype.FieldTime},
	"updated_at":  {"updated_at", promotype.FieldTime},
}

func newOrderRow(o *order.Order) (*orderRow, error) {
	if err := checkText("order", str("id", o.ID), str("project_id", o.ProjectID), text{"source_id", o.SourceID},
		str("status", string(o.Status)), text{"customer_id", o.CustomerID}, text{"referrer_id", o.ReferrerID}); err != nil {
		return nil, err
	}
	items := json.RawMessage("[]")
	if len(o.Items) > 0 {
		var err error
		if items, err = encodeJSON(o.Items); err != nil {
			return nil, err
		}
	}
	meta, err := encodeMetadata(o.Metadata)
	if err != nil {
		return nil, err
	}
	redemptions := json.RawMessage("{}")
	if len(o.Redemptions) > 0 {
		if redemptions, err = encodeJSON(o.Redemptions); err != nil {
			return nil, err
		}
	}
	return &orderRow{
		ProjectID:                  o.ProjectID,
		ID:                         o.ID,
		SourceID:                   promotype.ClonePtr(o.SourceID),
		Status:                     string(o.Status),
		Amount:                     o.Amount,
		InitialAmount:              o.InitialAmount,
		DiscountAmount:             o.DiscountAmount,
		ItemsDiscountAmount:        o.ItemsDiscountAmount,
		TotalDiscountAmount:        o.TotalDiscountAmount,
		TotalAmount:                o.TotalAmount,
		AppliedDiscountAmount:      o.AppliedDiscountAmount,
		ItemsAppliedDiscountAmount: o.ItemsAppliedDiscountAmount,
		TotalAppliedDiscountAmount: o.TotalAppliedDiscountAmount,
		Items:                      items,
		Metadata:                   meta,
		CustomerID:                 promotype.ClonePtr(o.CustomerID),
		ReferrerID:                 promotype.ClonePtr(o.ReferrerID),
		Redemptions:                redemptions,
		CreatedAt:                  sqlTime(o.CreatedAt),
		UpdatedAt:                  sqlTimePtr(o.UpdatedAt),
	}, nil
}

func (r *orderRow) domain() (*order.Order, error) {
	o := &order.Order{
		ID:                         r.ID,
		ProjectID:                  r.ProjectID,
		SourceID:                   r.SourceID,
		Status:                     order.Status(r.Status),
		Amount:                     r.Amount,
		InitialAmount:              r.InitialAmount,
		DiscountAmount:             r.DiscountAmount,
		ItemsDiscountAmount:        r.ItemsDiscountAmount,
		TotalDiscountAmount:        r.TotalDiscountAmount,
		TotalAmount:                r.TotalAmount,
		AppliedDiscountAmount:      r.AppliedDiscountAmount,
		ItemsAppliedDiscountAmount: r.ItemsAppliedDiscountAmount,
		TotalAppliedDiscountAmount: r.TotalAppliedDiscountAmount,
		CustomerID:                 r.CustomerID,
		ReferrerID:                 r.ReferrerID,
		CreatedAt:                  domainTime(r.CreatedAt),
		UpdatedAt:                  domainTimePtr(r.UpdatedAt),
	}
	if err := decodeJSON(r.Items, &o.Items); err != nil {
		return nil, err
	}
	if err := decodeJSON(r.Redemptions, &o.Redemptions); err != nil {
		return nil, err
	}
	var err error
	if o.Metadata, err = decodeMetadata(r.Metadata); err != nil {
		return nil, err
	}
	return o, nil
}

func orderNotFound(id string) func() error {
	return func() error { return promotype.NotFound("order", id) }
}

// orderKeys is the source-id uniqueness of promo_orders.
var orderKeys = keyed{kind: "order", table: "promo_orders", alias: "o", column: "source_id"}

// InsertOrder implements order.Store.
func (s *Store) InsertOrder(ctx context.Context, o *order.Order) error {
	row, err := newOrderRow(o)
	if err != nil {
		return err
	}
	if p := s.held(); p != nil {
		p.orders = append(p.orders, row)
		return s.sendIfFull(ctx)
	}
	return orderKeys.insert(ctx, s.db, row, o.ProjectID, o.ID, o.SourceID)
}

// UpdateOrder implements order.Store. It replaces every field of the row; a
// source id held by another order of the project is refused without
// touching the row.
func (s *Store) UpdateOrder(ctx context.Context, o *order.Order) error {
	row, err := newOrderRow(o)
	return orderKeys.replace(ctx, s.db, row, err, o.ProjectID, o.ID, o.SourceID, orderNotFound(o.ID), func() error {
		_, err := s.GetOrder(ctx, o.ProjectID, o.ID)
		return err
	})
}

// GetOrder implements order.Store.
func (s *Store) GetOrder(ctx context.Context, projectID, id string) (*order.Order, error) {
	return getLive[orderRow, *orderRow, *order.Order](ctx, s.db, orderKeys, "id", projectID, id, orderNotFound(id))
}

// FindOrderBySourceID implements order.Store.
func (s *Store) FindOrderBySourceID(ctx context.Context, projectID, sourceID string) (*order.Order, error) {
	return getLive[orderRow, *orderRow, *order.Order](ctx, s.db, orderKeys, "source_id", projectID, sourceID, orderNotFound(sourceID))
}

// ListOrders implements order.Store.
func (s *Store) ListOrders(ctx context.Context, projectID string, q promotype.Query) ([]*order.Order, int, error) {
	return listProject[orderRow, *orderRow, *order.Order](ctx, s.db, orderColumns, "o", "orders", projectID, q)
}
