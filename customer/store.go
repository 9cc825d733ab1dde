package customer

// Store is the storage port of customers, scoped by project.
type Store interface{}
