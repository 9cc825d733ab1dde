package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

func TestRunMemory(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "memory", "", 5000, 1000, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "campaign:    DONE, 5000 vouchers") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestRunPostgres(t *testing.T) {
	dsn := os.Getenv("PROMO_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("PROMO_TEST_POSTGRES_DSN is not set")
	}
	var out bytes.Buffer
	if err := run(context.Background(), &out, "postgres", dsn, 5000, 1000, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "rows:        5000 vouchers, 5000 distinct codes, 0 duplicates") {
		t.Errorf("output:\n%s", out.String())
	}
}
