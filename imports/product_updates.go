package imports

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

// ProductsBulkUpdate upserts products by source id (PRODUCTS.BULK_UPDATE).
type ProductsBulkUpdate struct {
	Rows int `json:"rows"`
}

// Kind implements async.Args.
func (ProductsBulkUpdate) Kind() string    { return ActionProductsBulkUpdate }
func (a ProductsBulkUpdate) rowCount() int { return a.Rows }

// ProductsMetadataUpdate sets metadata keys on products
// (PRODUCTS.METADATA_UPDATE); the source ids are the input rows.
type ProductsMetadataUpdate struct {
	Rows     int                `json:"rows"`
	Metadata promotype.Metadata `json:"metadata"`
}

// Kind implements async.Args.
func (ProductsMetadataUpdate) Kind() string    { return ActionProductsMetadataUpdate }
func (a ProductsMetadataUpdate) rowCount() int { return a.Rows }

// UpdateProductsInBulk updates products by source id, each with the fields
// of its item, with a PRODUCTS.BULK_UPDATE action (POST
// /v1/products/bulk/async); a source id that names no product creates one
// (the hosted service upserts). Each item is applied on its own; those
// that fail are listed in the result's errors.
func (s *Service) UpdateProductsInBulk(ctx context.Context, projectID string, items []catalog.ProductParams) (*async.Ref, error) {
	in, err := keyedItems(items, func(it catalog.ProductParams) *string { return it.SourceID })
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, in, ProductsBulkUpdate{Rows: in.Rows}, nil)
}

// UpdateProductsMetadata sets the keys of in.Metadata on the products
// with the source ids in.SourceIDs with a PRODUCTS.METADATA_UPDATE action
// (POST /v1/products/metadata/async); a source id that names no product
// creates one with that metadata.
func (s *Service) UpdateProductsMetadata(ctx context.Context, projectID string, in MetadataUpdate) (*async.Ref, error) {
	input, err := keysInput(in.SourceIDs, "source_ids")
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, input, ProductsMetadataUpdate{Rows: input.Rows, Metadata: in.Metadata}, nil)
}

func (s *Service) registerProductUpdates(reg *async.Registry) {
	register(s, reg, kind[ProductsBulkUpdate, json.RawMessage]{
		outside: eachRow(func(ctx context.Context, job *async.Job[ProductsBulkUpdate], raw json.RawMessage) error {
			var in catalog.ProductParams
			if err := decodeItem(raw, &in); err != nil {
				return err
			}
			in.ID = nil
			_, err := s.svc.Catalog.CreateProduct(ctx, job.Action().ProjectID, in)
			return err
		}),
		key:    func(_ ProductsBulkUpdate, raw json.RawMessage) string { return rawKey(raw, "source_id") },
		row:    itemRow,
		result: func(_ ProductsBulkUpdate, st state) any { return bulkResult(st, false) },
	})
	register(s, reg, kind[ProductsMetadataUpdate, string]{
		outside: eachRow(func(ctx context.Context, job *async.Job[ProductsMetadataUpdate], src string) error {
			projectID := job.Action().ProjectID
			p, err := s.svc.Catalog.GetProduct(ctx, projectID, src)
			if errors.Is(err, promotype.ErrNotFound) {
				_, err = s.svc.Catalog.CreateProduct(ctx, projectID, catalog.ProductParams{SourceID: &src, Metadata: job.Args.Metadata})
				return err
			}
			if err != nil {
				return err
			}
			_, err = s.svc.Catalog.UpdateProduct(ctx, projectID, p.ID, catalog.ProductParams{Metadata: merged(p.Metadata, job.Args.Metadata)})
			return err
		}),
		key:    func(_ ProductsMetadataUpdate, src string) string { return src },
		row:    itemRow,
		result: func(_ ProductsMetadataUpdate, st state) any { return bulkResult(st, false) },
	})
}
