package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

// MaxListedFailures bounds the failed rows an action's result lists;
// failed_count counts them all.
const MaxListedFailures = 1000

// failure is a row that could not be applied, and why.
type failure struct {
	Row     int    `json:"row"`           // the row's line in a CSV file (the header is line 1); the item's index + 1 in a list
	Key     string `json:"key,omitempty"` // the row's code or source id, if it has one
	Reason  string `json:"reason"`
	ErrKey  string `json:"err_key,omitempty"` // the error's key and message (bulk updates report them)
	Message string `json:"message,omitempty"`
}

// state is the checkpoint of a bulk job, saved with each chunk.
type state struct {
	Next        int       `json:"next"` // rows handled
	Done        int64     `json:"done"`
	FailedCount int64     `json:"failed_count"`
	Failed      []failure `json:"failed"`
}

// outcome is what one chunk did: its applied rows and its failures, by
// index in the chunk.
type outcome struct {
	done int64
	bad  map[int]error
}

// fail records the failure of row i of the chunk (a promo error is the
// row's reason; any other error is returned, failing the action).
func (o *outcome) fail(i int, err error) error {
	if _, ok := errors.AsType[*promotype.Error](err); !ok {
		return err
	}
	if o.bad == nil {
		o.bad = map[int]error{}
	}
	o.bad[i] = err
	return nil
}

// rowArgs are the arguments of a bulk job: its kind and its row count.
type rowArgs interface {
	async.Args
	rowCount() int
}

// kind is a bulk job over rows of type R.
type kind[A rowArgs, R any] struct {
	// outside, if set, runs before each chunk's transaction (checks that
	// read through the store, or services that open their own
	// transactions).
	outside func(ctx context.Context, job *async.Job[A], rows []R, o *outcome) error
	// inside, if set, runs in the chunk's transaction: the rows outside
	// did not fail.
	inside func(ctx context.Context, tx JobStore, job *async.Job[A], rows []R, o *outcome) error
	// key is the code or source id of a row, for its failure.
	key func(a A, r R) string
	// row is the row number of the i-th row (0-based) of the input.
	row func(i int) int
	// result is the action's result.
	result func(a A, st state) any
}

// csvRow is the row number of the i-th data row of a CSV file: its line,
// the header being line 1.
func csvRow(i int) int { return i + 2 }

// itemRow is the row number of the i-th item of a list: its index + 1.
func itemRow(i int) int { return i + 1 }

// register adds k's worker for A.
func register[A rowArgs, R any](s *Service, reg *async.Registry, k kind[A, R]) {
	async.Register[A](reg, worker[A, R]{s: s, k: k})
}

// worker carries out the jobs of one kind; a Failer, so that a failed
// action's input pages go with it.
type worker[A rowArgs, R any] struct {
	s *Service
	k kind[A, R]
}

// Work implements async.Worker.
func (w worker[A, R]) Work(ctx context.Context, job *async.Job[A]) error {
	return run(ctx, w.s, job, w.k)
}

// Fail implements async.Failer: the action ends FAILED with the counts of
// its checkpoint, and its input pages are removed.
func (w worker[A, R]) Fail(ctx context.Context, job *async.Job[A], reason string, partial map[string]any) error {
	a := job.Action()
	return async.Fail(ctx, job.Handle, w.s.tx, reason, partial, func(ctx context.Context, tx JobStore, _ *async.Action) error {
		return tx.DeleteImportPages(ctx, a.ProjectID, a.ID)
	})
}

// stepRows is how many rows one chunk handles: a tenth of the input at
// most (progress moves by 10% at most), one at least, and never past a
// page.
func stepRows(total int) int { return min(PageRows, max(1, total/10)) }

// run carries out a bulk job: its input a chunk at a time, one
// transaction each with its checkpoint, then the result.
func run[A rowArgs, R any](ctx context.Context, s *Service, job *async.Job[A], k kind[A, R]) error {
	a := job.Action()
	total := job.Args.rowCount()
	step := stepRows(total)
	var st state
	page, pageN := []R(nil), -1
	var o outcome
	var rows []R
	err := async.RunChunks(ctx, job.Handle, &st, async.Chunks[state, JobStore]{
		Run:  s.bulk,
		More: func(st state) bool { return st.Next < total },
		Prepare: func(ctx context.Context, st state) error {
			if n := st.Next / PageRows; n != pageN {
				data, err := s.store.GetImportPage(ctx, a.ProjectID, a.ID, n)
				if err != nil {
					return err
				}
				page = page[:0]
				if err := json.Unmarshal(data, &page); err != nil {
					return fmt.Errorf("decode page %d of %s: %w", n, a.ID, err)
				}
				pageN = n
			}
			off := st.Next % PageRows
			rows = page[off:min(off+step, len(page))]
			o = outcome{}
			if k.outside != nil {
				return k.outside(ctx, job, rows, &o)
			}
			return nil
		},
		Chunk: func(ctx context.Context, tx JobStore, cur *async.Action, next *state) error {
			co := outcome{done: o.done, bad: map[int]error{}}
			for i, err := range o.bad {
				co.bad[i] = err
			}
			if k.inside != nil {
				if err := k.inside(ctx, tx, job, rows, &co); err != nil {
					return err
				}
			}
			next.Failed = append([]failure(nil), next.Failed...)
			for i, r := range rows {
				err, ok := co.bad[i]
				if !ok {
					continue
				}
				next.FailedCount++
				if len(next.Failed) < MaxListedFailures {
					f := failure{Row: k.row(next.Next + i), Reason: async.Reason(err)}
					if k.key != nil {
						f.Key = k.key(job.Args, r)
					}
					if pe, ok := errors.AsType[*promotype.Error](err); ok {
						f.ErrKey, f.Message = pe.Key, pe.Message
					}
					next.Failed = append(next.Failed, f)
				}
			}
			next.Done += co.done
			next.Next += len(rows)
			cur.Progress = async.Progress(int64(next.Next), int64(total))
			return nil
		},
	})
	if err != nil {
		return err
	}
	return async.Finish(ctx, job.Handle, s.tx, k.result(job.Args, st), func(ctx context.Context, tx JobStore) error {
		return tx.DeleteImportPages(ctx, a.ProjectID, a.ID)
	})
}

// enqueue records, in one transaction, the action of args (after prepare,
// if set, which may refuse it) and its input, and wakes the runner once
// it committed.
func (s *Service) enqueue(ctx context.Context, projectID string, in Input, args async.Args, prepare func(ctx context.Context, tx JobStore) error) (*async.Ref, error) {
	var a *async.Action
	err := s.tx(ctx, func(ctx context.Context, tx JobStore) error {
		if prepare != nil {
			if err := prepare(ctx, tx); err != nil {
				return err
			}
		}
		var err error
		if a, err = s.actions.Enqueue(ctx, tx, projectID, args); err != nil {
			return err
		}
		return tx.InsertImportPages(ctx, projectID, a.ID, in.Pages)
	})
	if err != nil {
		return nil, err
	}
	s.actions.Wake()
	return &async.Ref{AsyncActionID: a.ID}, nil
}
