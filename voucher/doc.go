// Package voucher holds vouchers (codes) of campaigns or standing alone,
// code generation from a campaign's code_config, and enable / disable.
package voucher
