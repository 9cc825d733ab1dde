package export

import (
	"context"
	"slices"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// Prefix is the prefix of export ids.
const Prefix = "exp_"

// Status is the status of an export.
type Status string

// Export statuses: SCHEDULED until the job starts, IN_PROGRESS while it
// writes the file, then DONE (the file can be downloaded) or ERROR.
const (
	StatusScheduled  Status = "SCHEDULED"
	StatusInProgress Status = "IN_PROGRESS"
	StatusDone       Status = "DONE"
	StatusError      Status = "ERROR"
)

// Export is an export (object "export"): what was asked for and, once
// DONE, where its CSV file is (Result.URL, which carries the token).
type Export struct {
	ID             string         `json:"id"`
	Object         string         `json:"object"`
	CreatedAt      promotype.Time `json:"created_at"`
	Status         Status         `json:"status"`
	Channel        string         `json:"channel"`
	ExportedObject string         `json:"exported_object"`
	Parameters     Parameters     `json:"parameters"`
	// Result is null until the export is DONE. Its URL is the download
	// path (/v1/exports/{id}?token=...); the HTTP adapter makes it absolute.
	Result *Result `json:"result"`
	UserID *string `json:"user_id"`

	ProjectID string `json:"-"`
	// Token is the secret a download must present (Result.URL carries it).
	Token string `json:"-"`
	// Chunks is how many chunks the file has (set when DONE).
	Chunks int `json:"-"`
	// Rows is how many records the file holds (set when DONE).
	Rows int64 `json:"-"`
	// Error is why the export ended ERROR.
	Error string `json:"-"`
}

// Parameters are the export's parameters as requested: order, fields (the
// columns of the file, in order) and filters (the request's object, echoed).
type Parameters struct {
	Order      string         `json:"order,omitempty"`
	Fields     []string       `json:"fields"`
	Filters    map[string]any `json:"filters"`
	CampaignID *string        `json:"campaign_id,omitempty"`
}

// Result is where a DONE export's file is.
type Result struct {
	URL string `json:"url"`
}

// Clone returns a deep copy.
func (e *Export) Clone() *Export {
	c := *e
	c.Parameters.Fields = slices.Clone(e.Parameters.Fields)
	c.Parameters.Filters = cloneMap(e.Parameters.Filters)
	c.Parameters.CampaignID = promotype.ClonePtr(e.Parameters.CampaignID)
	if e.Result != nil {
		r := *e.Result
		c.Result = &r
	}
	c.UserID = promotype.ClonePtr(e.UserID)
	return &c
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = cloneMap(sub)
		} else if arr, ok := v.([]any); ok {
			v = slices.Clone(arr)
		}
		out[k] = v
	}
	return out
}

// ListSpec is what GET /v1/exports accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "status"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"status":          promotype.FieldString,
		"exported_object": promotype.FieldString,
		"created_at":      promotype.FieldTime,
	},
}

// Field returns the value of a ListSpec field of e.
func (e *Export) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: e.ID}
	case "status":
		return promotype.Value{Str: string(e.Status)}
	case "exported_object":
		return promotype.Value{Str: e.ExportedObject}
	case "created_at":
		return promotype.Value{Time: e.CreatedAt}
	}
	return promotype.Value{Null: true}
}

// Cursor is where a keyset page starts: after the record whose order key
// is Key and id is ID (in the query's order). A nil cursor starts at the
// beginning.
type Cursor struct {
	Key promotype.Value `json:"key"`
	ID  string          `json:"id"`
}

// Page is one keyset page of exported records: those matching Query's
// conditions (Filter and Must, with list semantics) ordered by
// Query.OrderBy then id in Query.Desc's direction (nulls first ascending,
// last descending), strictly after After (from the start when nil), at
// most Query.Limit of them; Query.Offset is ignored.
type Page struct {
	Query promotype.Query
	After *Cursor
	// Metadata false allows the store to leave the records' metadata
	// out (nil): the file shows none of it.
	Metadata bool
}

// Store is the storage port of exports: the export rows, their files in
// chunks, and the keyset pages (Page) of the records exported.
type Store interface {
	InsertExport(ctx context.Context, e *Export) error
	GetExport(ctx context.Context, projectID, id string) (*Export, error)
	// FindExports returns the exports with id, of every project (the
	// download knows no project).
	FindExports(ctx context.Context, id string) ([]*Export, error)
	ListExports(ctx context.Context, projectID string, q promotype.Query) ([]*Export, int, error)
	UpdateExport(ctx context.Context, e *Export) error
	// DeleteExport deletes the export and every chunk of its file.
	DeleteExport(ctx context.Context, projectID, id string) error
	// AppendExportChunk stores chunk seq (0, 1, ...) of the export's file;
	// an export that does not exist (deleted meanwhile) is not found.
	AppendExportChunk(ctx context.Context, projectID, id string, seq int, data []byte) error
	// ExportChunk returns chunk seq of the export's file (not found past
	// the last).
	ExportChunk(ctx context.Context, projectID, id string, seq int) ([]byte, error)

	VoucherPage(ctx context.Context, projectID string, p Page) ([]*voucher.Voucher, error)
	RedemptionPage(ctx context.Context, projectID string, p Page) ([]*redemption.Redemption, error)
	CustomerPage(ctx context.Context, projectID string, p Page) ([]*customer.Customer, error)
	OrderPage(ctx context.Context, projectID string, p Page) ([]*order.Order, error)
	PublicationPage(ctx context.Context, projectID string, p Page) ([]*publication.Publication, error)
	// TransactionPage pages the project's voucher transactions (order
	// created_at; filters created_at, voucher_id, campaign_id).
	TransactionPage(ctx context.Context, projectID string, p Page) ([]*redemption.Transaction, error)
	// BucketPage pages the project's loyalty points buckets, ACTIVE and
	// EXPIRED (order key expires_at: the bucket's due instant, null for a
	// never-expiring one).
	BucketPage(ctx context.Context, projectID string, p Page) ([]*voucher.PointsBucket, error)
}

// JobStore is what the export job's transactions need: the export port,
// the async action port (the job's checkpoint) and the campaigns (the
// names of the campaign columns); and what a transactions export of one
// card or campaign reads to find it.
type JobStore interface {
	Store
	async.Store
	campaign.CampaignStore
	VoucherReader
}
