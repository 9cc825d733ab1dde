package promotype

// CursorList is a page of a list paged by the id of its last row
// (starting_after_id): has_more and more_starting_after, the id to start
// the next page after (left out on the last page, as the hosted service
// answers and its OpenAPI declares it: a string, not nullable), in place
// of a total. A
// customer's activity log and a card's transactions answer it.
type CursorList[T any] struct {
	Object            string  `json:"object"`
	DataRef           string  `json:"data_ref"`
	Data              []T     `json:"data"`
	HasMore           bool    `json:"has_more"`
	MoreStartingAfter *string `json:"more_starting_after,omitempty"`
}

// NewCursorList is the page of limit rows of items, which a store read
// with one row more than limit: that row, when there, tells that the list
// goes on after the page's last row (whose id is id of it).
func NewCursorList[T any](items []T, limit int, id func(T) string) *CursorList[T] {
	if items == nil {
		items = []T{}
	}
	out := &CursorList[T]{Object: "list", DataRef: "data", Data: items}
	if len(items) > limit {
		out.Data, out.HasMore = items[:limit], true
		last := id(items[limit-1])
		out.MoreStartingAfter = &last
	}
	return out
}

// IDPage reads the limit (0: 10; else 1 to 100) and order ("" or "id":
// ascending, "-id": descending) of a list paged by id, refusing others
// with 400 invalid_query_params.
func IDPage(limit int, order string) (int, bool, error) {
	switch {
	case limit == 0:
		limit = 10
	case limit < 1 || limit > 100:
		return 0, false, InvalidQueryParams("Query parameter limit must be between 1 and 100")
	}
	switch order {
	case "", "id":
		return limit, false, nil
	case "-id":
		return limit, true, nil
	}
	return 0, false, InvalidQueryParams("Query parameter order must be one of id, -id")
}
