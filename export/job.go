package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

// Job is the async job that writes an export's file (action type
// EXPORT.CSV).
type Job struct {
	ExportID string `json:"export_id"`
}

// KindExport is the action type of export jobs.
const KindExport = "EXPORT.CSV"

// Kind implements async.Args.
func (Job) Kind() string { return KindExport }

// EnableJobs registers the export job's worker with reg.
func (s *Service) EnableJobs(reg *async.Registry) {
	async.Register[Job](reg, worker{s})
}

// worker writes export files: a Worker and Failer of Job.
type worker struct{ s *Service }

// jobState is the job's checkpoint, saved with each chunk: where the next
// page starts, how many chunks and records are written, and whether the
// last page was read.
type jobState struct {
	After *Cursor `json:"after,omitempty"`
	Seq   int     `json:"seq"`
	Rows  int64   `json:"rows"`
	Done  bool    `json:"done"`
}

// Work writes the file in chunks of about chunkBytes: each chunk reads
// keyset pages of records until the chunk is full or the records end, and
// is stored with the checkpoint in one transaction, so a resumed job goes
// on after the last stored chunk and no more than a chunk and a page sit
// in memory.
func (w worker) Work(ctx context.Context, job *async.Job[Job]) error {
	s := w.s
	projectID := job.Action().ProjectID
	e, err := s.store.GetExport(ctx, projectID, job.Args.ExportID)
	if err != nil {
		var pe *promotype.Error
		if errors.As(err, &pe) && pe.Code == 404 { // deleted before it ran
			return async.Finish(ctx, job.Handle, s.tx, async.CountResult{Message: "The export was deleted"}, nil)
		}
		return err
	}
	p, err := prepare(e, e.CreatedAt)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	r := &reader{projectID: projectID, fields: p.fields, campaigns: map[string]string{},
		row: func(cells []string) error { return cw.Write(cells) }}
	if len(r.fields) == 0 {
		r.fields = p.obj.defaults
	}
	for _, f := range r.fields {
		r.metadata = r.metadata || f == "metadata" || strings.HasPrefix(f, "metadata.")
	}
	var st jobState
	err = async.RunChunks(ctx, job.Handle, &st, async.Chunks[jobState, JobStore]{
		Run:  s.tx,
		More: func(st jobState) bool { return !st.Done },
		Chunk: func(ctx context.Context, tx JobStore, _ *async.Action, next *jobState) error {
			buf.Reset()
			cw = csv.NewWriter(&buf) // nothing of a chunk that ran before and rolled back
			r.tx = tx
			if next.Seq == 0 {
				ex, err := tx.GetExport(ctx, projectID, e.ID)
				if err != nil {
					return err
				}
				ex.Status = StatusInProgress
				if err := tx.UpdateExport(ctx, ex); err != nil {
					return err
				}
				headers := make([]string, len(r.fields))
				for i, f := range r.fields {
					headers[i] = safeCell(Header(f))
				}
				if err := cw.Write(headers); err != nil {
					return err
				}
			}
			q := p.q
			q.Limit = s.pageSize
			for buf.Len() < s.chunkBytes && !next.Done {
				after, n, err := p.obj.page(ctx, r, q, next.After)
				if err != nil {
					return err
				}
				cw.Flush()
				if err := cw.Error(); err != nil {
					return err
				}
				next.After, next.Rows = after, next.Rows+int64(n)
				next.Done = n < q.Limit
			}
			cw.Flush()
			if buf.Len() > 0 {
				if err := tx.AppendExportChunk(ctx, projectID, e.ID, next.Seq, buf.Bytes()); err != nil {
					return err
				}
				next.Seq++
			}
			return nil
		},
	})
	if err != nil {
		return err
	}
	result := async.CountResult{Message: "The export file was written", DoneCount: st.Rows}
	return async.Finish(ctx, job.Handle, s.tx, result, func(ctx context.Context, tx JobStore) error {
		ex, err := tx.GetExport(ctx, projectID, e.ID)
		if err != nil {
			return err
		}
		ex.Status, ex.Chunks, ex.Rows = StatusDone, st.Seq, st.Rows
		return tx.UpdateExport(ctx, ex)
	})
}

// Fail ends the action FAILED and its export ERROR (unless it was deleted).
func (w worker) Fail(ctx context.Context, job *async.Job[Job], reason string, partial map[string]any) error {
	projectID := job.Action().ProjectID
	return async.Fail(ctx, job.Handle, w.s.tx, reason, partial, func(ctx context.Context, tx JobStore, _ *async.Action) error {
		ex, err := tx.GetExport(ctx, projectID, job.Args.ExportID)
		if err != nil {
			var pe *promotype.Error
			if errors.As(err, &pe) && pe.Code == 404 {
				return nil
			}
			return err
		}
		ex.Status, ex.Error = StatusError, reason
		return tx.UpdateExport(ctx, ex)
	})
}
