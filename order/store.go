package order

// Store is the storage port of orders, scoped by project.
type Store interface{}
