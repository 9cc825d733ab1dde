package promo_test

import "github.com/promoengine/promo/storage/bunstore/bunstoretest"

// Every Go API test also runs on Postgres when PROMO_TEST_POSTGRES_DSN is set.
func init() {
	if bunstoretest.DSN() != "" {
		storeFactories["postgres"] = bunstoretest.New
	}
}
