package catalog

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// CollectionParams is the body of POST /v1/product-collections.
type CollectionParams struct {
	Type     *string          `json:"type" validate:"omitempty,oneof=STATIC AUTO_UPDATE"`
	Name     *string          `json:"name" validate:"omitempty,min=1,max=300"`
	Products []CollectionItem `json:"products"`
	Filter   CollectionFilter `json:"filter"`
}

// CreateCollection creates a product collection. A STATIC one lists
// existing products and SKUs (by id or source id; stored by id, a SKU with
// its product_id); an AUTO_UPDATE one has a filter (CollectionFilter).
// Names are unique in a project (409 duplicate_found).
func (s *Service) CreateCollection(ctx context.Context, projectID string, in CollectionParams) (*Collection, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	switch {
	case in.Name == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	case in.Type == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'type'")
	case *in.Type == CollectionStatic && in.Filter != nil:
		return nil, promotype.InvalidPayload("Property .filter is allowed only for an AUTO_UPDATE collection")
	case *in.Type == CollectionAutoUpdate && in.Products != nil:
		return nil, promotype.InvalidPayload("Property .products is allowed only for a STATIC collection")
	case *in.Type == CollectionAutoUpdate && in.Filter == nil:
		return nil, promotype.InvalidPayload("Payload must have required property 'filter' for an AUTO_UPDATE collection")
	case len(in.Products) > MaxCollectionItems:
		return nil, promotype.InvalidPayload("Property .products must NOT have more than %d items", MaxCollectionItems)
	}
	c := &Collection{ID: s.env.IDs.NewID(promotype.PrefixProductCollection), ProjectID: projectID, Name: *in.Name,
		Type: *in.Type, CreatedAt: s.env.Clock.Now()}
	if c.Type == CollectionAutoUpdate {
		if _, err := in.Filter.compile(); err != nil {
			return nil, err
		}
		c.Filter = in.Filter.clone()
	}
	err := s.write(ctx, projectID, func(ctx context.Context, st Store) error {
		if c.Type == CollectionStatic {
			items, err := resolveItems(ctx, st, projectID, in.Products)
			if err != nil {
				return err
			}
			c.Products = items
		}
		return st.InsertCollection(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	return c.Clone().normalize(), nil
}

// resolveItems checks that every listed product and SKU exists and names
// each by id, once, in the order given.
func resolveItems(ctx context.Context, st Store, projectID string, in []CollectionItem) ([]CollectionItem, error) {
	out := make([]CollectionItem, 0, len(in))
	seen := map[string]bool{}
	for i, it := range in {
		if it.ID == "" {
			return nil, promotype.InvalidPayload("Property .products[%d] must have required property 'id'", i)
		}
		var item CollectionItem
		switch it.Object {
		case "product":
			p, err := promotype.Resolve(ctx, "product", it.ID, projectID, st.GetProduct, st.FindProductBySourceID)
			if err != nil {
				return nil, err
			}
			item = CollectionItem{ID: p.ID, Object: "product"}
		case "sku":
			sku, err := promotype.Resolve(ctx, "sku", it.ID, projectID, st.GetSKU, st.FindSKUBySourceID)
			if err != nil {
				return nil, err
			}
			if it.ProductID != nil && *it.ProductID != sku.ProductID {
				return nil, promotype.InvalidPayload("Property .products[%d].product_id must be the product of SKU %s", i, sku.ID)
			}
			item = CollectionItem{ID: sku.ID, ProductID: &sku.ProductID, Object: "sku"}
		default:
			return nil, promotype.InvalidPayload("Property .products[%d].object must be equal to one of the allowed values: sku, product", i)
		}
		if !seen[item.Object+item.ID] {
			seen[item.Object+item.ID] = true
			out = append(out, item)
		}
	}
	return out, nil
}

// GetCollection returns a product collection by id or name.
func (s *Service) GetCollection(ctx context.Context, projectID, ref string) (*Collection, error) {
	c, err := promotype.Resolve(ctx, "products_collection", ref, projectID, s.store.GetCollection, s.store.FindCollectionByName)
	if err != nil {
		return nil, err
	}
	return c.normalize(), nil
}

// ListCollections lists the product collections of a project.
func (s *Service) ListCollections(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Collection], error) {
	return promotype.ListWith(ctx, s.store.ListCollections, projectID, params, CollectionListSpec, s.env.Clock.Now(), (*Collection).normalize)
}

// DeleteCollection deletes a product collection (by id or name). Rules and
// discounts that name it then match no line.
func (s *Service) DeleteCollection(ctx context.Context, projectID, ref string) error {
	return s.write(ctx, projectID, func(ctx context.Context, st Store) error {
		c, err := promotype.Resolve(ctx, "products_collection", ref, projectID, st.GetCollection, st.FindCollectionByName)
		if err != nil {
			return err
		}
		return st.DeleteCollection(ctx, projectID, c.ID)
	})
}

// CollectionMember is an entry of GET /v1/product-collections/{id}/products:
// a product, or a SKU with its product (without SKUs).
type CollectionMember struct {
	Product *Product // a product member
	SKU     *SKU     // a SKU member
	Parent  *Product // the SKU's product
}

// MarshalJSON writes the product, or the SKU with its "product".
func (m CollectionMember) MarshalJSON() ([]byte, error) {
	if m.SKU == nil {
		return json.Marshal(m.Product)
	}
	type parent struct {
		ID         string             `json:"id"`
		SourceID   *string            `json:"source_id"`
		Name       *string            `json:"name"`
		Price      *int64             `json:"price"`
		Attributes []string           `json:"attributes"`
		Metadata   promotype.Metadata `json:"metadata"`
		Object     string             `json:"object"`
	}
	var p *parent
	if m.Parent != nil {
		p = &parent{ID: m.Parent.ID, SourceID: m.Parent.SourceID, Name: m.Parent.Name, Price: m.Parent.Price,
			Attributes: m.Parent.Attributes, Metadata: m.Parent.Metadata, Object: "product"}
	}
	return json.Marshal(struct {
		*SKU
		Product *parent `json:"product"`
	}{m.SKU, p})
}

// memberBatch is how many products or SKUs one read of a members walk
// takes.
const memberBatch = 500

// ListCollectionMembers lists the products and SKUs of a collection (by id
// or name), one page: a STATIC collection's in the order it lists them
// (those deleted since are left out), an AUTO_UPDATE collection's as its
// filter holds them now, newest first (products and SKUs merged). An
// AUTO_UPDATE list walks the project's catalog in batches, holding one
// batch and the page, never the catalog.
func (s *Service) ListCollectionMembers(ctx context.Context, projectID, ref string, params promotype.ListParams) (*promotype.List[CollectionMember], error) {
	c, err := promotype.Resolve(ctx, "products_collection", ref, projectID, s.store.GetCollection, s.store.FindCollectionByName)
	if err != nil {
		return nil, err
	}
	q, err := params.Query(promotype.ListSpec{Orders: []string{"created_at"}, DefaultOrder: "-created_at"}, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	var page []CollectionMember
	var total int
	if c.Type == CollectionAutoUpdate {
		page, total, err = s.filterMembers(ctx, projectID, c, q)
	} else {
		page, total, err = s.staticMembers(ctx, projectID, c, q)
	}
	if err != nil {
		return nil, err
	}
	return promotype.NewList(page, total, q), nil
}

func (s *Service) staticMembers(ctx context.Context, projectID string, c *Collection, q promotype.Query) ([]CollectionMember, int, error) {
	var productIDs, skuIDs []string
	for _, it := range c.Products {
		if it.Object == "sku" {
			skuIDs = append(skuIDs, it.ID)
		} else {
			productIDs = append(productIDs, it.ID)
		}
	}
	skus, err := s.store.FindSKUs(ctx, projectID, skuIDs, nil)
	if err != nil {
		return nil, 0, err
	}
	bySKU := map[string]*SKU{}
	for _, sku := range skus {
		bySKU[sku.ID] = sku
		productIDs = append(productIDs, sku.ProductID)
	}
	products, err := s.store.FindProducts(ctx, projectID, productIDs, nil)
	if err != nil {
		return nil, 0, err
	}
	byProduct := map[string]*Product{}
	for _, p := range products {
		byProduct[p.ID] = p.normalize()
	}
	var all []CollectionMember
	for _, it := range c.Products {
		if it.Object == "sku" {
			if sku := bySKU[it.ID]; sku != nil {
				all = append(all, CollectionMember{SKU: sku.normalize(), Parent: byProduct[sku.ProductID]})
			}
		} else if p := byProduct[it.ID]; p != nil {
			all = append(all, CollectionMember{Product: p})
		}
	}
	lo := min(q.Offset, len(all))
	return all[lo:min(lo+q.Limit, len(all))], len(all), nil
}

// filterMembers merges the project's products and SKUs (each read in
// created_at order, batch by batch), keeps those the filter holds and
// counts them, holding only the page.
func (s *Service) filterMembers(ctx context.Context, projectID string, c *Collection, q promotype.Query) ([]CollectionMember, int, error) {
	prog, err := c.Filter.compile()
	if err != nil {
		return nil, 0, err
	}
	order := promotype.Query{Limit: memberBatch, OrderBy: "created_at", Desc: q.Desc}
	products := &walker[*Product]{read: func(off int) ([]*Product, error) {
		o := order
		o.Offset = off
		items, _, err := s.store.ListProducts(ctx, projectID, o)
		return items, err
	}}
	skus := &walker[*SKU]{read: func(off int) ([]*SKU, error) {
		o := order
		o.Offset = off
		items, _, err := s.store.ListSKUs(ctx, projectID, "", o)
		return items, err
	}}
	var page []CollectionMember
	total := 0
	keep := func(m CollectionMember) {
		if total >= q.Offset && len(page) < q.Limit {
			page = append(page, m)
		}
		total++
	}
	for {
		p, err := products.peek()
		if err != nil {
			return nil, 0, err
		}
		k, err := skus.peek()
		if err != nil {
			return nil, 0, err
		}
		if p == nil && k == nil {
			break
		}
		takeProduct := k == nil
		if p != nil && k != nil {
			c := cmp.Or(p.CreatedAt.Compare(k.CreatedAt.Time), cmp.Compare(p.ID, k.ID))
			takeProduct = (c < 0) != q.Desc
		}
		if takeProduct {
			products.next()
			if f := ProductFacts(p); p.ID != ShippingID && prog.holds(&f) {
				keep(CollectionMember{Product: p.normalize()})
			}
			continue
		}
		skus.next()
		if f := SKUFacts(k); prog.holds(&f) {
			keep(CollectionMember{SKU: k.normalize()})
		}
	}
	if err := s.fillParents(ctx, projectID, page); err != nil {
		return nil, 0, err
	}
	return page, total, nil
}

// fillParents joins the products of the page's SKUs.
func (s *Service) fillParents(ctx context.Context, projectID string, page []CollectionMember) error {
	var ids []string
	for _, m := range page {
		if m.SKU != nil {
			ids = append(ids, m.SKU.ProductID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	ps, err := s.store.FindProducts(ctx, projectID, ids, nil)
	if err != nil {
		return err
	}
	by := map[string]*Product{}
	for _, p := range ps {
		by[p.ID] = p.normalize()
	}
	for i := range page {
		if page[i].SKU != nil {
			page[i].Parent = by[page[i].SKU.ProductID]
		}
	}
	return nil
}

// walker reads a list batch by batch.
type walker[T any] struct {
	read  func(offset int) ([]T, error)
	batch []T
	i     int
	off   int
	done  bool
}

// peek returns the next item without taking it (zero at the end).
func (w *walker[T]) peek() (T, error) {
	var zero T
	if w.i >= len(w.batch) && !w.done {
		items, err := w.read(w.off)
		if err != nil {
			return zero, err
		}
		w.batch, w.i, w.off = items, 0, w.off+len(items)
		w.done = len(items) < memberBatch
	}
	if w.i >= len(w.batch) {
		return zero, nil
	}
	return w.batch[w.i], nil
}

func (w *walker[T]) next() { w.i++ }
