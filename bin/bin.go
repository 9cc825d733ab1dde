package bin

import (
	"context"
	"strings"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Resource types of bin entries.
const (
	TypeCampaign = "campaign"
	TypeVoucher  = "voucher"
	TypeProduct  = "product"
	TypeSKU      = "sku"
)

// IDPrefix starts every bin entry's id; the resource's id follows.
const IDPrefix = "bin_"

// Entry is a resource in the bin. A campaign's vouchers go to the bin with
// it and are not entries of their own, nor are a product's SKUs: deleting
// the campaign's or product's entry deletes them.
type Entry struct {
	ID              string         `json:"id"`
	CreatedAt       promotype.Time `json:"created_at"` // when it was binned
	DeletedByUserID *string        `json:"deleted_by_user_id"`
	ResourceID      string         `json:"resource_id"`
	ResourceType    string         `json:"resource_type"`
	// ResourceName is the campaign's, product's or SKU's name, the
	// voucher's code.
	ResourceName string `json:"resource_name"`
	// ResourceParentID is a voucher's campaign, a SKU's product.
	ResourceParentID *string `json:"resource_parent_id"`
	Object           string  `json:"object"` // the resource type

	ProjectID string `json:"-"`
}

// Clone returns a deep copy.
func (e *Entry) Clone() *Entry {
	c := *e
	c.DeletedByUserID = promotype.ClonePtr(e.DeletedByUserID)
	c.ResourceParentID = promotype.ClonePtr(e.ResourceParentID)
	return &c
}

// Field returns a list field (ListSpec).
func (e *Entry) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: e.ID}
	case "resource_id":
		return promotype.Value{Str: e.ResourceID}
	case "resource_type":
		return promotype.Value{Str: e.ResourceType}
	case "resource_name":
		return promotype.Value{Str: e.ResourceName}
	}
	return promotype.Value{Null: true}
}

// ListSpec is what the bin list accepts: order by id, filters on the
// entry's id and its resource's type, id and name.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"id"},
	DefaultOrder: "id",
	Fields: map[string]promotype.FieldKind{
		"id": promotype.FieldString, "resource_id": promotype.FieldString,
		"resource_type": promotype.FieldString, "resource_name": promotype.FieldString,
	},
}

// Store is the bin's storage port.
type Store interface {
	// ListBinEntries returns the project's bin entries matching q's
	// conditions, ordered by id in q's direction, those after the id
	// after only (past it in that direction; "" for from the start), at
	// most q.Limit of them.
	ListBinEntries(ctx context.Context, projectID string, q promotype.Query, after string) ([]*Entry, error)
	// GetBinEntry returns the entry id (not_found).
	GetBinEntry(ctx context.Context, projectID, id string) (*Entry, error)
}

// ServiceStore is what the service works through: the bin's port and the
// ports of the resources it deletes for good.
type ServiceStore interface {
	Store
	campaign.CampaignStore
	voucher.Store
	catalog.Store
	async.Store
}

// Service lists and empties the bin.
type Service struct {
	store   ServiceStore
	tx      promotype.TxFunc[ServiceStore]
	env     promotype.Env
	actions *async.Service
}

// NewService returns the bin service; actions enqueues the removal of a
// deleted campaign's vouchers.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env, actions *async.Service) *Service {
	return &Service{store: store, tx: tx, env: env, actions: actions}
}

// ListParams are the bin list's parameters. Zero values mean not given:
// Limit 10, Order "id" (or "-id"), from the first entry, no filter.
type ListParams struct {
	Limit           int
	Order           string
	StartingAfterID string
	Filter          promotype.Filter
}

// List is a page of the bin: total is the number of entries on the page,
// more_starting_after the id to go on after when there are more.
type List struct {
	Object            string   `json:"object"`
	DataRef           string   `json:"data_ref"`
	Data              []*Entry `json:"data"`
	Total             int      `json:"total"`
	HasMore           bool     `json:"has_more"`
	MoreStartingAfter *string  `json:"more_starting_after,omitempty"`
}

// List lists the project's bin entries (400 invalid_query_params for a bad
// limit, order or filter).
func (s *Service) List(ctx context.Context, projectID string, p ListParams) (*List, error) {
	q, err := promotype.ListParams{Limit: p.Limit, Order: p.Order, Filter: p.Filter}.Query(ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	q.Limit++
	rows, err := s.store.ListBinEntries(ctx, projectID, q, p.StartingAfterID)
	if err != nil {
		return nil, err
	}
	page := promotype.NewCursorList(rows, limit, func(e *Entry) string { return e.ID })
	return &List{Object: "list", DataRef: "data", Data: page.Data, Total: len(page.Data), HasMore: page.HasMore,
		MoreStartingAfter: page.MoreStartingAfter}, nil
}

// Delete deletes the resource of bin entry id for good (404 not_found for
// an entry the project's bin lacks). A campaign's row goes at once and a
// CAMPAIGN.VOUCHERS_DELETE action removes its vouchers; a product goes
// with its SKUs.
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	if !strings.HasPrefix(id, IDPrefix) {
		return promotype.NotFound("bin_entry", id)
	}
	var wake bool
	err := s.tx(ctx, func(ctx context.Context, tx ServiceStore) error {
		wake = false
		e, err := tx.GetBinEntry(ctx, projectID, id)
		if err != nil {
			return err
		}
		switch e.ResourceType {
		case TypeCampaign:
			if err := tx.DeleteCampaign(ctx, projectID, e.ResourceID); err != nil {
				return err
			}
			wake = true
			_, err = s.actions.Enqueue(ctx, tx, projectID, campaign.DeleteVouchers{CampaignID: e.ResourceID, Force: true})
			return err
		case TypeVoucher:
			return tx.DeleteVoucher(ctx, projectID, e.ResourceID)
		case TypeProduct:
			return tx.DeleteProduct(ctx, projectID, e.ResourceID)
		default:
			return tx.DeleteSKU(ctx, projectID, e.ResourceID)
		}
	})
	if err == nil && wake {
		s.actions.Wake()
	}
	return err
}
