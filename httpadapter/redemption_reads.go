package httpadapter

import (
	"net/url"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// voucherRedemptions answers GET /v1/vouchers/{code}/redemption: the page
// that limit and page name, or, with neither, every entry streamed.
func voucherRedemptions(red *redemption.RedemptionService) func(c *call) (any, error) {
	return func(c *call) (any, error) {
		q, err := parseQuery(c.r.URL.RawQuery)
		if err != nil {
			return nil, err
		}
		if !q.Has("limit") && !q.Has("page") {
			return red.StreamForVoucher(c.ctx(), c.projectID, c.path("code"))
		}
		p, err := listParams(q)
		if err != nil {
			return nil, err
		}
		return red.ForVoucherPage(c.ctx(), c.projectID, c.path("code"), redemption.VoucherRedemptionsParams{Limit: p.Limit, Page: p.Page})
	}
}

// createdRange reads created_at[before] and created_at[after] (ISO 8601).
func createdRange(q url.Values, before, after **promotype.Time) error {
	for _, t := range []struct {
		name string
		dst  **promotype.Time
	}{{"created_at[before]", before}, {"created_at[after]", after}} {
		if !q.Has(t.name) {
			continue
		}
		at, err := promotype.ParseTime(q.Get(t.name))
		if err != nil {
			return promotype.InvalidQueryParams("Property .%s cannot be recognized as a ISO-8601 compliant date", t.name)
		}
		*t.dst = &at
	}
	return nil
}
