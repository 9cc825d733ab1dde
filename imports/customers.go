package imports

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// CustomersCSV imports the rows of a customers CSV file
// (CUSTOMERS.IMPORT_CSV).
type CustomersCSV struct {
	Header []string `json:"header"`
	Rows   int      `json:"rows"`
}

// Kind implements async.Args.
func (CustomersCSV) Kind() string    { return ActionCustomersImportCSV }
func (a CustomersCSV) rowCount() int { return a.Rows }

// CustomersBulkUpdate upserts customers by source id
// (CUSTOMERS.BULK_UPDATE).
type CustomersBulkUpdate struct {
	Rows int `json:"rows"`
}

// Kind implements async.Args.
func (CustomersBulkUpdate) Kind() string    { return ActionCustomersBulkUpdate }
func (a CustomersBulkUpdate) rowCount() int { return a.Rows }

// CustomersMetadataUpdate sets metadata keys on customers
// (CUSTOMERS.METADATA_UPDATE); the source ids are the input rows.
type CustomersMetadataUpdate struct {
	Rows     int                `json:"rows"`
	Metadata promotype.Metadata `json:"metadata"`
}

// Kind implements async.Args.
func (CustomersMetadataUpdate) Kind() string    { return ActionCustomersMetadataUpdate }
func (a CustomersMetadataUpdate) rowCount() int { return a.Rows }

// customerColumns are the standard columns of a customers CSV (the
// hosted names, lower case).
var customerColumns = []string{"id", "name", "email", "phone", "birthdate", "source_id", "description",
	"address_line_1", "address_line_2", "address_postal_code", "address_city", "address_state", "address_country"}

// ImportCustomersCSV imports customers from a CSV file (POST
// /v1/customers/importCSV) with a CUSTOMERS.IMPORT_CSV action. Columns
// (any case): Id, Name, Email, Phone, Birthdate, Source_id,
// Address_line_1, Address_line_2, Address_Postal_Code, Address_City,
// Address_State, Address_Country, Description; the others are metadata.
// Each row is the customer upsert of POST /v1/customers (a source id names
// the customer to update); rows that fail are listed in the result.
func (s *Service) ImportCustomersCSV(ctx context.Context, projectID string, r io.Reader) (*async.Ref, error) {
	c, err := ReadCSV(r)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, c.Input, CustomersCSV{Header: c.Header, Rows: c.Rows}, nil)
}

// customerOf reads a customers CSV row.
func customerOf(cols columns, rec []string) customer.Params {
	in := customer.Params{
		ID: cols.get(rec, "id"), SourceID: cols.get(rec, "source_id"), Name: cols.get(rec, "name"),
		Email: cols.get(rec, "email"), Phone: cols.get(rec, "phone"), Birthdate: trimmed(cols.get(rec, "birthdate")),
		Description: cols.get(rec, "description"), Metadata: cols.metadata(rec),
	}
	a := customer.Address{
		Line1: cols.get(rec, "address_line_1"), Line2: cols.get(rec, "address_line_2"),
		PostalCode: cols.get(rec, "address_postal_code"), City: cols.get(rec, "address_city"),
		State: cols.get(rec, "address_state"), Country: cols.get(rec, "address_country"),
	}
	if a != (customer.Address{}) {
		in.Address = &a
	}
	return in
}

// UpdateCustomersInBulk upserts customers by source id, each with the
// fields of its item, with a CUSTOMERS.BULK_UPDATE action (POST
// /v1/customers/bulk/async). Each item is applied on its own; those that
// fail are listed in the result's errors.
func (s *Service) UpdateCustomersInBulk(ctx context.Context, projectID string, items []customer.Params) (*async.Ref, error) {
	in, err := keyedItems(items, func(it customer.Params) *string { return it.SourceID })
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, in, CustomersBulkUpdate{Rows: in.Rows}, nil)
}

// UpdateCustomersMetadata sets the keys of in.Metadata on the customers
// with the source ids in.SourceIDs with a CUSTOMERS.METADATA_UPDATE action
// (POST /v1/customers/metadata/async); a source id that names no customer
// creates one with that metadata (the upsert of POST /v1/customers).
func (s *Service) UpdateCustomersMetadata(ctx context.Context, projectID string, in MetadataUpdate) (*async.Ref, error) {
	input, err := keysInput(in.SourceIDs, "source_ids")
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, input, CustomersMetadataUpdate{Rows: input.Rows, Metadata: in.Metadata}, nil)
}

func (s *Service) registerCustomers(reg *async.Registry) {
	register(s, reg, kind[CustomersCSV, []string]{
		outside: eachRow(func(ctx context.Context, job *async.Job[CustomersCSV], rec []string) error {
			_, err := s.svc.Customers.Upsert(ctx, job.Action().ProjectID, customerOf(newColumns(job.Args.Header, customerColumns, nil), rec))
			return err
		}),
		key: func(a CustomersCSV, rec []string) string {
			return deref(newColumns(a.Header, customerColumns, nil).get(rec, "source_id"))
		},
		row:    csvRow,
		result: func(_ CustomersCSV, st state) any { return importResult(st, "customer", withRow|withSourceID) },
	})
	register(s, reg, kind[CustomersBulkUpdate, json.RawMessage]{
		outside: eachRow(func(ctx context.Context, job *async.Job[CustomersBulkUpdate], raw json.RawMessage) error {
			var in customer.Params
			if err := decodeItem(raw, &in); err != nil {
				return err
			}
			in.ID = nil
			_, err := s.svc.Customers.Upsert(ctx, job.Action().ProjectID, in)
			return err
		}),
		key:    func(_ CustomersBulkUpdate, raw json.RawMessage) string { return rawKey(raw, "source_id") },
		row:    itemRow,
		result: func(_ CustomersBulkUpdate, st state) any { return bulkResult(st, false) },
	})
	register(s, reg, kind[CustomersMetadataUpdate, string]{
		outside: eachRow(func(ctx context.Context, job *async.Job[CustomersMetadataUpdate], src string) error {
			projectID := job.Action().ProjectID
			meta := job.Args.Metadata
			c, err := s.svc.Customers.Get(ctx, projectID, src)
			switch {
			case err == nil:
				meta = merged(c.Metadata, meta)
			case !errors.Is(err, promotype.ErrNotFound):
				return err
			}
			_, err = s.svc.Customers.Upsert(ctx, projectID, customer.Params{SourceID: &src, Metadata: meta})
			return err
		}),
		key:    func(_ CustomersMetadataUpdate, src string) string { return src },
		row:    itemRow,
		result: func(_ CustomersMetadataUpdate, st state) any { return bulkResult(st, false) },
	})
}
