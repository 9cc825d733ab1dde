package export

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"io"
	"slices"
	"strings"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

// Limits of a request.
const (
	maxFields     = 100
	maxFieldBytes = 200
)

// CreateParams is the body of POST /v1/exports.
type CreateParams struct {
	ExportedObject *string            `json:"exported_object"`
	Parameters     *RequestParameters `json:"parameters"`
}

// RequestParameters are the parameters of an export request: the order,
// the columns (fields) and the filters of the file; campaign_id limits a
// voucher export to one campaign.
type RequestParameters struct {
	Order      *string        `json:"order"`
	Fields     []string       `json:"fields"`
	Filters    map[string]any `json:"filters"`
	CampaignID *string        `json:"campaign_id"`
}

// Service is the exports API: create, read, list and delete exports, run
// their jobs and serve their files.
type Service struct {
	store   Store
	tx      promotype.TxFunc[JobStore]
	env     promotype.Env
	actions *async.Service
	// chunkBytes is about how many bytes one chunk of a file holds; pageSize
	// how many records one store read returns.
	chunkBytes, pageSize int
}

// Sizes of the job's reads and of the chunks of a file.
const (
	DefaultChunkBytes = 1 << 20
	DefaultPageSize   = 1000
)

// NewService returns the exports service; its jobs run on actions once
// EnableJobs registered them.
func NewService(store Store, tx promotype.TxFunc[JobStore], env promotype.Env, actions *async.Service) *Service {
	return &Service{store: store, tx: tx, env: env, actions: actions,
		chunkBytes: DefaultChunkBytes, pageSize: DefaultPageSize}
}

// SetSizes changes the chunk size (bytes) and the page size (records) of
// the jobs, for tests that want many chunks from few records; zero keeps
// a size.
func (s *Service) SetSizes(chunkBytes, pageSize int) {
	if chunkBytes > 0 {
		s.chunkBytes = chunkBytes
	}
	if pageSize > 0 {
		s.pageSize = pageSize
	}
}

// plan is an export's request checked: the object, its columns and the
// store query (without limit).
type plan struct {
	obj    *object
	fields []string
	q      promotype.Query
}

// prepare checks what e asks for (Create) or asked for (the job), with now
// resolving relative dates.
func prepare(e *Export, now promotype.Time) (*plan, error) {
	obj, ok := objects[e.ExportedObject]
	if !ok {
		return nil, invalid("Property .exported_object must be one of voucher, redemption, customer, publication, order, points_expiration, voucher_transactions")
	}
	p := &plan{obj: obj, fields: e.Parameters.Fields}
	if len(p.fields) > maxFields {
		return nil, invalid("Property .parameters.fields may hold at most %d fields", maxFields)
	}
	for i, f := range p.fields {
		if len(f) > maxFieldBytes || !obj.allowed(f) {
			return nil, invalid("Property .parameters.fields.%d: %s cannot be exported with %s", i, clip(f), e.ExportedObject)
		}
		if slices.Contains(p.fields[:i], f) {
			return nil, invalid("Property .parameters.fields.%d: %s is given twice", i, clip(f))
		}
	}
	filter, err := parseFilters(e.Parameters.Filters)
	if err != nil {
		return nil, err
	}
	lp := promotype.ListParams{Limit: 1, Order: e.Parameters.Order, Filter: filter}
	if p.q, err = lp.Query(obj.spec, now); err != nil {
		return nil, asExportError(err)
	}
	if id := e.Parameters.CampaignID; id != nil {
		if e.ExportedObject != ObjectVoucher {
			return nil, invalid("Property .parameters.campaign_id is accepted only with voucher")
		}
		p.q.Must = append(p.q.Must, promotype.Condition{Field: "campaign_id", Op: promotype.OpIs, Values: []string{*id}})
	}
	p.q.Offset = 0
	return p, nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// asExportError gives a query error of the filters or order the key of
// export requests.
func asExportError(err error) error {
	e := promotype.AsError(err)
	if e.Code != 400 {
		return err
	}
	msg := strings.Replace(e.Details, "Property .filters", "Property .parameters.filters", 1)
	msg = strings.Replace(msg, "Property .order", "Property .parameters.order", 1)
	return invalid("%s", msg)
}

// Create records a new export (SCHEDULED) and enqueues its job; the
// answer has no result until the job is DONE.
func (s *Service) Create(ctx context.Context, projectID string, in CreateParams) (*Export, error) {
	if in.ExportedObject == nil {
		return nil, invalid("Property .exported_object is required")
	}
	e := &Export{
		ID:             s.env.IDs.NewID(Prefix),
		Object:         "export",
		CreatedAt:      s.env.Clock.Now(),
		Status:         StatusScheduled,
		Channel:        "API",
		ExportedObject: *in.ExportedObject,
		ProjectID:      projectID,
		Token:          newToken(),
	}
	if in.Parameters != nil {
		e.Parameters = Parameters{Fields: in.Parameters.Fields, Filters: in.Parameters.Filters, CampaignID: in.Parameters.CampaignID}
		if in.Parameters.Order != nil {
			e.Parameters.Order = *in.Parameters.Order
		}
	}
	p, err := prepare(e, e.CreatedAt)
	if err != nil {
		return nil, err
	}
	// The answer echoes what the file will hold: the columns, the order
	// and the junction, defaults filled in.
	if len(e.Parameters.Fields) == 0 {
		e.Parameters.Fields = slices.Clone(p.obj.defaults)
	}
	if e.Parameters.Order == "" {
		e.Parameters.Order = p.obj.spec.DefaultOrder
	}
	if e.Parameters.Filters == nil {
		e.Parameters.Filters = map[string]any{}
	}
	if _, ok := e.Parameters.Filters["junction"]; !ok {
		e.Parameters.Filters["junction"] = string(promotype.JunctionAnd)
	}
	err = s.tx(ctx, func(ctx context.Context, tx JobStore) error {
		if err := tx.InsertExport(ctx, e); err != nil {
			return err
		}
		_, err := s.actions.Enqueue(ctx, tx, projectID, Job{ExportID: e.ID})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.actions.Wake()
	return present(e), nil
}

// newToken returns a new download token: 32 random bytes, base64url.
func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// present is e as the API answers it: the result (the download path with
// the token) only once DONE.
func present(e *Export) *Export {
	e.Object = "export"
	e.Result = nil
	if e.Status == StatusDone {
		e.Result = &Result{URL: DownloadPath(e.ID, e.Token)}
	}
	return e
}

// DownloadPath is the path that downloads an export's file with its token.
func DownloadPath(id, token string) string {
	return "/v1/exports/" + id + "?token=" + token
}

// Get returns an export.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Export, error) {
	e, err := s.store.GetExport(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return present(e), nil
}

// List lists a project's exports, newest first by default.
func (s *Service) List(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*Export], error) {
	return promotype.ListWith(ctx, s.store.ListExports, projectID, p, ListSpec, s.env.Clock.Now(), present)
}

// Delete deletes an export and its file. A job still writing it fails.
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	return s.tx(ctx, func(ctx context.Context, tx JobStore) error {
		return tx.DeleteExport(ctx, projectID, id)
	})
}

// Open returns the DONE export id whose token is token, of any project;
// a wrong token, a missing export and one not DONE yet are alike not found.
// Tokens are compared in constant time.
func (s *Service) Open(ctx context.Context, id, token string) (*Export, error) {
	if token == "" {
		return nil, promotype.NotFound("export", id)
	}
	found, err := s.store.FindExports(ctx, id)
	if err != nil {
		return nil, err
	}
	var match *Export
	for _, e := range found {
		if subtle.ConstantTimeCompare([]byte(e.Token), []byte(token)) == 1 {
			match = e
		}
	}
	if match == nil || match.Status != StatusDone {
		return nil, promotype.NotFound("export", id)
	}
	return match, nil
}

// WriteFile writes the file of an export that Open returned to w, one
// chunk at a time (one chunk is held in memory at once).
func (s *Service) WriteFile(ctx context.Context, e *Export, w io.Writer) error {
	for seq := range e.Chunks {
		data, err := s.store.ExportChunk(ctx, e.ProjectID, e.ID, seq)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	return nil
}
