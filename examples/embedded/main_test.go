package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestRun runs the example and checks that every step printed its result.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{
		"== project", `"object": "project"`,
		"== product", `"object": "product"`,
		"== sku", `"sku": "T-shirt red M"`,
		"== material reward", `"type": "MATERIAL"`,
		"== coin reward", `"type": "COIN"`,
		"== location", `"object": "location"`,
		"== products", `"total": 2`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
