package main

import (
	"testing"

	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// TestMain drops the Citus stores' pooled schemas when the tests end.
func TestMain(m *testing.M) { bunstoretest.Main(m) }
