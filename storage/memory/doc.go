// Package memory is the in-memory storage.Store: the embedded default and the
// store of unit tests. Reads take a shared lock; writes and transactions take
// the exclusive lock and keep an undo log, so a failed or panicking
// transaction leaves no trace. Values are copied in and out.
package memory
