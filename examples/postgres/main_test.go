package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// TestRunWithoutDSN checks the message given when PROMO_DATABASE_URL is unset.
func TestRunWithoutDSN(t *testing.T) {
	err := run(context.Background(), "", &bytes.Buffer{})
	if !errors.Is(err, errNoDSN) {
		t.Fatalf("run without a DSN = %v, want errNoDSN", err)
	}
	if !strings.Contains(err.Error(), "PROMO_DATABASE_URL is not set") {
		t.Errorf("message %q does not name PROMO_DATABASE_URL", err)
	}
}

// TestWalk runs the example against PostgreSQL (PROMO_TEST_POSTGRES_DSN) in a
// fresh schema, twice, to show that a second run over a migrated database
// works.
func TestWalk(t *testing.T) {
	db := bunstoretest.NewDB(t) // skips unless PROMO_TEST_POSTGRES_DSN is set
	for i := range 2 {
		var out bytes.Buffer
		if err := walk(context.Background(), db, &out); err != nil {
			t.Fatalf("run %d: %v\n%s", i+1, err, out.String())
		}
		for _, want := range []string{"== project", "== sku", "== material reward", "== location", `"total": 2`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("run %d: output lacks %q:\n%s", i+1, want, out.String())
			}
		}
	}
}
