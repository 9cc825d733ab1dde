// Package bunstore is the PostgreSQL storage.Store, built on Bun
// (github.com/uptrace/bun with pgdialect) over the pgx database/sql driver.
//
// Typical use:
//
//	db, err := bunstore.Open(dsn)
//	if err != nil { ... }
//	if err := bunstore.Migrate(ctx, db); err != nil { ... }
//	engine, err := promo.New(bunstore.New(db))
//
// Every table is prefixed promo_ and keyed by (project_id, id), so the schema
// can live beside a host application's own tables; applied migrations are
// recorded in promo_schema_migrations. Rows are mapped to the domain types by
// hand (the domain types carry no Bun tags) and every value handed back is
// freshly decoded, so callers never share memory with the store.
//
// The store holds no business rules: it persists and queries with the
// semantics package storage documents, and passes the conformance suite in
// storage/storagetest. Writes that may clash with a unique key use
// INSERT ... ON CONFLICT DO NOTHING or a guarded UPDATE rather than letting
// PostgreSQL raise, and text PostgreSQL cannot hold (NUL, invalid UTF-8) is
// refused before it is sent, so a duplicate_found, not_found or
// invalid_payload answer leaves the surrounding transaction usable: as with
// the memory store, a caller inside RunInTx may handle the error and carry
// on. (Only a genuine race, another transaction committing the same source
// id at the same moment, surfaces as PostgreSQL's unique violation, which is
// still reported as duplicate_found.)
package bunstore
