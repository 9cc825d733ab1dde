package imports

import "fmt"

// Failed is a row an import could not apply, as its result lists it: the
// fields of the action type's documented shape (code, source id, row) and
// the reason.
type Failed struct {
	Code     string `json:"code,omitempty"`
	SourceID string `json:"source_id,omitempty"`
	Row      int    `json:"row,omitempty"`
	Reason   string `json:"reason"`
}

// Result is the result of the imports (PRODUCTS.IMPORT_CSV,
// SKUS.IMPORT_CSV, CUSTOMERS.IMPORT_CSV, VOUCHERS.IMPORT,
// VOUCHERS.IMPORT_CSV, CAMPAIGN.VOUCHERS_IMPORT_CSV, ORDERS.IMPORT):
// failed lists the first MaxListedFailures failed rows, failed_count
// counts them all.
type Result struct {
	Message     string   `json:"message"`
	Failed      []Failed `json:"failed"`
	DoneCount   int64    `json:"done_count"`
	FailedCount int64    `json:"failed_count"`
}

// BulkError is an item a bulk or metadata update could not apply.
type BulkError struct {
	Message  string `json:"message"`
	Details  string `json:"details"`
	Key      string `json:"key"`
	SourceID string `json:"source_id,omitempty"`
	Code     string `json:"code,omitempty"`
}

// BulkResult is the result of *.BULK_UPDATE and *.METADATA_UPDATE. This
// engine writes no report files: reports is empty and
// reports_available_till null.
type BulkResult struct {
	DoneCount            int64       `json:"done_count"`
	FailedCount          int64       `json:"failed_count"`
	Reports              []string    `json:"reports"`
	ReportsAvailableTill *string     `json:"reports_available_till"`
	Errors               []BulkError `json:"errors"`
}

// The fields a result's failed rows show.
const (
	withRow = 1 << iota
	withCode
	withSourceID
)

// importResult is the result of an import of noun ("product") whose
// failed rows show fields.
func importResult(st state, noun string, fields int) Result {
	out := Result{
		Message:     fmt.Sprintf("%d %s(s) imported successfully, %d failed.", st.Done, noun, st.FailedCount),
		Failed:      make([]Failed, 0, len(st.Failed)),
		DoneCount:   st.Done,
		FailedCount: st.FailedCount,
	}
	for _, f := range st.Failed {
		e := Failed{Reason: f.Reason}
		if fields&withRow != 0 {
			e.Row = f.Row
		}
		if fields&withCode != 0 {
			e.Code = f.Key
		}
		if fields&withSourceID != 0 {
			e.SourceID = f.Key
		}
		out.Failed = append(out.Failed, e)
	}
	return out
}

// bulkResult is the result of a bulk or metadata update whose items are
// named by code (byCode) or source id.
func bulkResult(st state, byCode bool) BulkResult {
	out := BulkResult{DoneCount: st.Done, FailedCount: st.FailedCount, Reports: []string{}, Errors: make([]BulkError, 0, len(st.Failed))}
	for _, f := range st.Failed {
		e := BulkError{Message: f.Message, Details: f.Reason, Key: f.ErrKey}
		if e.Message == "" {
			e.Message = f.Reason
		}
		if byCode {
			e.Code = f.Key
		} else {
			e.SourceID = f.Key
		}
		out.Errors = append(out.Errors, e)
	}
	return out
}
