package async

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/promoengine/promo/internal/startstop"
	"github.com/promoengine/promo/promotype"
)

// Config configures a runner. Zero fields take the defaults.
type Config struct {
	// Workers is how many actions run at once (default 1).
	Workers int
	// PollInterval is how often an idle worker looks for actions that this
	// process was not told about: enqueued by another replica, or left by a
	// runner that stopped (default 1 s).
	PollInterval time.Duration
	// Lease is how long a runner keeps an action without saving progress;
	// past it, another runner may take the action over (default 30 s).
	// Every chunk renews it.
	Lease time.Duration
	// ChunkSize is how many items one transaction writes (default 10000):
	// the unit of progress, and how long the store is held at once.
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

func (c Config) withDefaults() Config {
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
		var b [8]byte
		_, _ = rand.Read(b[:])
		c.Owner = "runner-" + hex.EncodeToString(b[:])
	}
	return c
}

// ErrStopping is what a job returns when the runner is stopping between
// two chunks: the runner hands the action back for any runner to resume.
var ErrStopping = errors.New("async: the runner is stopping")

// Runner takes actions from the store (of every project, including those of
// other processes over the same database and those a stopped runner left:
// an action whose lease ran out is taken over and resumes from its last
// saved chunk) and hands each to the worker of its kind.
type Runner struct {
	store  Store
	tx     promotype.TxFunc[Store]
	env    promotype.Env
	logger *slog.Logger
	reg    *Registry
	base   startstop.Base
	ended  broadcast // fired each time this runner ends an action
}

// broadcast wakes every goroutine waiting on its channel: fire closes the
// channel and the next wait gets a new one.
type broadcast struct {
	mu sync.Mutex
	c  chan struct{}
}

// wait returns the channel the next fire closes.
func (b *broadcast) wait() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.c == nil {
		b.c = make(chan struct{})
	}
	return b.c
}

// fire wakes the goroutines waiting on the current channel.
func (b *broadcast) fire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.c != nil {
		close(b.c)
		b.c = nil
	}
}

func newRunner(store Store, tx promotype.TxFunc[Store], env promotype.Env, logger *slog.Logger, reg *Registry) *Runner {
	if logger == nil {
		logger = slog.Default()
	}
	return &Runner{store: store, tx: tx, env: env, logger: logger, reg: reg}
}

// Start starts cfg.Workers workers in the background. Stop stops them
// gracefully; cancelling ctx stops them at once, as a crash would (the
// action in hand is resumed by a runner once its lease runs out). It
// returns an error if the runner is running.
func (r *Runner) Start(ctx context.Context, cfg Config) error {
	cfg = cfg.withDefaults()
	loops := make([]func(context.Context, <-chan struct{}), cfg.Workers)
	for i := range loops {
		owner := fmt.Sprintf("%s/%d", cfg.Owner, i)
		loops[i] = func(ctx context.Context, stop <-chan struct{}) { r.loop(ctx, cfg, owner, stop) }
	}
	if !r.base.Start(ctx, loops...) {
		return errors.New("async: the runner is already running")
	}
	return nil
}

// Stop stops the runner, if started: each worker finishes the chunk in
// hand, hands its action back (another runner may take it at once) and
// returns. Stop waits for them.
func (r *Runner) Stop() { r.base.Stop() }

// Running reports whether the runner is started and not stopped.
func (r *Runner) Running() bool { return r.base.Running() }

// RunPending runs, in the calling goroutine, every action that can be taken
// now, until none is left, and returns how many it ran.
func (r *Runner) RunPending(ctx context.Context, cfg Config) (int, error) {
	cfg = cfg.withDefaults()
	n := 0
	for {
		h, err := r.claim(ctx, cfg, cfg.Owner+"/inline", nil)
		if err != nil || h == nil {
			return n, err
		}
		n++
		if err := r.run(ctx, h); err != nil && ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
}

// Claim errors back off from claimBackoff up to the poll interval.
const claimBackoff = 100 * time.Millisecond

// loop is one worker: it claims and runs actions one at a time, and waits
// for a wake or the poll interval when there is none.
func (r *Runner) loop(ctx context.Context, cfg Config, owner string, stop <-chan struct{}) {
	failures := 0
	startstop.Loop(ctx, stop, cfg.PollInterval, func(ctx context.Context, _ int) bool {
		h, err := r.claim(ctx, cfg, owner, stop)
		if err != nil {
			if ctx.Err() == nil {
				r.logger.LogAttrs(ctx, slog.LevelError, "async: claiming an action", slog.Any("error", err))
			}
			failures++
			return startstop.Sleep(ctx, stop, startstop.Backoff(failures, claimBackoff, cfg.PollInterval))
		}
		failures = 0
		if h == nil {
			return false
		}
		_ = r.run(ctx, h)
		return true
	}, r.base.WakeC())
}

func (r *Runner) claim(ctx context.Context, cfg Config, owner string, stop <-chan struct{}) (*Handle, error) {
	h := &Handle{r: r, cfg: cfg, owner: owner, stop: stop}
	a, err := r.store.ClaimAsyncAction(ctx, owner, h.Now(), h.leaseEnd())
	if err != nil || a == nil {
		return nil, err
	}
	h.a = a
	return h, nil
}

// run carries out a claimed action, logging its start and end and
// reporting it as a step (promotype.StepAsyncAction) when env.Step is set.
// An error that is not the runner stopping fails the action; a stop hands
// it back.
func (r *Runner) run(ctx context.Context, h *Handle) error {
	a := h.a
	attrs := []slog.Attr{slog.String("async_action_id", a.ID), slog.String("type", a.Type),
		slog.String("project_id", a.ProjectID), slog.Int("attempt", a.Attempts)}
	r.logger.LogAttrs(ctx, slog.LevelInfo, "async: action started", attrs...)
	start := time.Now()
	var end func(string, error)
	if r.env.Step != nil {
		ctx, end = r.env.Step(ctx, promotype.StepAsyncAction, attrs...)
	}
	outcome, err := r.runAction(ctx, h)
	r.ended.fire() // Service.Wait reads the action again
	level := slog.LevelInfo
	if outcome != "done" && outcome != "released" {
		level = slog.LevelWarn
	}
	r.logger.LogAttrs(ctx, level, "async: action ended", append(attrs, slog.String("outcome", outcome),
		slog.Duration("duration", time.Since(start)))...)
	if end != nil {
		end(outcome, err)
	}
	return err
}

// runAction is run's work; outcome is one of StepAsyncAction's.
func (r *Runner) runAction(ctx context.Context, h *Handle) (outcome string, _ error) {
	a := h.a
	k, known := r.reg.kinds[a.Type]
	failWith := func(reason string) (string, error) {
		if known && k.fail != nil {
			return "failed", r.logFail(ctx, h, k.fail(ctx, h, reason, nil))
		}
		return "failed", r.fail(ctx, h, reason, nil)
	}
	if a.Attempts > h.cfg.MaxAttempts {
		return failWith(fmt.Sprintf("The action was interrupted %d times and was not retried.", a.Attempts-1))
	}
	if !known {
		return "failed", r.fail(ctx, h, "Unknown async action type "+a.Type, nil)
	}
	err := k.work(ctx, h)
	switch {
	case err == nil:
		return "done", nil
	case ctx.Err() != nil:
		return "error", err // stopped at once: the lease runs out and another runner resumes
	case errors.Is(err, ErrStopping):
		return "released", r.release(h)
	case errors.Is(err, ErrLeaseLost):
		r.logger.LogAttrs(ctx, slog.LevelWarn, "async: an action was taken over by another runner",
			slog.String("async_action_id", a.ID), slog.String("runner", h.owner))
		return "lease_lost", err
	default:
		r.logger.LogAttrs(ctx, slog.LevelError, "async: action failed",
			slog.String("async_action_id", a.ID), slog.String("type", a.Type), slog.Any("error", err))
		return failWith(Reason(err))
	}
}

// fail ends the action FAILED in the runner's own transaction.
func (r *Runner) fail(ctx context.Context, h *Handle, reason string, partial map[string]any) error {
	return Fail(ctx, h, r.tx, reason, partial, nil)
}

// logFail logs err, the failure of recording an action's failure.
func (r *Runner) logFail(ctx context.Context, h *Handle, err error) error {
	if err != nil && !errors.Is(err, ErrLeaseLost) {
		r.logger.LogAttrs(ctx, slog.LevelError, "async: recording an action's failure",
			slog.String("async_action_id", h.a.ID), slog.Any("error", err))
	}
	return err
}

// release hands an action back: its lease ends now, so that any runner may
// take it over at once.
func (r *Runner) release(h *Handle) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return r.tx(ctx, func(ctx context.Context, tx Store) error {
		cur, err := tx.LockAsyncAction(ctx, h.a.ProjectID, h.a.ID, h.owner)
		if err != nil {
			return err
		}
		past := promotype.NewTime(h.Now().Add(-time.Millisecond))
		cur.LeaseUntil = past.Ptr()
		cur.UpdatedAt = h.Now().Ptr()
		return tx.UpdateAsyncAction(ctx, cur)
	})
}

// Reason is the message a failed action shows for err: its details when
// it is a promo error, else a generic text (the cause is logged).
func Reason(err error) string {
	var pe *promotype.Error
	if errors.As(err, &pe) {
		if pe.Details != "" {
			return pe.Details
		}
		return pe.Message
	}
	return "Internal error"
}

// Progress is done out of total as a percentage, below 100 until the end.
func Progress(done, total int64) int {
	if total <= 0 {
		return 0
	}
	return int(min(99, done*100/total))
}

// Handle is a claimed action in the hands of a worker.
type Handle struct {
	r     *Runner
	cfg   Config
	owner string
	stop  <-chan struct{} // nil for RunPending
	a     *Action         // as last saved
}

// Action is the action as its last step saved it.
func (h *Handle) Action() *Action { return h.a }

// Stopping reports whether the runner is stopping: the job should return
// ErrStopping before its next chunk.
func (h *Handle) Stopping() bool {
	if h.stop == nil {
		return false
	}
	select {
	case <-h.stop:
		return true
	default:
		return false
	}
}

// Now is the runner's clock.
func (h *Handle) Now() promotype.Time { return h.r.env.Clock.Now() }

// ChunkSize is how many items one step should write (Config.ChunkSize).
func (h *Handle) ChunkSize() int { return h.cfg.ChunkSize }

func (h *Handle) leaseEnd() promotype.Time { return promotype.NewTime(h.Now().Add(h.cfg.Lease)) }

// Step runs fn in one transaction of run holding the action (the lease
// must still be this runner's, else ErrLeaseLost), then saves the action
// as fn left cur, with its lease renewed, in the same transaction. fn must
// change only copies of the caller's state: on an error nothing of the
// step stays.
func Step[T Store](ctx context.Context, h *Handle, run promotype.TxFunc[T], fn func(ctx context.Context, tx T, cur *Action) error) error {
	return run(ctx, func(ctx context.Context, tx T) error {
		cur, err := tx.LockAsyncAction(ctx, h.a.ProjectID, h.a.ID, h.owner)
		if err != nil {
			return err
		}
		if err := fn(ctx, tx, cur); err != nil {
			return err
		}
		cur.UpdatedAt = h.Now().Ptr()
		if !cur.Ended() {
			cur.LeaseUntil = h.leaseEnd().Ptr()
		}
		if err := tx.UpdateAsyncAction(ctx, cur); err != nil {
			return err
		}
		h.a = cur.Clone()
		return nil
	})
}

// Finish ends the action DONE with result (progress 100); extra runs in
// the same transaction (a campaign set DONE).
func Finish[T Store](ctx context.Context, h *Handle, run promotype.TxFunc[T], result any, extra func(ctx context.Context, tx T) error) error {
	res, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return Step(ctx, h, run, func(ctx context.Context, tx T, cur *Action) error {
		if extra != nil {
			if err := extra(ctx, tx); err != nil {
				return err
			}
		}
		h.end(cur, StatusDone, OperationSuccess, res)
		cur.Progress = 100
		return nil
	})
}

// Fail ends the action FAILED with reason as its result's message (and the
// fields of partial, if any: the counts done so far; without done_count,
// the progress the action's last checkpoint recorded); extra runs in the
// same transaction (a campaign set FAILED). A failure to record it is
// logged and returned.
func Fail[T Store](ctx context.Context, h *Handle, run promotype.TxFunc[T], reason string, partial map[string]any, extra func(ctx context.Context, tx T, cur *Action) error) error {
	result := map[string]any{"message": reason}
	for k, v := range partial {
		result[k] = v
	}
	err := Step(ctx, h, run, func(ctx context.Context, tx T, cur *Action) error {
		out := maps.Clone(result)
		if _, ok := out["done_count"]; !ok {
			// An action failed after interruptions has done what its
			// checkpoint counts: every job's state counts it as "done".
			var st struct {
				Done int64 `json:"done"`
			}
			if len(cur.State) > 0 {
				_ = json.Unmarshal(cur.State, &st)
			}
			out["done_count"] = st.Done
		}
		res, err := json.Marshal(out)
		if err != nil {
			return err
		}
		if extra != nil {
			if err := extra(ctx, tx, cur); err != nil {
				return err
			}
		}
		h.end(cur, StatusFailed, OperationFailed, res)
		return nil
	})
	return h.r.logFail(ctx, h, err)
}

// end sets the final fields of an action.
func (h *Handle) end(a *Action, status Status, op OperationStatus, result []byte) {
	a.Status, a.OperationStatus, a.Result = status, op, result
	a.LeaseOwner, a.LeaseUntil = "", nil
	if a.StartedAt != nil {
		a.ProcessingTime = h.Now().Sub(a.StartedAt.Time).Milliseconds()
	}
}

// Chunks is the loop of a chunked job over its checkpoint S (saved with
// each chunk, in the chunk's transaction, so a resumed action goes on
// exactly where the last committed chunk ended).
type Chunks[S any, T Store] struct {
	// Run runs the transaction of each chunk.
	Run promotype.TxFunc[T]
	// More reports whether another chunk is due.
	More func(st S) bool
	// Prepare, if set, runs before each chunk, outside its transaction.
	Prepare func(ctx context.Context, st S) error
	// Chunk does one chunk in tx: it sets next (a copy of the state) and
	// cur.Progress. next is saved as the action's state with the chunk.
	Chunk func(ctx context.Context, tx T, cur *Action, next *S) error
}

// RunChunks reads the job's checkpoint into st, then runs c's chunks while
// c.More(st), one transaction each, each committed chunk updating st. It
// returns ErrStopping when the runner stops between two chunks.
func RunChunks[S any, T Store](ctx context.Context, h *Handle, st *S, c Chunks[S, T]) error {
	if err := h.State(st); err != nil {
		return err
	}
	for c.More(*st) {
		if h.Stopping() {
			return ErrStopping
		}
		if c.Prepare != nil {
			if err := c.Prepare(ctx, *st); err != nil {
				return err
			}
		}
		var next S
		err := Step(ctx, h, c.Run, func(ctx context.Context, tx T, cur *Action) error {
			next = *st // anew each run: a transaction that runs again starts from the checkpoint
			if err := c.Chunk(ctx, tx, cur, &next); err != nil {
				return err
			}
			var err error
			cur.State, err = json.Marshal(next)
			return err
		})
		if err != nil {
			return err
		}
		*st = next
	}
	return nil
}

// State reads the action's checkpoint into st (left as it is while the
// action has none).
func (h *Handle) State(st any) error {
	if len(h.a.State) == 0 {
		return nil
	}
	if err := json.Unmarshal(h.a.State, st); err != nil {
		return fmt.Errorf("decode state of %s: %w", h.a.ID, err)
	}
	return nil
}
