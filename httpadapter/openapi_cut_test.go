package httpadapter_test

import (
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo/httpadapter"
)

// openapiSrc, when set, makes TestOpenAPICut rewrite the cut of the official
// OpenAPI that the contract test reads:
//
//	go test ./httpadapter -run TestOpenAPICut -openapi-src=/path/to/voucherify-openapi.json
var openapiSrc = flag.String("openapi-src", "", "the official Voucherify OpenAPI (js.json) to cut testdata/openapi/voucherify-cut.json from")

// cutPath is the committed cut: the operations the adapter serves, the
// components they reference (transitively), without examples.
const cutPath = "testdata/openapi/voucherify-cut.json"

// downloadExportPath is the export download of the hosted download host
// (text/plain, with a token): the adapter serves it on the route of GET
// /v1/exports/{exportId}, whose JSON operation the contract test must
// find, so the cut leaves it out.
const downloadExportPath = "/v1/exports/{export_Id}"

// operationsPath lists every operation of the official OpenAPI, served or
// not ("METHOD /path", sorted), for TestOpenAPICoverage.
const operationsPath = "testdata/openapi/operations.txt"

var paramRE = regexp.MustCompile(`\{[^}]*\}`)

// normalizePath replaces every path parameter by {} so that the adapter's
// pattern and the OpenAPI's path compare whatever the parameters are named.
func normalizePath(p string) string { return paramRE.ReplaceAllString(p, "{}") }

func TestOpenAPICut(t *testing.T) {
	if *openapiSrc == "" {
		t.Skip("set -openapi-src to rewrite " + cutPath)
	}
	raw, err := os.ReadFile(*openapiSrc)
	if err != nil {
		t.Fatal(err)
	}
	var src map[string]any
	if err := json.Unmarshal(raw, &src); err != nil {
		t.Fatal(err)
	}
	served := map[string][]string{} // normalized path → lower-case methods
	for _, r := range httpadapter.Routes(newHarness(t).handler) {
		method, path, _ := strings.Cut(r, " ")
		served[normalizePath(path)] = append(served[normalizePath(path)], strings.ToLower(method))
	}
	paths := map[string]any{}
	for p, item := range src["paths"].(map[string]any) {
		if p == downloadExportPath {
			continue
		}
		methods, ok := served[normalizePath(p)]
		if !ok {
			continue
		}
		kept := map[string]any{}
		for k, v := range item.(map[string]any) {
			if k == "parameters" || slices.Contains(methods, k) {
				kept[k] = v
			}
		}
		paths[p] = stripExamples(kept)
	}
	comps := src["components"].(map[string]any)
	out := map[string]any{}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
				if len(parts) == 2 {
					kind, name := parts[0], parts[1]
					if out[kind] == nil {
						out[kind] = map[string]any{}
					}
					if _, done := out[kind].(map[string]any)[name]; !done {
						c := stripExamples(comps[kind].(map[string]any)[name])
						out[kind].(map[string]any)[name] = c
						visit(c)
					}
				}
			}
			for _, x := range v {
				visit(x)
			}
		case []any:
			for _, x := range v {
				visit(x)
			}
		}
	}
	visit(paths)
	out["securitySchemes"] = comps["securitySchemes"]
	cut := map[string]any{"openapi": src["openapi"], "info": src["info"], "servers": src["servers"], "paths": paths, "components": out}
	b, err := json.MarshalIndent(cut, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cutPath, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for p, item := range src["paths"].(map[string]any) {
		for m := range item.(map[string]any) {
			if slices.Contains([]string{"get", "post", "put", "patch", "delete"}, m) {
				ops = append(ops, strings.ToUpper(m)+" "+p)
			}
		}
	}
	slices.Sort(ops)
	if err := os.WriteFile(operationsPath, []byte(strings.Join(ops, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// stripExamples drops the examples (not needed to validate, and most of the
// source's size).
func stripExamples(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k == "examples" || k == "example" {
				continue
			}
			out[k] = stripExamples(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = stripExamples(x)
		}
		return out
	}
	return v
}
