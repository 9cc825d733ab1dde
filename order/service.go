package order

import (
	"context"
	"errors"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// Service is the order use cases over a [ServiceStore].
type Service struct {
	store ServiceStore
	tx    promotype.TxFunc[ServiceStore]
	env   promotype.Env
}

// NewService returns an order service reading through store and writing in
// transactions opened by tx.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env) *Service {
	return &Service{store: store, tx: tx, env: env}
}

// Create creates an order (POST /v1/orders), or updates the order its id or
// source_id names (an id must name an existing order, else 404). The items
// are joined to the catalog and the amounts calculated (Calculate); the
// customer and referrer are upserted; all of it in one transaction, so a
// refused request stores nothing.
func (s *Service) Create(ctx context.Context, projectID string, in Params) (*Order, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkMetadata(ctx, projectID, &in); err != nil {
		return nil, err
	}
	var out *Order
	upsert := func(ctx context.Context, st ServiceStore) error {
		target, err := promotype.UpsertTarget(ctx, "order", in.ID, in.SourceID.Value, st.GetOrder, st.FindOrderBySourceID, projectID)
		if err != nil {
			return err
		}
		if target != nil {
			out, err = s.update(ctx, st, target, &in)
			return err
		}
		cat, err := loadCatalog(ctx, st, projectID, in.Items)
		if err != nil {
			return err
		}
		o, err := Calculate(&in, cat)
		if err != nil {
			return err
		}
		now := s.env.Clock.Now()
		o.ID, o.ProjectID, o.CreatedAt, o.SourceID = s.env.IDs.NewID(promotype.PrefixOrder), projectID, now, promotype.ClonePtr(in.SourceID.Value)
		if in.CreatedAt != nil {
			o.CreatedAt = *in.CreatedAt
		}
		if o.Status == "" {
			o.Status = StatusCreated
		}
		numberItems(o)
		if err := s.setCustomers(ctx, st, projectID, o, &in); err != nil {
			return err
		}
		out = o
		if err := st.InsertOrder(ctx, o); err != nil {
			return err
		}
		return LogActivity(ctx, st, s.env, o.normalize(), "")
	}
	err := promotype.RetryUpsert(ctx, func() error { return s.tx(ctx, upsert) })
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// Get returns an order by id or source id.
func (s *Service) Get(ctx context.Context, projectID, ref string) (*Order, error) {
	o, err := promotype.Resolve(ctx, "order", ref, projectID, s.store.GetOrder, s.store.FindOrderBySourceID)
	if err != nil {
		return nil, err
	}
	return o.normalize(), nil
}

// Update changes the order with id or source id ref (PUT /v1/orders/{orderId})
// with the fields given in `in` (its id is ignored); updated_at is set.
func (s *Service) Update(ctx context.Context, projectID, ref string, in Params) (*Order, error) {
	in.ID = nil
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkMetadata(ctx, projectID, &in); err != nil {
		return nil, err
	}
	var out *Order
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		o, err := promotype.Resolve(ctx, "order", ref, projectID, st.GetOrder, st.FindOrderBySourceID)
		if err != nil {
			return err
		}
		out, err = s.update(ctx, st, o, &in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// List lists the orders of a project.
func (s *Service) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Order], error) {
	return promotype.ListWith(ctx, s.store.ListOrders, projectID, params, ListSpec, s.env.Clock.Now(), (*Order).normalize)
}

// Resolve returns the order that the `order` of a validation or redemption
// request describes (see the package function Resolve), read through the
// service's store. Nothing is written.
func (s *Service) Resolve(ctx context.Context, projectID string, in Params) (o *Order, stored bool, err error) {
	return Resolve(ctx, s.store, projectID, &in)
}

// Reader is what Resolve reads: orders and the catalog.
type Reader interface {
	GetOrder(ctx context.Context, projectID, id string) (*Order, error)
	FindOrderBySourceID(ctx context.Context, projectID, sourceID string) (*Order, error)
	CatalogReader
}

// Resolve returns the order that the `order` of a validation or redemption
// request describes, as the hosted API requires: when in names a stored order, by
// id or by a source id an order holds, that stored order is used (its items,
// amounts, customer and metadata) and the rest of the request is ignored;
// stored is then true. An id naming no order is 404. Otherwise in is
// validated and calculated against the catalog (Calculate) without being
// stored, keeping its source_id; customers are not looked up. st may be a
// store bound to the caller's transaction.
func Resolve(ctx context.Context, st Reader, projectID string, in *Params) (o *Order, stored bool, err error) {
	switch {
	case in.ID != nil && *in.ID != "":
		o, err = st.GetOrder(ctx, projectID, *in.ID)
		if err != nil {
			return nil, false, err
		}
		return o.normalize(), true, nil
	case in.SourceID.Value != nil:
		o, err = st.FindOrderBySourceID(ctx, projectID, *in.SourceID.Value)
		if err == nil {
			return o.normalize(), true, nil
		}
		if !errors.Is(err, promotype.ErrNotFound) {
			return nil, false, err
		}
	}
	if err := in.Validate(); err != nil {
		return nil, false, err
	}
	cat, err := loadCatalog(ctx, st, projectID, in.Items)
	if err != nil {
		return nil, false, err
	}
	if o, err = Calculate(in, cat); err != nil {
		return nil, false, err
	}
	o.SourceID = promotype.ClonePtr(in.SourceID.Value)
	return o, false, nil
}

// update applies in to the stored order o and writes it.
func (s *Service) update(ctx context.Context, st ServiceStore, o *Order, in *Params) (*Order, error) {
	if in.Items != nil {
		cat, err := loadCatalog(ctx, st, o.ProjectID, in.Items)
		if err != nil {
			return nil, err
		}
		if o.Items, err = buildLines(in.Items, cat); err != nil {
			return nil, err
		}
		numberItems(o)
	}
	if in.SourceID.Set {
		o.SourceID = promotype.ClonePtr(in.SourceID.Value)
	}
	was := o.Status
	if in.Status != nil {
		o.Status = *in.Status
	}
	if in.Metadata != nil {
		o.Metadata = in.Metadata.Clone()
	}
	if in.CreatedAt != nil {
		o.CreatedAt = *in.CreatedAt
	}
	if err := o.setAmounts(in, in.Items != nil); err != nil {
		return nil, err
	}
	if err := s.setCustomers(ctx, st, o.ProjectID, o, in); err != nil {
		return nil, err
	}
	o.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := st.UpdateOrder(ctx, o); err != nil {
		return nil, err
	}
	return o, LogActivity(ctx, st, s.env, o.normalize(), was)
}

// checkMetadata checks the metadata a create or update sends against the
// project's schemas: the order's ("order"), each item's ("order_item") and
// the embedded customer's and referrer's ("customer").
func (s *Service) checkMetadata(ctx context.Context, projectID string, in *Params) error {
	check := func(object string, m promotype.Metadata) error {
		if m == nil {
			return nil
		}
		return s.env.CheckMeta(ctx, projectID, object, m)
	}
	if err := check("order", in.Metadata); err != nil {
		return err
	}
	for i := range in.Items {
		if err := check("order_item", in.Items[i].Metadata); err != nil {
			return err
		}
	}
	for _, c := range []*customer.Params{in.Customer, in.Referrer} {
		if c != nil {
			if err := check("customer", c.Metadata); err != nil {
				return err
			}
		}
	}
	return nil
}

// setCustomers sets the customer and the referrer that in names: an object
// is upserted (customer.Upsert); an id (or source id) must name an existing
// customer; null removes.
func (s *Service) setCustomers(ctx context.Context, st ServiceStore, projectID string, o *Order, in *Params) error {
	set := func(dst **string, obj *customer.Params, ref Nullable[string]) error {
		switch {
		case obj != nil:
			c, err := customer.Upsert(ctx, st, s.env, projectID, *obj)
			if err != nil {
				return err
			}
			*dst = &c.ID
		case ref.Set && ref.Value == nil:
			*dst = nil
		case ref.Set:
			c, err := customer.Resolve(ctx, st, projectID, *ref.Value)
			if err != nil {
				return err
			}
			*dst = &c.ID
		}
		return nil
	}
	if err := set(&o.CustomerID, in.Customer, in.CustomerID); err != nil {
		return err
	}
	return set(&o.ReferrerID, in.Referrer, in.ReferrerID)
}

// numberItems gives every line of a stored order its id.
func numberItems(o *Order) {
	for i := range o.Items {
		o.Items[i].ID = itemID(o.ID, i+1)
	}
}

// loadCatalog reads the products and SKUs items name, in one query per
// kind: the SKUs first, then the products named directly or as the SKUs'
// parents.
func loadCatalog(ctx context.Context, st CatalogReader, projectID string, items []ItemParams) (*Catalog, error) {
	if len(items) == 0 {
		return nil, nil
	}
	k := ItemKeys(items)
	var skus []*catalog.SKU
	productIDs := k.ProductIDs
	if len(k.SKUIDs)+len(k.SKUSourceIDs) > 0 {
		var err error
		if skus, err = st.FindSKUs(ctx, projectID, k.SKUIDs, k.SKUSourceIDs); err != nil {
			return nil, err
		}
		seen := make(map[string]bool, len(productIDs)+len(skus))
		for _, id := range productIDs {
			seen[id] = true
		}
		for _, sku := range skus {
			if !seen[sku.ProductID] {
				seen[sku.ProductID] = true
				productIDs = append(productIDs, sku.ProductID)
			}
		}
	}
	var products []*catalog.Product
	if len(productIDs)+len(k.ProductSourceIDs) > 0 {
		var err error
		if products, err = st.FindProducts(ctx, projectID, productIDs, k.ProductSourceIDs); err != nil {
			return nil, err
		}
	}
	return NewCatalog(products, skus), nil
}
