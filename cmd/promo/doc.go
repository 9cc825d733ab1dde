// Command promo serves promo's REST API (the Voucherify v2018-08-01
// interface) and manages its PostgreSQL schema:
//
//	promo serve              # the API; every setting a flag or a PROMO_* variable
//	promo migrate up         # apply the pending migrations
//	promo migrate status     # what is applied, pending, or newer than this build
//	promo version
//
// `promo serve -migrate=false` serves a schema migrated separately (by
// `promo migrate up` with a role that has DDL rights) and refuses one with
// pending migrations; every command refuses a database migrated by a newer
// promo. `promo serve -h` lists the settings. The Dockerfile at the
// repository's root builds this command into a static, non-root image.
package main
