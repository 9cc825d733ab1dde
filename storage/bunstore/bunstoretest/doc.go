// Package bunstoretest gives tests of any package a fresh, migrated
// PostgreSQL store:
//
//	func TestSomething(t *testing.T) {
//		store := bunstoretest.New(t) // skips unless PROMO_TEST_POSTGRES_DSN is set
//		...
//	}
//
// Each call creates its own schema (promo_t_<random hex>) in the database
// PROMO_TEST_POSTGRES_DSN names, so tests run in parallel without seeing
// each other, and drops it when the test ends. When the variable is set but
// the database cannot be reached, the test fails: it never skips silently.
package bunstoretest
