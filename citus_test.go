package promo_test

import "github.com/promoengine/promo/storage/bunstore/bunstoretest"

// Every Go API test also runs on a Citus cluster when PROMO_TEST_CITUS_DSN
// is set (bunstore's tables distributed by project_id).
func init() {
	if bunstoretest.CitusDSN() != "" {
		storeFactories["citus"] = bunstoretest.NewCitus
	}
}
