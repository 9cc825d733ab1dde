package webhook

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/promoengine/promo/internal/startstop"
	"github.com/promoengine/promo/promotype"
)

// Dispatcher delivers the outbox: it fans events out into sendouts, one per
// configuration that hears them, and tries each sendout until a receiver
// answers 2xx or the schedule is exhausted (then the configuration is
// deactivated). Delivery is at least once: a sendout is recorded delivered
// only after its receiver answered, so a dispatcher that dies mid-try
// leaves it to be tried again once its lease runs out.
//
// It wakes when the store says events were committed (WatchEvents), when a
// try it made is due again, and every poll interval for whatever else
// (missed notifications, retries of other dispatchers, expired leases).
// Several dispatchers may serve one store.
type Dispatcher struct {
	store OutboxStore
	cfg   dispatcherConfig

	base     startstop.Base // the fan-out, prune and deliver loops; its Wake: events may be waiting
	workWake chan struct{}  // sendouts may be due
	freed    chan struct{}  // a try ended
	busy     atomic.Int64   // tries in flight

	mu       sync.Mutex   // guards outcomes and unwatch between Start and Stop
	outcomes chan Outcome // tries → recorder; closed by Stop once the tries ended
	tries    sync.WaitGroup
	recorder sync.WaitGroup
	unwatch  func()
}

// NewDispatcher returns a dispatcher of store's outbox; Start runs it.
func NewDispatcher(store OutboxStore, opts ...Option) *Dispatcher {
	cfg := defaultDispatcherConfig()
	for _, o := range opts {
		o(&cfg)
	}
	return &Dispatcher{
		store: store, cfg: cfg.withDefaults(),
		workWake: make(chan struct{}, 1), freed: make(chan struct{}, 1),
	}
}

// Start runs the dispatcher in the background until Stop is called or ctx
// ends. Ending ctx stops it at once, as a crash would: tries in flight are
// abandoned and made again once their lease runs out. It returns an error
// if the dispatcher is running.
func (d *Dispatcher) Start(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	outcomes := make(chan Outcome, 4*d.cfg.concurrency)
	started := d.base.Start(ctx,
		func(ctx context.Context, stop <-chan struct{}) { d.fanLoop(ctx, stop, outcomes) },
		d.pruneLoop,
		func(ctx context.Context, stop <-chan struct{}) { d.deliverLoop(ctx, stop, outcomes) })
	if !started {
		return errors.New("webhook: the dispatcher is already running")
	}
	d.outcomes = outcomes
	d.unwatch = d.store.WatchEvents(d.Wake)
	d.recorder.Add(1)
	go func() {
		defer d.recorder.Done()
		d.recordLoop(ctx, outcomes)
	}()
	return nil
}

// Stop stops the dispatcher gracefully: it claims nothing more, lets the
// tries in flight end (each within the timeout) and records them, and
// returns when they are. Stopping a dispatcher that is not running does
// nothing.
func (d *Dispatcher) Stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.base.Stop() {
		return
	}
	d.unwatch()
	d.tries.Wait()
	close(d.outcomes)
	d.recorder.Wait()
}

// Wake tells the dispatcher that events were committed: it fans them out
// at once instead of at its next poll. It never blocks.
func (d *Dispatcher) Wake() { d.base.Wake() }

// fanLoop turns new events into sendouts, and starts the tries of those
// it has room for at once.
func (d *Dispatcher) fanLoop(ctx context.Context, stop <-chan struct{}, outcomes chan<- Outcome) {
	startstop.Loop(ctx, stop, d.cfg.poll, func(ctx context.Context, _ int) bool {
		d.fanOut(ctx, stop, outcomes)
		return false
	}, d.base.WakeC())
}

// pruneLoop prunes the outbox when the dispatcher starts and every
// pruneInterval, unless retention is off.
func (d *Dispatcher) pruneLoop(ctx context.Context, stop <-chan struct{}) {
	if d.cfg.retention <= 0 {
		return
	}
	startstop.Loop(ctx, stop, pruneInterval, func(ctx context.Context, _ int) bool {
		if _, err := d.Prune(ctx); err != nil && ctx.Err() == nil {
			d.cfg.logger.LogAttrs(ctx, slog.LevelError, "webhook: pruning the outbox", slog.Any("error", err))
		}
		return false
	})
}

// Prune removes the settled sendouts and delivered events older than the
// retention (WithRetention), in batches; it returns how many it removed.
// A running dispatcher calls it every hour.
func (d *Dispatcher) Prune(ctx context.Context) (int, error) {
	if d.cfg.retention <= 0 {
		return 0, nil
	}
	cutoff := promotype.NewTime(d.cfg.env.Clock.Now().Add(-d.cfg.retention))
	total := 0
	for ctx.Err() == nil {
		n, err := d.store.PruneOutbox(ctx, cutoff, pruneBatch)
		total += n
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, ctx.Err()
}

// fanOut fans out batches until the outbox has no event left to take.
func (d *Dispatcher) fanOut(ctx context.Context, stop <-chan struct{}, outcomes chan<- Outcome) {
	for !startstop.Stopped(ctx, stop) {
		p := d.planner()
		events, stored, err := d.store.FanOutEvents(ctx, d.cfg.batch, p.plan)
		if err != nil {
			if ctx.Err() == nil {
				d.cfg.logger.LogAttrs(ctx, slog.LevelError, "webhook: fanning out events", slog.Any("error", err))
			}
			return
		}
		waiting := false
		for _, x := range stored {
			if p.mine[x.Sendout.ID] {
				d.start(ctx, x, outcomes)
			} else {
				waiting = true
			}
		}
		if waiting {
			startstop.Signal(d.workWake)
		}
		if events < d.cfg.batch {
			return
		}
	}
}

// planner makes the sendouts of one fan-out: one per configuration that
// hears an event, the first room of them claimed by this dispatcher (it
// tries them as soon as they are stored), the others due at once for any
// dispatcher to claim.
type planner struct {
	env   promotype.Env
	room  int
	lease promotype.Time
	mine  map[string]bool
}

func (d *Dispatcher) planner() *planner {
	now := d.cfg.env.Clock.Now()
	return &planner{env: d.cfg.env, room: d.cfg.concurrency - int(d.busy.Load()),
		lease: promotype.NewTime(now.Add(d.cfg.lease)), mine: map[string]bool{}}
}

func (p *planner) plan(e *promotype.Event, hooks []*Webhook) []*Sendout {
	out := make([]*Sendout, 0, len(hooks))
	for _, w := range hooks {
		if !Hears(w, e) {
			continue
		}
		s := NewSendout(p.env, w, e)
		if p.room > 0 {
			p.room--
			s.Attempts, s.NextAttemptAt = 1, p.lease.Ptr()
			p.mine[s.ID] = true
		}
		out = append(out, s)
	}
	return out
}

// deliverLoop claims due sendouts while it has room for their tries. It
// claims when sendouts may be due (a fan-out left some for any dispatcher,
// a retry it scheduled is due, the poll interval passed) and, while the
// last claim filled its room, whenever a try ends.
func (d *Dispatcher) deliverLoop(ctx context.Context, stop <-chan struct{}, outcomes chan<- Outcome) {
	const freed = 1 // the index of d.freed among the wake channels
	backlog := true
	failures := 0
	startstop.Loop(ctx, stop, d.cfg.poll, func(ctx context.Context, cause int) bool {
		if cause != freed {
			backlog = true // a fan-out left sendouts, a retry is due or the poll interval passed
		}
		if room := d.cfg.concurrency - int(d.busy.Load()); backlog && room > 0 {
			n, err := d.claim(ctx, room, outcomes)
			if err != nil {
				if ctx.Err() == nil {
					d.cfg.logger.LogAttrs(ctx, slog.LevelError, "webhook: claiming sendouts", slog.Any("error", err))
				}
				// The store is failing: back off (with jitter) before
				// claiming again, whatever wakes the loop meanwhile.
				failures++
				return startstop.Sleep(ctx, stop, startstop.Backoff(failures, claimBackoff, maxClaimBackoff))
			}
			failures = 0
			backlog = n == room // more may be due
		}
		return false
	}, d.workWake, d.freed)
}

// Claim errors back off from claimBackoff up to maxClaimBackoff.
const (
	claimBackoff    = 100 * time.Millisecond
	maxClaimBackoff = 30 * time.Second
)

// claim leases up to room due sendouts and starts their tries, which hand
// their outcomes to the recorder.
func (d *Dispatcher) claim(ctx context.Context, room int, outcomes chan<- Outcome) (int, error) {
	now := d.cfg.env.Clock.Now()
	lease := promotype.NewTime(now.Add(d.cfg.lease))
	claimed, err := d.store.ClaimSendouts(ctx, now, lease, room)
	if err != nil {
		return 0, err
	}
	for _, x := range claimed {
		d.start(ctx, x, outcomes)
	}
	return len(claimed), nil
}

// start runs the try of claimed sendout x in a goroutine of its own, which
// hands its outcome to the recorder.
func (d *Dispatcher) start(ctx context.Context, x *Delivery, outcomes chan<- Outcome) {
	d.busy.Add(1)
	d.tries.Add(1)
	go func() {
		defer func() {
			d.busy.Add(-1)
			d.tries.Done()
			startstop.Signal(d.freed)
		}()
		if oc, ok := d.try(ctx, x); ok {
			select {
			case outcomes <- oc:
			case <-ctx.Done():
			}
		}
	}()
}

// try makes one try of a claimed sendout and returns its outcome; none
// when ctx ended mid-try (the lease runs out and the sendout is tried
// again). It logs the try's start and end and reports it as a step
// (promotype.StepWebhookTry) when env.Step is set.
func (d *Dispatcher) try(ctx context.Context, x *Delivery) (Outcome, bool) {
	attrs := []slog.Attr{slog.String("sendout_id", x.Sendout.ID), slog.String("webhook_id", x.Sendout.WebhookID),
		slog.String("project_id", x.Sendout.ProjectID), slog.String("event_type", x.Sendout.EventType),
		slog.Int("attempt", x.Sendout.Attempts)}
	d.cfg.logger.LogAttrs(ctx, slog.LevelInfo, "webhook: try started", attrs...)
	start := time.Now()
	var end func(string, error)
	if d.cfg.env.Step != nil {
		ctx, end = d.cfg.env.Step(ctx, promotype.StepWebhookTry, attrs...)
	}
	oc, ok := d.tryOnce(ctx, x)
	outcome, err := "interrupted", ctx.Err()
	if ok {
		outcome, err = tryOutcome(oc.Sendout)
	}
	attrs = append(attrs, slog.String("outcome", outcome), slog.Duration("duration", time.Since(start)))
	if ok && oc.Sendout.LastStatusCode != nil {
		attrs = append(attrs, slog.Int("status", *oc.Sendout.LastStatusCode))
	}
	d.cfg.logger.LogAttrs(ctx, slog.LevelInfo, "webhook: try ended", attrs...)
	if end != nil {
		end(outcome, err)
	}
	return oc, ok
}

// tryOutcome names the outcome of a try that recorded s.
func tryOutcome(s *Sendout) (string, error) {
	var err error
	if s.LastError != nil {
		err = errors.New(*s.LastError)
	}
	switch s.Status {
	case SendoutDelivered:
		return "delivered", nil
	case SendoutCanceled:
		return "canceled", nil
	case SendoutFailed:
		return "failed", err
	}
	return "retry", err
}

// tryOnce is try's work.
func (d *Dispatcher) tryOnce(ctx context.Context, x *Delivery) (Outcome, bool) {
	s := x.Sendout.Clone()
	if x.Webhook == nil || !x.Webhook.Active {
		// active:false sends nothing, even what was planned before.
		s.Status, s.NextAttemptAt = SendoutCanceled, nil
		return Outcome{Sendout: s}, true
	}
	code, err := d.post(ctx, x)
	if ctx.Err() != nil {
		return Outcome{}, false
	}
	now := d.cfg.env.Clock.Now()
	s.LastAttemptAt = now.Ptr()
	s.LastStatusCode, s.LastError = nil, nil
	if code != 0 {
		s.LastStatusCode = &code
	}
	if err != nil {
		msg := errorText(err)
		s.LastError = &msg
	}
	switch wait, more := d.cfg.schedule.Next(s.Attempts); {
	case err == nil:
		s.Status, s.DeliveredAt, s.NextAttemptAt = SendoutDelivered, now.Ptr(), nil
	case more:
		s.NextAttemptAt = promotype.NewTime(now.Add(wait)).Ptr()
		d.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "webhook: try failed",
			slog.String("sendout_id", s.ID), slog.Int("attempt", s.Attempts), slog.Any("error", err))
	default:
		s.Status, s.NextAttemptAt = SendoutFailed, nil
		d.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "webhook: sendout given up, configuration deactivated",
			slog.String("sendout_id", s.ID), slog.String("webhook_id", s.WebhookID),
			slog.String("project_id", s.ProjectID), slog.Int("attempts", s.Attempts), slog.Any("error", err))
		return Outcome{Sendout: s, Deactivate: true}, true
	}
	return Outcome{Sendout: s}, true
}

// maxErrorText bounds the error text kept with a sendout.
const maxErrorText = 500

// errorText is err's message as stored: valid UTF-8 without NUL, at most
// maxErrorText bytes.
func errorText(err error) string {
	msg := strings.ToValidUTF8(strings.ReplaceAll(err.Error(), "\x00", ""), "\uFFFD")
	if len(msg) > maxErrorText {
		msg = strings.ToValidUTF8(msg[:maxErrorText], "")
	}
	return msg
}

// maxRecordBatch is how many outcomes one transaction records at most.
const maxRecordBatch = 256

// recordLoop records the outcomes of tries in batches (one transaction
// each) until outcomes is closed, or ctx ends (what is not recorded then is
// tried again once its lease runs out).
func (d *Dispatcher) recordLoop(ctx context.Context, outcomes <-chan Outcome) {
	batch := make([]Outcome, 0, maxRecordBatch)
	for {
		select {
		case <-ctx.Done():
			return
		case oc, ok := <-outcomes:
			if !ok {
				return
			}
			batch = append(batch[:0], oc)
		}
	more:
		for len(batch) < maxRecordBatch {
			select {
			case oc, ok := <-outcomes:
				if !ok {
					break more
				}
				batch = append(batch, oc)
			default:
				break more
			}
		}
		d.record(ctx, batch)
	}
}

// record saves one batch of outcomes and arranges to come back for the
// retries it scheduled.
func (d *Dispatcher) record(ctx context.Context, batch []Outcome) {
	lost, err := d.store.RecordSendouts(ctx, batch...)
	if err != nil {
		if ctx.Err() == nil {
			d.cfg.logger.LogAttrs(ctx, slog.LevelError, "webhook: recording tries", slog.Int("tries", len(batch)), slog.Any("error", err))
		}
		return
	}
	for _, id := range lost {
		// Its lease ran out mid-try: another dispatcher has it.
		d.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "webhook: a try ended after its lease", slog.String("sendout_id", id))
	}
	now := d.cfg.env.Clock.Now()
	for _, oc := range batch {
		if next := oc.Sendout.NextAttemptAt; oc.Sendout.Status == SendoutPending && next != nil {
			// +1 ms: due times are in milliseconds.
			time.AfterFunc(max(next.Sub(now.Time), 0)+time.Millisecond, func() { startstop.Signal(d.workWake) })
		}
	}
}
