// Package export holds exports (object "export", ids exp_): CSV files of a
// project's vouchers, redemptions, customers, orders, publications or
// points expirations, produced by an async job that reads the store in
// keyset pages and stores the file in chunks (Store.AppendExportChunk), so
// that any replica over the same store serves the download, streamed chunk
// by chunk, to whoever holds the export's token.
//
// The [Service] (Engine.Exports()) has Create (which starts the job and
// returns the export, SCHEDULED until the job ends), Get, List, Delete,
// and Open / WriteFile for the download.
package export
