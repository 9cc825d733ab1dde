package imports

import (
	"context"
	"io"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// SKUsCSV imports the rows of a SKUs CSV file (SKUS.IMPORT_CSV).
type SKUsCSV struct {
	Header []string `json:"header"`
	Rows   int      `json:"rows"`
}

// Kind implements async.Args.
func (SKUsCSV) Kind() string    { return ActionSKUsImportCSV }
func (a SKUsCSV) rowCount() int { return a.Rows }

// skuColumns are the standard columns of a SKUs CSV.
var skuColumns = []string{"product_id", "sku", "source_id", "price", "currency", "image_url", "attributes"}

// ImportSKUsCSV imports SKUs from a CSV file (POST /v1/skus/importCSV)
// with a SKUS.IMPORT_CSV action. Columns: product_id (required: the
// product's id or source id), source_id (required), sku, price, currency,
// image_url, attributes (a JSON object whose keys are attributes of the
// product); the others are metadata. A row whose source_id names a live
// SKU of the product updates its sku and price (as the hosted service);
// the others create SKUs. Rows that cannot be stored are listed in the
// result; the others are stored.
func (s *Service) ImportSKUsCSV(ctx context.Context, projectID string, r io.Reader) (*async.Ref, error) {
	c, err := ReadCSV(r)
	if err != nil {
		return nil, err
	}
	cols := newColumns(c.Header, skuColumns, nil)
	for _, name := range []string{"product_id", "source_id"} {
		if !cols.has(name) {
			return nil, promotype.InvalidPayload("The CSV file must have a column %s", name)
		}
	}
	return s.enqueue(ctx, projectID, c.Input, SKUsCSV{Header: c.Header, Rows: c.Rows}, nil)
}

// skuOf reads a SKU CSV row and the product it names.
func skuOf(cols columns, rec []string) (catalog.SKUParams, string, error) {
	in := catalog.SKUParams{
		SourceID: cols.get(rec, "source_id"),
		SKU:      cols.get(rec, "sku"),
		Currency: trimmed(cols.get(rec, "currency")),
		ImageURL: cols.get(rec, "image_url"),
		Metadata: cols.metadata(rec),
	}
	product := cols.get(rec, "product_id")
	if product == nil {
		return in, "", promotype.InvalidPayload("Column product_id is required")
	}
	if in.SourceID == nil {
		return in, "", promotype.InvalidPayload("Column source_id is required")
	}
	var err error
	if in.Price, err = integer(cols.get(rec, "price"), "price"); err != nil {
		return in, "", err
	}
	if in.Attributes, err = object(cols.get(rec, "attributes"), "attributes"); err != nil {
		return in, "", err
	}
	return in, *product, validate.Struct(in)
}

// importSKUs stores the rows of a chunk that passed the checks.
func (s *Service) importSKUs(ctx context.Context, tx JobStore, job *async.Job[SKUsCSV], rows [][]string, o *outcome) error {
	projectID, now := job.Action().ProjectID, job.Now()
	cols := newColumns(job.Args.Header, skuColumns, nil)
	ins := make([]catalog.SKUParams, len(rows))
	refs := make([]string, len(rows))
	var srcs []string
	for i, rec := range rows {
		if o.bad[i] != nil {
			continue
		}
		ins[i], refs[i], _ = skuOf(cols, rec)
		srcs = append(srcs, *ins[i].SourceID)
	}
	products := map[string]*catalog.Product{}
	if len(srcs) > 0 {
		var keys []string
		for i, r := range refs {
			if o.bad[i] == nil {
				keys = append(keys, r)
			}
		}
		ps, err := tx.FindProducts(ctx, projectID, keys, keys)
		if err != nil {
			return err
		}
		for _, p := range ps {
			products[p.ID] = p
			if p.SourceID != nil {
				if _, ok := products[*p.SourceID]; !ok {
					products[*p.SourceID] = p
				}
			}
		}
	}
	existing := map[string]*catalog.SKU{}
	if len(srcs) > 0 {
		ss, err := tx.FindSKUs(ctx, projectID, nil, srcs)
		if err != nil {
			return err
		}
		for _, sku := range ss {
			existing[*sku.SourceID] = sku
		}
	}
	var news []*catalog.SKU
	var at []int
	for i, in := range ins {
		if o.bad[i] != nil {
			continue
		}
		p := products[refs[i]]
		if p == nil {
			_ = o.fail(i, promotype.NotFound("product", refs[i]))
			continue
		}
		if sku := existing[*in.SourceID]; sku != nil {
			if sku.ProductID != p.ID {
				_ = o.fail(i, promotype.Duplicate("sku", "SKU %s belongs to product %s", sku.ID, sku.ProductID))
				continue
			}
			if in.SKU != nil {
				sku.SKU = in.SKU
			}
			if in.Price != nil {
				sku.Price = in.Price
			}
			sku.UpdatedAt = now.Ptr()
			if err := tx.UpdateSKU(ctx, sku); err != nil {
				if err := o.fail(i, err); err != nil {
					return err
				}
				continue
			}
			o.done++
			continue
		}
		if err := p.CheckAttributes(in.Attributes); err != nil {
			_ = o.fail(i, err)
			continue
		}
		sku := &catalog.SKU{ID: s.env.IDs.NewID(promotype.PrefixSKU), ProjectID: projectID, ProductID: p.ID, CreatedAt: now,
			SourceID: in.SourceID, SKU: in.SKU, Price: in.Price, Currency: in.Currency, Attributes: in.Attributes,
			ImageURL: in.ImageURL, Metadata: in.Metadata}
		if sku.Metadata == nil {
			sku.Metadata = promotype.Metadata{}
		}
		if sku.Attributes == nil {
			sku.Attributes = promotype.Metadata{}
		}
		news, at = append(news, sku), append(at, i)
	}
	rejected, err := tx.InsertSKUs(ctx, news)
	if err != nil {
		return err
	}
	for _, k := range rejected {
		_ = o.fail(at[k], promotype.Duplicate("sku", "Duplicated sku exists with source_id %s", deref(news[k].SourceID)))
	}
	o.done += int64(len(news) - len(rejected))
	return nil
}
