package voucher

// Store is the storage port of vouchers, scoped by project.
type Store interface{}
