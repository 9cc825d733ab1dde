package imports

import (
	"context"
	"io"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// ProductsCSV imports the rows of a products CSV file
// (PRODUCTS.IMPORT_CSV).
type ProductsCSV struct {
	Header []string `json:"header"`
	Rows   int      `json:"rows"`
}

// Kind implements async.Args.
func (ProductsCSV) Kind() string    { return ActionProductsImportCSV }
func (a ProductsCSV) rowCount() int { return a.Rows }

// productColumns are the standard columns of a products CSV.
var productColumns = []string{"name", "source_id", "price", "attributes", "image_url"}

// ImportProductsCSV imports products from a CSV file (POST
// /v1/products/importCSV) with a PRODUCTS.IMPORT_CSV action. Columns:
// name (required), source_id, price, attributes (a JSON array or names
// separated by commas), image_url; the others are metadata. A row whose
// source_id names a live product updates its name (the hosted service
// updates nothing else); the others create products. Rows that cannot be
// stored are listed in the result with their reason; the others are
// stored (each chunk of rows in one transaction).
func (s *Service) ImportProductsCSV(ctx context.Context, projectID string, r io.Reader) (*async.Ref, error) {
	c, err := ReadCSV(r)
	if err != nil {
		return nil, err
	}
	if !newColumns(c.Header, productColumns, nil).has("name") {
		return nil, promotype.InvalidPayload("The CSV file must have a column name")
	}
	return s.enqueue(ctx, projectID, c.Input, ProductsCSV{Header: c.Header, Rows: c.Rows}, nil)
}

// productOf reads a product CSV row.
func productOf(cols columns, rec []string) (catalog.ProductParams, error) {
	in := catalog.ProductParams{
		Name:     cols.get(rec, "name"),
		SourceID: cols.get(rec, "source_id"),
		ImageURL: cols.get(rec, "image_url"),
		Metadata: cols.metadata(rec),
	}
	if in.Name == nil {
		return in, promotype.InvalidPayload("Column name is required")
	}
	var err error
	if in.Price, err = integer(cols.get(rec, "price"), "price"); err != nil {
		return in, err
	}
	if in.Attributes, err = names(cols.get(rec, "attributes"), "attributes"); err != nil {
		return in, err
	}
	return in, validate.Struct(in)
}

// metaCheck checks the metadata of rows (nil for a row without) against
// the project's schema of relatedObject, outside a transaction, the
// schema read once for the chunk.
func (s *Service) metaCheck(ctx context.Context, projectID, relatedObject string, metas []promotype.Metadata, o *outcome) error {
	check, err := s.metaChecker(ctx, projectID, relatedObject)
	if err != nil {
		return err
	}
	for i, m := range metas {
		if o.bad[i] != nil {
			continue
		}
		if err := check(m); err != nil {
			if err := o.fail(i, err); err != nil {
				return err
			}
		}
	}
	return nil
}

// metaChecker returns the metadata check of the project's schema of
// relatedObject (the check of promotype.Env.CheckMeta), the schema read
// once: a chunk checks its rows with one read.
func (s *Service) metaChecker(ctx context.Context, projectID, relatedObject string) (func(m promotype.Metadata) error, error) {
	if s.svc.Schemas == nil {
		return func(m promotype.Metadata) error { return s.env.CheckMeta(ctx, projectID, relatedObject, m) }, nil
	}
	schema, err := s.svc.Schemas.Find(ctx, projectID, relatedObject)
	if err != nil {
		return nil, err
	}
	return func(m promotype.Metadata) error {
		if schema == nil {
			return nil
		}
		return schema.Check(m)
	}, nil
}

func (s *Service) registerProducts(reg *async.Registry) {
	register(s, reg, kind[ProductsCSV, []string]{
		outside: func(ctx context.Context, job *async.Job[ProductsCSV], rows [][]string, o *outcome) error {
			cols := newColumns(job.Args.Header, productColumns, nil)
			metas := make([]promotype.Metadata, len(rows))
			for i, rec := range rows {
				in, err := productOf(cols, rec)
				if err != nil {
					if err := o.fail(i, err); err != nil {
						return err
					}
					continue
				}
				metas[i] = in.Metadata
			}
			return s.metaCheck(ctx, job.Action().ProjectID, "product", metas, o)
		},
		inside: s.importProducts,
		key: func(a ProductsCSV, rec []string) string {
			return deref(newColumns(a.Header, productColumns, nil).get(rec, "source_id"))
		},
		row:    csvRow,
		result: func(_ ProductsCSV, st state) any { return importResult(st, "product", withRow|withSourceID) },
	})
	register(s, reg, kind[SKUsCSV, []string]{
		outside: func(ctx context.Context, job *async.Job[SKUsCSV], rows [][]string, o *outcome) error {
			cols := newColumns(job.Args.Header, skuColumns, nil)
			for i, rec := range rows {
				if _, _, err := skuOf(cols, rec); err != nil {
					if err := o.fail(i, err); err != nil {
						return err
					}
				}
			}
			return nil
		},
		inside: s.importSKUs,
		row:    csvRow,
		result: func(_ SKUsCSV, st state) any { return importResult(st, "sku", withRow) },
	})
	s.registerProductUpdates(reg)
}

// importProducts stores the rows of a chunk that passed the checks:
// existing source ids get the row's name, the others are inserted in one
// statement.
func (s *Service) importProducts(ctx context.Context, tx JobStore, job *async.Job[ProductsCSV], rows [][]string, o *outcome) error {
	projectID, now := job.Action().ProjectID, job.Now()
	cols := newColumns(job.Args.Header, productColumns, nil)
	ins := make([]catalog.ProductParams, len(rows))
	var srcs []string
	for i, rec := range rows {
		if o.bad[i] != nil {
			continue
		}
		ins[i], _ = productOf(cols, rec)
		if ins[i].SourceID != nil {
			srcs = append(srcs, *ins[i].SourceID)
		}
	}
	existing := map[string]*catalog.Product{}
	if len(srcs) > 0 {
		ps, err := tx.FindProducts(ctx, projectID, nil, srcs)
		if err != nil {
			return err
		}
		for _, p := range ps {
			existing[*p.SourceID] = p
		}
	}
	var news []*catalog.Product
	var at []int
	for i, in := range ins {
		if o.bad[i] != nil {
			continue
		}
		if in.SourceID != nil {
			if p := existing[*in.SourceID]; p != nil {
				p.Name = in.Name
				p.UpdatedAt = now.Ptr()
				if err := tx.UpdateProduct(ctx, p); err != nil {
					if err := o.fail(i, err); err != nil {
						return err
					}
					continue
				}
				o.done++
				continue
			}
		}
		p := &catalog.Product{ID: s.env.IDs.NewID(promotype.PrefixProduct), ProjectID: projectID, CreatedAt: now,
			SourceID: in.SourceID, Name: in.Name, Price: in.Price, Attributes: in.Attributes, Metadata: in.Metadata, ImageURL: in.ImageURL}
		if p.Metadata == nil {
			p.Metadata = promotype.Metadata{}
		}
		if p.Attributes == nil {
			p.Attributes = []string{}
		}
		news, at = append(news, p), append(at, i)
	}
	rejected, err := tx.InsertProducts(ctx, news)
	if err != nil {
		return err
	}
	for _, k := range rejected {
		_ = o.fail(at[k], promotype.Duplicate("product", "Duplicated product exists with source_id %s", deref(news[k].SourceID)))
	}
	o.done += int64(len(news) - len(rejected))
	return nil
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
