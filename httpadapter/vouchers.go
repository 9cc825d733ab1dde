package httpadapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// voucherRoutes are the vouchers endpoints (scope vouchers). A voucher is
// addressed by code or id.
func (s *server) voucherRoutes() []route {
	vs := s.engine.Vouchers()
	return []route{
		{http.MethodPost, "/v1/vouchers", appKey, withBody(func(c *call, in voucher.Params) (*voucher.Voucher, error) {
			return vs.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/vouchers", appKey, s.hostedList("vouchers", withoutBody(func(c *call) (*promotype.List[*voucher.Voucher], error) {
			p, err := voucherListParams(c)
			if err != nil {
				return nil, err
			}
			return vs.List(c.ctx(), c.projectID, p)
		}))},
		{http.MethodPost, "/v1/vouchers/{code}", appKey, withBody(func(c *call, in voucher.Params) (*voucher.Voucher, error) {
			code := c.path("code")
			in.Code, in.CodeConfig = &code, nil
			return vs.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/vouchers/{code}", appKey, withoutBody(func(c *call) (*voucher.Voucher, error) {
			return vs.Get(c.ctx(), c.projectID, c.path("code"))
		})},
		{http.MethodPut, "/v1/vouchers/{code}", appKey, withBody(func(c *call, in voucher.UpdateParams) (*voucher.Voucher, error) {
			return vs.Update(c.ctx(), c.projectID, c.path("code"), in)
		})},
		{http.MethodDelete, "/v1/vouchers/{code}", appKey, noContent(func(c *call) error {
			force, err := c.force()
			if err != nil {
				return err
			}
			return vs.Delete(c.ctx(), c.projectID, c.path("code"), force)
		})},
		{http.MethodPost, "/v1/vouchers/{code}/enable", appKey, withBody(func(c *call, _ struct{}) (*voucher.Voucher, error) {
			return vs.SetActive(c.ctx(), c.projectID, c.path("code"), true)
		})},
		{http.MethodPost, "/v1/vouchers/{code}/disable", appKey, withBody(func(c *call, _ struct{}) (*voucher.Voucher, error) {
			return vs.SetActive(c.ctx(), c.projectID, c.path("code"), false)
		})},
	}
}

// voucherListParams reads the query of GET /v1/vouchers.
func voucherListParams(c *call) (voucher.ListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return voucher.ListParams{}, err
	}
	var p voucher.ListParams
	if p.ListParams, err = listParams(q); err != nil {
		return p, err
	}
	p.CampaignID, p.Campaign, p.Category, p.Customer, p.Code = stringParam(q, "campaign_id"), stringParam(q, "campaign"), stringParam(q, "category"), stringParam(q, "customer"), stringParam(q, "code")
	p.IDs = arrayParam(q, "ids")
	for _, t := range []struct {
		name string
		dst  **promotype.Time
	}{{"created_at[before]", &p.CreatedBefore}, {"created_at[after]", &p.CreatedAfter},
		{"updated_at[before]", &p.UpdatedBefore}, {"updated_at[after]", &p.UpdatedAfter}} {
		if !q.Has(t.name) {
			continue
		}
		at, err := promotype.ParseTime(q.Get(t.name))
		if err != nil {
			return p, promotype.InvalidQueryParams("Property .%s cannot be recognized as a ISO-8601 compliant date", t.name)
		}
		*t.dst = &at
	}
	return p, nil
}

// decodeArrayBody reads a JSON array body into v (a pointer to a slice),
// with the checks and wording of decodeBody: the body of an import.
func decodeArrayBody(c *call, v any) error {
	return withRawBody(c.w, c.r, c.maxBody, func(data []byte) error { return unmarshalArray(data, v) })
}

// unmarshalArray decodes data, which must be one JSON array, into v, and
// words the failures as unmarshalObject does.
func unmarshalArray(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		if err := json.Unmarshal(data, new(any)); err != nil && len(data) > 0 {
			if se, ok := errors.AsType[*json.SyntaxError](err); ok {
				return promotype.InvalidPayload("Invalid JSON: %s (at byte %d)", se.Error(), se.Offset)
			}
		}
		return promotype.InvalidPayload("Payload must be array")
	}
	err := json.Unmarshal(data, v)
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return promotype.InvalidPayload("Invalid JSON: %s (at byte %d)", se.Error(), se.Offset)
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return promotype.InvalidPayload("Property %s must be %s", pathAt(data, te), jsonKind(te.Type))
	}
	if pe, ok := errors.AsType[*promotype.Error](err); ok {
		return pe
	}
	if err != nil {
		return promotype.InvalidPayload("Invalid value: %v", err)
	}
	return nil
}
