package httpadapter_test

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/promoengine/promo/httpadapter"
)

// TestOpenAPIErrorContract validates the body of every error golden exchange
// (4xx and 5xx) against the official OpenAPI's Error schema. The OpenAPI
// documents no error response on any operation (only 200, 202 and 204), so
// its one error schema, components.schemas.Error (the object it also nests in
// validation results), stands for every error the API answers, whatever the
// route, unknown paths included. The schema requires no member and makes
// every one nullable, so it checks types (code an integer, details a string,
// error an object); the test adds what its descriptions say: code is the
// response's HTTP status, and the body carries a key and a message. Bodies
// the hosted service answers empty (token revoke's 404) have nothing to
// validate. Known differences would be listed in tolerated, as for the 2xx
// contract; there are none.
func TestOpenAPIErrorContract(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(cutPath)
	if err != nil {
		t.Fatal(err)
	}
	ref := doc.Components.Schemas["Error"]
	if ref == nil || ref.Value == nil {
		t.Fatalf("%s has no components.schemas.Error", cutPath)
	}
	schema := ref.Value
	handler := newHarness(t).handler
	validated := 0
	err = filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") || strings.HasPrefix(path, filepath.Join("testdata", "openapi")) {
			return err
		}
		x, ok := readExchange(t, path)
		if !ok || x.Status < 400 || x.Body == nil {
			return nil
		}
		method, target, _ := strings.Cut(x.Request, " ")
		served := httpadapter.RouteOf(handler, httptest.NewRequest(method, "http://promo.test"+target, nil))
		var problems []string
		if err := schema.VisitJSON(x.Body, openapi3.MultiErrors()); err != nil {
			problems = untolerated(served, asResponseSchemaErrors(err))
		}
		body, isObject := x.Body.(map[string]any)
		switch {
		case !isObject:
			problems = append(problems, "the body is not an object")
		default:
			if code, _ := body["code"].(float64); int(code) != x.Status {
				problems = append(problems, fmt.Sprintf("/code: %v, want the status %d", body["code"], x.Status))
			}
			for _, member := range []string{"key", "message"} {
				if s, _ := body[member].(string); s == "" {
					problems = append(problems, fmt.Sprintf("/%s: missing or empty", member))
				}
			}
		}
		if len(problems) > 0 {
			t.Errorf("%s: %s (%s):\n\t%s", path, x.Request, served, strings.Join(problems, "\n\t"))
			return nil
		}
		validated++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if validated == 0 {
		t.Error("no error golden was validated against the OpenAPI's Error schema")
	}
	t.Logf("%d error golden bodies validated against the OpenAPI's Error schema", validated)
}

// asResponseSchemaErrors returns the schema errors of a VisitJSON
// multi-error as one MultiError, which untolerated flattens.
func asResponseSchemaErrors(err error) error {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		return me
	}
	return openapi3.MultiError{err}
}
