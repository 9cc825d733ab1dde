// Package storage defines [Store]: every domain port plus transactions. The
// implementations live below it (memory, bunstore) and all of them must pass
// the conformance suite in storage/storagetest.
//
// Contract shared by every store:
//   - Every read and write is scoped by project; a row of another project is
//     exactly as invisible as a missing one (promotype.NotFound).
//   - Get and Find return promotype.NotFound for missing rows and for rows in
//     the bin; Insert and Update return promotype duplicate_found errors
//     (HTTP 409) for a second live row with a unique key (source id).
//   - Values passed in and returned are the caller's own: mutating them never
//     changes the store.
//   - Lists filter with promotype.Query.Match semantics and order by
//     Query.OrderBy, then id, both in the Query.Desc direction; null values
//     sort first ascending and last descending; strings compare bytewise.
//   - RunInTx commits when fn returns nil and rolls back when it returns an
//     error or panics (the panic goes on after the rollback).
package storage
