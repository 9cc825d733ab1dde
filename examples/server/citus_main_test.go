package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// TestMain drops the Citus stores' pooled schemas when the tests end.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := bunstoretest.DropCitusPool(); err != nil {
		fmt.Fprintln(os.Stderr, "bunstoretest: drop the Citus pool:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}
