package catalog

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// Service is the catalog's use cases over a [Store].
type Service struct {
	store Store
	tx    promotype.TxFunc[Store]
	env   promotype.Env
}

// NewService returns a catalog service reading through store and writing in
// transactions opened by tx.
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env) *Service {
	return &Service{store: store, tx: tx, env: env}
}

// SKUListSpec is what SKU lists accept.
var SKUListSpec = promotype.ListSpec{
	Orders:       ListSpec.Orders,
	DefaultOrder: ListSpec.DefaultOrder,
	Fields: map[string]promotype.FieldKind{
		"source_id":  promotype.FieldString,
		"sku":        promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

// NewShipping returns the built-in shipping product of a new project.
func NewShipping(projectID string, now promotype.Time) *Product {
	src, name := ShippingSourceID, ShippingName
	return (&Product{ID: ShippingID, ProjectID: projectID, SourceID: &src, Name: &name, CreatedAt: now}).normalize()
}

// CreateProduct creates a product, or updates the one its id or source_id names.
func (s *Service) CreateProduct(ctx context.Context, projectID string, in ProductParams) (*Product, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	// A new product's metadata is always checked (a required key must be
	// there); an upsert of an existing product checks the metadata it sends.
	check := in.Metadata != nil
	if !check && s.env.CheckMetadata != nil {
		p, err := promotype.UpsertTarget(ctx, "product", in.ID, in.SourceID, s.store.GetProduct, s.store.FindProductBySourceID, projectID)
		if err != nil {
			return nil, err
		}
		check = p == nil
	}
	if check {
		if err := s.env.CheckMeta(ctx, projectID, "product", in.Metadata); err != nil {
			return nil, err
		}
	}
	var out *Product
	upsert := func(ctx context.Context, st Store) error {
		p, err := promotype.UpsertTarget(ctx, "product", in.ID, in.SourceID, st.GetProduct, st.FindProductBySourceID, projectID)
		if err != nil {
			return err
		}
		now := s.env.Clock.Now()
		if p != nil {
			in.apply(p)
			p.UpdatedAt = now.Ptr()
			out = p
			return st.UpdateProduct(ctx, p)
		}
		p = &Product{ID: s.env.IDs.NewID(promotype.PrefixProduct), ProjectID: projectID, CreatedAt: now}
		in.apply(p)
		out = p
		return st.InsertProduct(ctx, p)
	}
	err := promotype.RetryUpsert(ctx, func() error { return s.write(ctx, projectID, upsert) })
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// GetProduct returns a product by id or source id, with its SKUs (the newest
// 100; skus.total counts them all).
func (s *Service) GetProduct(ctx context.Context, projectID, ref string) (*Product, error) {
	p, err := s.resolveProduct(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	q := promotype.Query{Limit: promotype.MaxLimit, OrderBy: "created_at", Desc: true}
	skus, total, err := s.store.ListSKUs(ctx, projectID, p.ID, q)
	if err != nil {
		return nil, err
	}
	p.SKUs = promotype.NewList(normalizeSKUs(skus), total, q)
	return p.normalize(), nil
}

// ListProducts lists the live products of a project.
func (s *Service) ListProducts(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Product], error) {
	return promotype.ListWith(ctx, s.store.ListProducts, projectID, params, ListSpec, s.env.Clock.Now(), (*Product).normalize)
}

// UpdateProduct changes the fields given in `in` (id and source_id are ignored).
func (s *Service) UpdateProduct(ctx context.Context, projectID, ref string, in ProductParams) (*Product, error) {
	in.ID, in.SourceID = nil, nil
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	if in.Metadata != nil {
		if err := s.env.CheckMeta(ctx, projectID, "product", in.Metadata); err != nil {
			return nil, err
		}
	}
	var out *Product
	err := s.write(ctx, projectID, func(ctx context.Context, st Store) error {
		p, err := s.resolveProduct(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		in.apply(p)
		p.UpdatedAt = s.env.Clock.Now().Ptr()
		out = p
		return st.UpdateProduct(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// DeleteProduct moves a product and its SKUs to the bin, or with force
// removes them for good. The built-in shipping product cannot be deleted.
func (s *Service) DeleteProduct(ctx context.Context, projectID, ref string, force bool) error {
	return s.write(ctx, projectID, func(ctx context.Context, st Store) error {
		p, err := s.resolveProduct(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		if p.ID == ShippingID {
			return promotype.BadRequest("resource_protected", "Resource protected", "The built-in product %s cannot be deleted", ShippingID)
		}
		if force {
			return st.DeleteProduct(ctx, projectID, p.ID)
		}
		return st.BinProduct(ctx, projectID, p.ID, s.env.Clock.Now())
	})
}

// CreateSKU creates a SKU under a product, or updates the SKU its id or
// source_id names. Attribute keys must be attribute names of the product.
func (s *Service) CreateSKU(ctx context.Context, projectID, productRef string, in SKUParams) (*SKU, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	var out *SKU
	upsert := func(ctx context.Context, st Store) error {
		p, err := s.resolveProduct(ctx, st, projectID, productRef)
		if err != nil {
			return err
		}
		if err := p.CheckAttributes(in.Attributes); err != nil {
			return err
		}
		sku, err := promotype.UpsertTarget(ctx, "sku", in.ID, in.SourceID, st.GetSKU, st.FindSKUBySourceID, projectID)
		if err != nil {
			return err
		}
		now := s.env.Clock.Now()
		if sku != nil {
			if sku.ProductID != p.ID {
				return promotype.Duplicate("sku", "SKU %s belongs to product %s", sku.ID, sku.ProductID)
			}
			in.apply(sku)
			sku.UpdatedAt = now.Ptr()
			out = sku
			return st.UpdateSKU(ctx, sku)
		}
		sku = &SKU{ID: s.env.IDs.NewID(promotype.PrefixSKU), ProjectID: projectID, ProductID: p.ID, CreatedAt: now}
		in.apply(sku)
		out = sku
		return st.InsertSKU(ctx, sku)
	}
	err := promotype.RetryUpsert(ctx, func() error { return s.write(ctx, projectID, upsert) })
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// GetSKU returns a SKU by id or source id, whatever its product.
func (s *Service) GetSKU(ctx context.Context, projectID, ref string) (*SKU, error) {
	sku, err := promotype.Resolve(ctx, "sku", ref, projectID, s.store.GetSKU, s.store.FindSKUBySourceID)
	if err != nil {
		return nil, err
	}
	return sku.normalize(), nil
}

// ListSKUs lists the SKUs of a product (by id or source id).
func (s *Service) ListSKUs(ctx context.Context, projectID, productRef string, params promotype.ListParams) (*promotype.List[*SKU], error) {
	q, err := params.Query(SKUListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	p, err := s.resolveProduct(ctx, s.store, projectID, productRef)
	if err != nil {
		return nil, err
	}
	items, total, err := s.store.ListSKUs(ctx, projectID, p.ID, q)
	if err != nil {
		return nil, err
	}
	return promotype.NewList(normalizeSKUs(items), total, q), nil
}

// UpdateSKU changes the fields given in `in` of a SKU of a product.
func (s *Service) UpdateSKU(ctx context.Context, projectID, productRef, skuRef string, in SKUParams) (*SKU, error) {
	in.ID, in.SourceID = nil, nil
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	var out *SKU
	err := s.write(ctx, projectID, func(ctx context.Context, st Store) error {
		p, sku, err := s.resolveProductSKU(ctx, st, projectID, productRef, skuRef)
		if err != nil {
			return err
		}
		if err := p.CheckAttributes(in.Attributes); err != nil {
			return err
		}
		in.apply(sku)
		sku.UpdatedAt = s.env.Clock.Now().Ptr()
		out = sku
		return st.UpdateSKU(ctx, sku)
	})
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// DeleteSKU moves a SKU to the bin, or with force removes it for good.
func (s *Service) DeleteSKU(ctx context.Context, projectID, productRef, skuRef string, force bool) error {
	return s.write(ctx, projectID, func(ctx context.Context, st Store) error {
		_, sku, err := s.resolveProductSKU(ctx, st, projectID, productRef, skuRef)
		if err != nil {
			return err
		}
		if force {
			return st.DeleteSKU(ctx, projectID, sku.ID)
		}
		return st.BinSKU(ctx, projectID, sku.ID, s.env.Clock.Now())
	})
}

// write runs fn in one transaction and, after the commit, tells the
// change hook: unit discounts price the products they add from the catalog
// when a project's promotions are compiled, so a catalog change can change
// a validation's answer.
func (s *Service) write(ctx context.Context, projectID string, fn func(ctx context.Context, st Store) error) error {
	if err := s.tx(ctx, fn); err != nil {
		return err
	}
	s.env.Change(projectID)
	return nil
}

// ResolveProduct returns the live product with id or source id ref.
func (s *Service) resolveProduct(ctx context.Context, st Store, projectID, ref string) (*Product, error) {
	return promotype.Resolve(ctx, "product", ref, projectID, st.GetProduct, st.FindProductBySourceID)
}

func (s *Service) resolveProductSKU(ctx context.Context, st Store, projectID, productRef, skuRef string) (*Product, *SKU, error) {
	p, err := s.resolveProduct(ctx, st, projectID, productRef)
	if err != nil {
		return nil, nil, err
	}
	sku, err := promotype.Resolve(ctx, "sku", skuRef, projectID, st.GetSKU, st.FindSKUBySourceID)
	if err != nil {
		return nil, nil, err
	}
	if sku.ProductID != p.ID {
		return nil, nil, promotype.NotFound("sku", skuRef)
	}
	return p, sku, nil
}

// CheckAttributes refuses attribute keys of a SKU that are not attributes
// of its product p (400 naming the first, in key order).
func (p *Product) CheckAttributes(attrs promotype.Metadata) error {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !p.HasAttribute(k) {
			return promotype.InvalidPayload("Property .attributes.%s is not an attribute of product %s (its attributes: %s)", k, p.ID, strings.Join(p.Attributes, ", "))
		}
	}
	return nil
}

func normalizeSKUs(items []*SKU) []*SKU {
	for _, s := range items {
		s.normalize()
	}
	return items
}
