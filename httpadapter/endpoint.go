package httpadapter

import (
	"context"
	"net/http"

	"github.com/promoengine/promo/promotype"
)

// call is one authenticated request as an endpoint sees it.
type call struct {
	principal
	w       http.ResponseWriter
	r       *http.Request
	maxBody int64
}

// ctx is the request's context.
func (c *call) ctx() context.Context { return c.r.Context() }

// path returns the path segment the route pattern names {name}.
func (c *call) path(name string) string { return c.r.PathValue(name) }

// listParams parses the paging, order and filter parameters of a list.
func (c *call) listParams() (promotype.ListParams, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return promotype.ListParams{}, err
	}
	return listParams(q)
}

// force parses the `force` parameter of a delete (absent means false).
func (c *call) force() (bool, error) {
	q, err := parseQuery(c.r.URL.RawQuery)
	if err != nil {
		return false, err
	}
	return boolParam(q, "force")
}

// handler is an endpoint: it returns the status and the value to send
// (http.StatusNoContent sends no body), or an error.
type handler func(c *call) (status int, body any, err error)

// withBody is an endpoint that decodes the JSON body into In, calls fn and
// answers 200 with its result.
func withBody[In, Out any](fn func(c *call, in In) (Out, error)) handler {
	return func(c *call) (int, any, error) {
		var in In
		if err := decodeBody(c.w, c.r, c.maxBody, &in); err != nil {
			return 0, nil, err
		}
		out, err := fn(c, in)
		return http.StatusOK, out, err
	}
}

// withoutBody is an endpoint that takes no body and answers 200 with fn's
// result.
func withoutBody[Out any](fn func(c *call) (Out, error)) handler {
	return func(c *call) (int, any, error) {
		out, err := fn(c)
		return http.StatusOK, out, err
	}
}

// listOf is a list endpoint of the project: it parses the list parameters of
// the query and answers 200 with the page fn returns.
func listOf[T any](fn func(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[T], error)) handler {
	return withoutBody(func(c *call) (*promotype.List[T], error) {
		p, err := c.listParams()
		if err != nil {
			return nil, err
		}
		return fn(c.ctx(), c.projectID, p)
	})
}

// noContent is an endpoint that answers 204 when fn succeeds.
func noContent(fn func(c *call) error) handler {
	return func(c *call) (int, any, error) {
		if err := fn(c); err != nil {
			return 0, nil, err
		}
		return http.StatusNoContent, nil, nil
	}
}

// dataRefSetter is a list whose array key can be set.
type dataRefSetter interface{ SetDataRef(ref string) }

// hostedList names the key the hosted service answers a list endpoint's
// array under (its OpenAPI response schema's data_ref), unless the adapter
// answers lists in the hosted API's uniform shape.
func (s *server) hostedList(ref string, h handler) handler {
	if s.uniformLists {
		return h
	}
	return func(c *call) (int, any, error) {
		status, body, err := h(c)
		if l, ok := body.(dataRefSetter); ok && err == nil {
			l.SetDataRef(ref)
		}
		return status, body, err
	}
}
