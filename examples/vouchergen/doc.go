// Command vouchergen measures voucher generation at scale: it creates a
// discount campaign of -n vouchers through the engine and runs its
// CAMPAIGN.VOUCHERS_GENERATE action to the end, then prints the time, the
// rate, and the heap the vouchers keep (memory store) or the count of
// distinct codes (PostgreSQL).
//
//	go run ./examples/vouchergen -store memory -n 1000000
//	PROMO_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test?sslmode=disable go run ./examples/vouchergen -store postgres -n 1000000
//
// On PostgreSQL it works in a schema of its own (promo_vouchergen_<hex>),
// dropped at the end unless -keep.
package main
