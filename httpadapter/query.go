package httpadapter

import (
	"cmp"
	"errors"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// parseQuery parses a raw query string; a malformed one (a bad %-escape, a
// semicolon) is a 400 rather than silently dropped parameters.
func parseQuery(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, promotype.InvalidQueryParams("The query string cannot be parsed: %v", err)
	}
	return q, nil
}

// listParams reads limit, page, order, end_date and the filters of a list
// query. The ranges of limit and page and the order field are checked by the
// engine, except an explicit 0, which promotype.ListParams cannot tell from
// an absent value: it is rejected here, never taken as the default.
func listParams(q url.Values) (promotype.ListParams, error) {
	var p promotype.ListParams
	var err error
	if p.Limit, err = intParam(q, "limit"); err != nil {
		return p, err
	}
	if q.Has("limit") && p.Limit == 0 {
		return p, promotype.InvalidQueryParams("Property .limit must be between 1 and %d", promotype.MaxLimit)
	}
	if p.Page, err = intParam(q, "page"); err != nil {
		return p, err
	}
	if q.Has("page") && p.Page == 0 {
		return p, promotype.InvalidQueryParams("Property .page must be greater than or equal to 1")
	}
	p.Order = q.Get("order")
	if v := q.Get("end_date"); q.Has("end_date") {
		t, err := promotype.ParseTime(v)
		if err != nil {
			return p, promotype.InvalidQueryParams("Property .end_date cannot be recognized as a ISO-8601 compliant date")
		}
		p.EndDate = &t
	}
	if p.Filter, err = parseFilters(q); err != nil {
		return p, err
	}
	return p, nil
}

// intParam reads an integer parameter (0 when absent). A value beyond the
// int range is kept as the largest (or smallest) int, so the engine's range
// check names it.
func intParam(q url.Values, name string) (int, error) {
	if !q.Has(name) {
		return 0, nil
	}
	n, err := strconv.Atoi(q.Get(name))
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, promotype.InvalidQueryParams("Property .%s must be integer", name)
	}
	return n, nil
}

// stringParam reads an optional parameter: nil when absent, else its first
// value (empty when sent empty).
func stringParam(q url.Values, name string) *string {
	if !q.Has(name) {
		return nil
	}
	v := q.Get(name)
	return &v
}

// boolParam reads a boolean parameter: true or 1, false or 0 (as the SDKs
// send them), or absent (false).
func boolParam(q url.Values, name string) (bool, error) {
	if !q.Has(name) {
		return false, nil
	}
	switch q.Get(name) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, promotype.InvalidQueryParams("Property .%s must be boolean", name)
}

// arrayParam reads an array parameter in every form the SDKs send: repeated
// (name=a&name=b, the Python SDK), with empty brackets (name[]=a) and
// indexed (name[0]=a&name[1]=b, the JS SDK's qs). Indexed values come in
// index order, after the other forms; an index that is not a number of at
// most three digits is ignored, as unknown parameters are.
func arrayParam(q url.Values, name string) []string {
	out := append(slices.Clone(q[name]), q[name+"[]"]...)
	type indexed struct {
		i      int
		values []string
	}
	var byIndex []indexed
	for key, values := range q {
		rest, ok := strings.CutPrefix(key, name+"[")
		if !ok {
			continue
		}
		digits, ok := strings.CutSuffix(rest, "]")
		if !ok {
			continue
		}
		if i, ok := filterIndex(digits); ok {
			byIndex = append(byIndex, indexed{i, values})
		}
	}
	slices.SortFunc(byIndex, func(a, b indexed) int { return cmp.Compare(a.i, b.i) })
	for _, x := range byIndex {
		out = append(out, x.values...)
	}
	return out
}

// timeParams reads each date-time parameter present of dsts (name → where
// it goes); absent ones leave theirs nil. A bad value is a 400 naming the
// first such parameter in name order.
func timeParams(q url.Values, dsts map[string]**promotype.Time) error {
	for _, name := range slices.Sorted(maps.Keys(dsts)) {
		if !q.Has(name) {
			continue
		}
		at, err := promotype.ParseTime(q.Get(name))
		if err != nil {
			return promotype.InvalidQueryParams("Property .%s cannot be recognized as a ISO-8601 compliant date", name)
		}
		*dsts[name] = &at
	}
	return nil
}

// idPageQuery reads limit, order and starting_after_id of a list paged by
// id; a limit sent as 0 comes back as -1, for the range check to refuse.
func idPageQuery(c *call) (limit int, order, after string, err error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return 0, "", "", err
	}
	if limit, err = intParam(q, "limit"); err != nil {
		return 0, "", "", err
	}
	if q.Has("limit") && limit == 0 {
		limit = -1
	}
	return limit, q.Get("order"), q.Get("starting_after_id"), nil
}
