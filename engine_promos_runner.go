package promo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	mrand "math/rand/v2"
	"sync"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// AsyncRunnerConfig configures the background runner of async actions.
// Zero fields take the defaults.
type AsyncRunnerConfig struct {
	// Workers is how many actions run at once (default 1).
	Workers int
	// PollInterval is how often an idle worker looks for actions that this
	// engine was not told about: enqueued by another replica, or left by a
	// runner that stopped (default 1 s).
	PollInterval time.Duration
	// Lease is how long a runner keeps an action without saving progress;
	// past it, another runner may take the action over (default 30 s).
	// Every chunk renews it.
	Lease time.Duration
	// ChunkSize is how many vouchers one transaction writes (default
	// 10000): the unit of progress, and how long the store is held at once.
	ChunkSize int
	// MaxAttempts is how many times an action may be taken up; an action
	// interrupted more often (its runners kept stopping mid-way) ends
	// FAILED (default 3).
	MaxAttempts int
	// Owner names this runner in leases (default "runner-" and random hex).
	Owner string
}

// Runner defaults.
const (
	DefaultPollInterval = time.Second
	DefaultLease        = 30 * time.Second
	DefaultChunkSize    = 10_000
	DefaultMaxAttempts  = 3
)

func (c AsyncRunnerConfig) withDefaults() AsyncRunnerConfig {
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.Lease <= 0 {
		c.Lease = DefaultLease
	}
	if c.ChunkSize <= 0 {
		c.ChunkSize = DefaultChunkSize
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.Owner == "" {
		c.Owner = "runner-" + randomHex(8)
	}
	return c
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// runnerState is the engine's background runner, when started.
type runnerState struct {
	mu      sync.Mutex
	started bool
	stop    chan struct{} // closed by Close: finish the chunk, release, return
	done    sync.WaitGroup
	wake    chan struct{} // a new action was enqueued here
}

// wakeRunner tells an idle worker that an action was enqueued.
func (e *Engine) wakeRunner() {
	select {
	case e.promos.runner.wake <- struct{}{}:
	default:
	}
}

// StartAsyncRunner starts the background runner of async actions (voucher
// generation, imports, campaign updates and deletes). Its workers take
// actions from the store, of every project, including those of other
// engines over the same PostgreSQL database and those a stopped runner
// left: an action whose lease ran out is taken over and resumes from its
// last saved chunk. Close stops the runner gracefully; cancelling ctx stops
// it at once, as a crash would (the action in hand is resumed by a runner
// once its lease runs out). It returns an error if the runner is running.
func (e *Engine) StartAsyncRunner(ctx context.Context, cfg AsyncRunnerConfig) error {
	r := &e.promos.runner
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return errors.New("promo: the async runner is already running")
	}
	r.started = true
	r.stop = make(chan struct{})
	cfg = cfg.withDefaults()
	for i := range cfg.Workers {
		w := &worker{e: e, cfg: cfg, owner: fmt.Sprintf("%s/%d", cfg.Owner, i), stop: r.stop}
		r.done.Add(1)
		go func() {
			defer r.done.Done()
			w.loop(ctx)
		}()
	}
	return nil
}

// Close stops the webhook dispatcher and the async runner, if started: the
// dispatcher lets its tries in flight end and records them; each runner
// worker finishes the chunk in hand, hands its action back (another runner
// may take it at once) and returns. Close waits for them.
func (e *Engine) Close() error {
	e.StopWebhookDispatcher()
	r := &e.promos.runner
	r.mu.Lock()
	if !r.started {
		r.mu.Unlock()
		return nil
	}
	close(r.stop)
	r.mu.Unlock()
	r.done.Wait()
	r.mu.Lock()
	r.started = false
	r.mu.Unlock()
	return nil
}

// RunPending runs, in the calling goroutine, every async action that can be
// taken now (enqueued, or left by a runner whose lease ran out), until none
// is left, and returns how many it ran. It suits tests and programs that
// do not start the background runner.
func (s *AsyncActionService) RunPending(ctx context.Context, cfg AsyncRunnerConfig) (int, error) {
	cfg = cfg.withDefaults()
	w := &worker{e: s.e, cfg: cfg, owner: cfg.Owner + "/inline"}
	n := 0
	for {
		a, err := w.claim(ctx)
		if err != nil || a == nil {
			return n, err
		}
		n++
		if err := w.run(ctx, a); err != nil && ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
}

// worker runs actions one at a time.
type worker struct {
	e     *Engine
	cfg   AsyncRunnerConfig
	owner string
	stop  <-chan struct{} // nil for RunPending
}

var errStopping = errors.New("promo: the async runner is stopping")

// maxRetryDelay caps retryDelay.
const maxRetryDelay = 30 * time.Second

// retryDelay is how long a background loop waits after its failures-th
// failure in a row (failures >= 1): base doubled with each failure, at
// most maxRetryDelay, then a random point of its second half (jitter), so
// that replicas hitting one failing store do not retry in step.
func retryDelay(base time.Duration, failures int) time.Duration {
	d := base
	for i := 1; i < failures && d < maxRetryDelay; i++ {
		d *= 2
	}
	d = min(max(d, time.Millisecond), maxRetryDelay)
	return d/2 + mrand.N(d/2+1)
}

func (w *worker) stopping() bool {
	if w.stop == nil {
		return false
	}
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

func (w *worker) loop(ctx context.Context) {
	ticker := time.NewTicker(w.cfg.PollInterval)
	defer ticker.Stop()
	failures := 0
	for {
		if ctx.Err() != nil || w.stopping() {
			return
		}
		a, err := w.claim(ctx)
		if err != nil && ctx.Err() == nil {
			// The store is failing (down, stalled): wait longer after each
			// failure, at a random point so replicas do not retry in step.
			failures++
			w.e.logger.LogAttrs(ctx, slog.LevelError, "promo: claiming an async action", slog.Any("error", err),
				slog.Int("failures", failures))
			timer := time.NewTimer(retryDelay(w.cfg.PollInterval, failures))
			select {
			case <-ctx.Done():
			case <-w.stop:
			case <-timer.C:
			}
			timer.Stop()
			continue
		}
		failures = 0
		if a != nil {
			_ = w.run(ctx, a)
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-w.stop:
			return
		case <-w.e.promos.runner.wake:
		case <-ticker.C:
		}
	}
}

func (w *worker) now() promotype.Time { return w.e.env.Clock.Now() }

func (w *worker) leaseEnd() promotype.Time { return promotype.NewTime(w.now().Add(w.cfg.Lease)) }

func (w *worker) claim(ctx context.Context) (*project.AsyncAction, error) {
	return w.e.store.ClaimAsyncAction(ctx, w.owner, w.now(), w.leaseEnd())
}

// run carries out a claimed action. An error that is not the runner
// stopping fails the action; a stop hands it back.
func (w *worker) run(ctx context.Context, a *project.AsyncAction) error {
	if a.Attempts > w.cfg.MaxAttempts {
		return w.fail(ctx, a, fmt.Sprintf("The action was interrupted %d times and was not retried.", a.Attempts-1), nil)
	}
	var job func(context.Context, *project.AsyncAction) error
	switch a.Type {
	case project.ActionVouchersGenerate:
		job = w.generate
	case project.ActionVouchersImport:
		job = w.importVouchers
	case project.ActionVouchersUpdate:
		job = w.updateVouchers
	case project.ActionVouchersDelete:
		job = w.deleteVouchers
	default:
		return w.fail(ctx, a, "Unknown async action type "+a.Type, nil)
	}
	err := job(ctx, a)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return err // stopped at once: the lease runs out and another runner resumes
	case errors.Is(err, errStopping):
		return w.release(a)
	case errors.Is(err, project.ErrLeaseLost):
		w.e.logger.LogAttrs(ctx, slog.LevelWarn, "promo: an async action was taken over by another runner",
			slog.String("async_action_id", a.ID), slog.String("runner", w.owner))
		return err
	default:
		w.e.logger.LogAttrs(ctx, slog.LevelError, "promo: async action failed",
			slog.String("async_action_id", a.ID), slog.String("type", a.Type), slog.Any("error", err))
		return w.fail(ctx, a, failureReason(err), nil)
	}
}

// failureReason is the message a failed action shows: the error's details
// when it is a promo error, else a generic text (the cause is logged).
func failureReason(err error) string {
	var pe *promotype.Error
	if errors.As(err, &pe) {
		if pe.Details != "" {
			return pe.Details
		}
		return pe.Message
	}
	return "Internal error"
}

// step runs fn in one transaction holding the action (LockAsyncAction: the
// lease must still be this runner's), then saves the action as fn left it,
// with its lease renewed, in the same transaction. fn must change only
// copies of the caller's state: on an error nothing of the step stays.
func (w *worker) step(ctx context.Context, a *project.AsyncAction, fn func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error) error {
	return w.stepIn(ctx, w.e.store.RunInTx, a, fn)
}

// bulkStep is step for a chunk of generated vouchers: in the store's bulk
// transaction when it has one.
func (w *worker) bulkStep(ctx context.Context, a *project.AsyncAction, fn func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error) error {
	if b, ok := w.e.store.(storage.BulkTxStore); ok {
		return w.stepIn(ctx, b.RunInBulkTx, a, fn)
	}
	return w.step(ctx, a, fn)
}

func (w *worker) stepIn(ctx context.Context, runInTx func(context.Context, func(context.Context, storage.Tx) error) error,
	a *project.AsyncAction, fn func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error) error {
	return runInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		cur, err := tx.LockAsyncAction(ctx, a.ProjectID, a.ID, w.owner)
		if err != nil {
			return err
		}
		if err := fn(ctx, tx, cur); err != nil {
			return err
		}
		now := w.now()
		cur.UpdatedAt = now.Ptr()
		if !cur.Ended() {
			cur.LeaseUntil = w.leaseEnd().Ptr()
		}
		if err := tx.UpdateAsyncAction(ctx, cur); err != nil {
			return err
		}
		*a = *cur.Clone()
		return nil
	})
}

// finish ends the action DONE with its result; extra runs in the same
// transaction (a campaign set DONE).
func (w *worker) finish(ctx context.Context, a *project.AsyncAction, result any, extra func(ctx context.Context, tx storage.Tx) error) error {
	res, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return w.step(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
		if extra != nil {
			if err := extra(ctx, tx); err != nil {
				return err
			}
		}
		w.end(cur, project.AsyncDone, project.OperationSuccess, res)
		cur.Progress = 100
		return nil
	})
}

// end sets the final fields of an action.
func (w *worker) end(a *project.AsyncAction, status project.AsyncStatus, op project.OperationStatus, result []byte) {
	now := w.now()
	a.Status, a.OperationStatus, a.Result = status, op, result
	a.LeaseOwner, a.LeaseUntil = "", nil
	if a.StartedAt != nil {
		a.ProcessingTime = now.Sub(a.StartedAt.Time).Milliseconds()
	}
}

// fail ends the action FAILED with reason as the result's message (and the
// fields of partial, if any: counts done so far; without them, done_count
// is the progress its last checkpoint recorded); the campaign of a
// generation is set FAILED too.
func (w *worker) fail(ctx context.Context, a *project.AsyncAction, reason string, partial map[string]any) error {
	result := map[string]any{"message": reason}
	for k, v := range partial {
		result[k] = v
	}
	err := w.step(ctx, a, func(ctx context.Context, tx storage.Tx, cur *project.AsyncAction) error {
		out := maps.Clone(result)
		if _, ok := out["done_count"]; !ok {
			// Every job's checkpoint counts what it did as "done".
			var st struct {
				Done int64 `json:"done"`
			}
			_ = json.Unmarshal(cur.State, &st)
			out["done_count"] = st.Done
		}
		res, err := json.Marshal(out)
		if err != nil {
			return err
		}
		if cur.Type == project.ActionVouchersGenerate {
			// The campaign counts the vouchers made before the failure.
			var p generatePayload
			var st generateState
			if decode(cur, &p, &st) == nil {
				err := tx.AddCampaignVouchers(ctx, cur.ProjectID, p.CampaignID, st.Done)
				if err == nil {
					_, err = tx.SetCampaignStatus(ctx, cur.ProjectID, p.CampaignID, campaign.StatusFailed, -1)
				}
				if err == nil {
					err = w.e.promos.campaigns.EmitCampaignByID(ctx, tx, campaign.EventGenerationFailed, cur.ProjectID, p.CampaignID,
						map[string]any{"count": st.Done, "failed_at": w.now()})
				}
				if err != nil && !errors.Is(err, promotype.ErrNotFound) {
					return err
				}
			}
		}
		w.end(cur, project.AsyncFailed, project.OperationFailed, res)
		return nil
	})
	if err != nil && !errors.Is(err, project.ErrLeaseLost) {
		w.e.logger.LogAttrs(ctx, slog.LevelError, "promo: recording an async action's failure",
			slog.String("async_action_id", a.ID), slog.Any("error", err))
	}
	return err
}

// release hands an action back: its lease ends now, so that any runner may
// take it over at once.
func (w *worker) release(a *project.AsyncAction) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return w.e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		cur, err := tx.LockAsyncAction(ctx, a.ProjectID, a.ID, w.owner)
		if err != nil {
			return err
		}
		past := promotype.NewTime(w.now().Add(-time.Millisecond))
		cur.LeaseUntil = past.Ptr()
		cur.UpdatedAt = w.now().Ptr()
		return tx.UpdateAsyncAction(ctx, cur)
	})
}

// progress is done out of total as a percentage, below 100 until the end.
func progress(done, total int64) int {
	if total <= 0 {
		return 0
	}
	return int(min(99, done*100/total))
}
