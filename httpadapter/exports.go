package httpadapter

import (
	"log/slog"
	"net/http"
	"strings"

	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/promotype"
)

// exportRoutes are the exports endpoints (scope exports). GET
// /v1/exports/{exportId} with a token parameter is the download of the
// file (the hosted result.url): the token is its only credential, so it
// takes no API key (scheme appKeyOrToken).
func (s *server) exportRoutes() []route {
	exports := s.engine.Exports()
	return []route{
		{http.MethodPost, "/v1/exports", appKey, withBody(func(c *call, in export.CreateParams) (*export.Export, error) {
			return exports.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/exports", appKey, s.hostedList("exports", withoutBody(func(c *call) (*promotype.List[*export.Export], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			l, err := exports.List(c.ctx(), c.projectID, p)
			if err != nil {
				return nil, err
			}
			for _, e := range l.Data {
				s.absoluteResult(c, e)
			}
			return l, nil
		}))},
		{http.MethodGet, "/v1/exports/{exportId}", appKeyOrToken, func(c *call) (int, any, error) {
			if c.projectID == "" { // the download: a token and no key (authenticate)
				return s.downloadExport(c)
			}
			out, err := exports.Get(c.ctx(), c.projectID, c.path("exportId"))
			if err != nil {
				return 0, nil, err
			}
			s.absoluteResult(c, out)
			return http.StatusOK, out, nil
		}},
		{http.MethodDelete, "/v1/exports/{exportId}", appKey, noContent(func(c *call) error {
			return exports.Delete(c.ctx(), c.projectID, c.path("exportId"))
		})},
		{http.MethodPost, "/v1/vouchers/{code}/transactions/export", appKey, withBody(func(c *call, in export.TransactionsParams) (*export.Export, error) {
			return exports.ExportVoucherTransactions(c.ctx(), c.projectID, c.path("code"), in)
		})},
		{http.MethodPost, "/v1/campaigns/{campaignId}/transactions/export", appKey, withBody(func(c *call, in export.TransactionsParams) (*export.Export, error) {
			return exports.ExportCampaignTransactions(c.ctx(), c.projectID, c.path("campaignId"), in)
		})},
	}
}

// absoluteResult makes a DONE export's result.url absolute, as the hosted
// service answers it: on the public base URL (WithPublicBaseURL), else on
// the request's own scheme and host.
func (s *server) absoluteResult(c *call, e *export.Export) {
	if e == nil || e.Result == nil || !strings.HasPrefix(e.Result.URL, "/") {
		return
	}
	e.Result.URL = s.baseURL(c.r) + e.Result.URL
}

// baseURL is the public base URL of the API: WithPublicBaseURL's, else the
// request's scheme (https when it came over TLS) and Host.
func (s *server) baseURL(r *http.Request) string {
	if s.publicBaseURL != "" {
		return s.publicBaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// downloadExport streams the CSV file of the export whose token the query
// gives, chunk by chunk; a wrong token is answered as a missing export
// (404). It answers by itself (status 0 to the endpoint). A failure once
// the body started cuts the connection, so that a partial file is never
// taken for a whole one.
func (s *server) downloadExport(c *call) (int, any, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return 0, nil, err
	}
	exports := s.engine.Exports()
	e, err := exports.Open(c.ctx(), c.path("exportId"), q.Get("token"))
	if err != nil {
		return 0, nil, err
	}
	sw := &fileWriter{w: c.w, name: e.ID + ".csv"}
	if err := exports.WriteFile(c.ctx(), e, sw); err != nil {
		if !sw.started {
			return 0, nil, err
		}
		if c.ctx().Err() == nil {
			s.logger.LogAttrs(c.ctx(), slog.LevelError, "httpadapter: streaming an export file",
				slog.String("request_id", requestIDOf(c.w)), slog.String("export_id", e.ID), slog.Any("error", err))
		}
		panic(http.ErrAbortHandler)
	}
	if !sw.started { // an empty file (never: it has its header)
		sw.start()
	}
	return 0, nil, nil
}

// fileWriter writes the headers of a CSV file before its first chunk.
type fileWriter struct {
	w       http.ResponseWriter
	name    string
	started bool
}

func (fw *fileWriter) start() {
	fw.started = true
	h := fw.w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+fw.name+`"`)
	h.Set("Cache-Control", "no-store")
	fw.w.WriteHeader(http.StatusOK)
}

func (fw *fileWriter) Write(p []byte) (int, error) {
	if !fw.started {
		fw.start()
	}
	return fw.w.Write(p)
}
