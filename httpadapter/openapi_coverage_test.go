package httpadapter_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo/httpadapter"
)

// TestOpenAPICoverage counts the official OpenAPI's operations the adapter
// serves (testdata/openapi/operations.txt, written by TestOpenAPICut).
// Every operation not served is listed in notServed with its reason; an
// operation listed there that a route serves fails the test, so the list
// shrinks as routes land.
func TestOpenAPICoverage(t *testing.T) {
	raw, err := os.ReadFile(operationsPath)
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{} // "METHOD normalized path"
	for _, r := range httpadapter.Routes(newHarness(t).handler) {
		method, path, _ := strings.Cut(r, " ")
		served[method+" "+normalizePath(path)] = true
	}
	ops := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var missing []string
	n := 0
	for _, op := range ops {
		method, path, _ := strings.Cut(op, " ")
		switch {
		case served[method+" "+normalizePath(path)] || op == "GET "+downloadExportPath:
			n++
			if why, ok := notServed[op]; ok {
				t.Errorf("%s is served: take it off notServed (%s)", op, why)
			}
		case notServed[op] == "":
			missing = append(missing, op)
		}
	}
	for op := range notServed {
		if !slices.Contains(ops, op) {
			t.Errorf("notServed lists %s, which the OpenAPI does not have", op)
		}
	}
	for _, op := range missing {
		t.Errorf("%s: not served and not listed in notServed", op)
	}
	t.Logf("%d of %d OpenAPI operations served; %d listed as not served yet", n, len(ops), len(notServed))
}

// notServed are the OpenAPI operations no route serves yet, with the
// reason.
var notServed = map[string]string{}
