package webhook

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/promoengine/promo/promotype"
)

// Dispatcher defaults.
const (
	// DefaultTimeout is how long a receiver has to answer (the hosted
	// service's 10 s).
	DefaultTimeout = 10 * time.Second
	// DefaultPollInterval is how often an idle dispatcher looks for work it
	// was not woken for: events whose notification was missed, retries
	// scheduled by other dispatchers, sendouts of dispatchers that died.
	DefaultPollInterval = time.Second
	// DefaultLease is how long a claimed sendout is held: past it, another
	// dispatcher may try it again. It must outlast a try (DefaultTimeout).
	DefaultLease = 30 * time.Second
	// DefaultConcurrency is how many tries run at once.
	DefaultConcurrency = 16
	// DefaultBatch is how many events one fan-out transaction takes.
	DefaultBatch = 200
	// DefaultRetention is how long settled sendouts (the delivery log) and
	// the events they delivered are kept.
	DefaultRetention = 30 * 24 * time.Hour
	// pruneInterval is how often a running dispatcher prunes the outbox,
	// and pruneBatch how many rows one prune statement removes at most.
	pruneInterval = time.Hour
	pruneBatch    = 1000
)

// Option configures a Dispatcher.
type Option func(*dispatcherConfig)

type dispatcherConfig struct {
	env         promotype.Env
	logger      *slog.Logger
	client      *http.Client
	policy      TargetPolicy
	schedule    Schedule
	timeout     time.Duration
	poll        time.Duration
	lease       time.Duration
	concurrency int
	batch       int
	retention   time.Duration
}

func defaultDispatcherConfig() dispatcherConfig {
	return dispatcherConfig{
		env: promotype.DefaultEnv(), logger: slog.Default(), schedule: DefaultSchedule,
		timeout: DefaultTimeout, poll: DefaultPollInterval, lease: DefaultLease,
		concurrency: DefaultConcurrency, batch: DefaultBatch, retention: DefaultRetention,
	}
}

// WithClock sets the clock of sendout times, due times and leases.
func WithClock(c promotype.Clock) Option { return func(cfg *dispatcherConfig) { cfg.env.Clock = c } }

// WithIDGenerator sets the generator of sendout ids.
func WithIDGenerator(g promotype.IDGenerator) Option {
	return func(cfg *dispatcherConfig) { cfg.env.IDs = g }
}

// WithStep sets the observer each try is reported to (promotype.StepFunc,
// step promotype.StepWebhookTry).
func WithStep(f promotype.StepFunc) Option { return func(cfg *dispatcherConfig) { cfg.env.Step = f } }

// WithLogger sets the logger of failed tries and store errors.
func WithLogger(l *slog.Logger) Option { return func(cfg *dispatcherConfig) { cfg.logger = l } }

// WithTargetPolicy sets which addresses the default HTTP client may
// connect to (checked after name resolution) and which target URLs are
// tried at all. By default only public addresses.
func WithTargetPolicy(p TargetPolicy) Option { return func(cfg *dispatcherConfig) { cfg.policy = p } }

// WithHTTPClient replaces the default HTTP client. Its transport is then
// the caller's: build its dialer with TargetPolicy.DialContext to keep
// private targets refused at connection time. The per-try timeout still
// applies.
func WithHTTPClient(c *http.Client) Option { return func(cfg *dispatcherConfig) { cfg.client = c } }

// WithSchedule sets the retry schedule (DefaultSchedule by default; tests
// shorten it).
func WithSchedule(s Schedule) Option { return func(cfg *dispatcherConfig) { cfg.schedule = s } }

// WithTimeout sets how long a receiver has to answer a try.
func WithTimeout(d time.Duration) Option { return func(cfg *dispatcherConfig) { cfg.timeout = d } }

// WithPollInterval sets how often an idle dispatcher looks for work.
func WithPollInterval(d time.Duration) Option { return func(cfg *dispatcherConfig) { cfg.poll = d } }

// WithLease sets how long a claimed sendout is held.
func WithLease(d time.Duration) Option { return func(cfg *dispatcherConfig) { cfg.lease = d } }

// WithConcurrency sets how many tries run at once.
func WithConcurrency(n int) Option { return func(cfg *dispatcherConfig) { cfg.concurrency = n } }

// WithBatch sets how many events one fan-out transaction takes.
func WithBatch(n int) Option { return func(cfg *dispatcherConfig) { cfg.batch = n } }

// WithRetention sets how long settled sendouts and the events they
// delivered are kept (DefaultRetention by default); 0 keeps them forever.
// Pending sendouts and their events are never pruned.
func WithRetention(d time.Duration) Option { return func(cfg *dispatcherConfig) { cfg.retention = d } }

// withDefaults fills what the options left unset or invalid.
func (cfg dispatcherConfig) withDefaults() dispatcherConfig {
	def := defaultDispatcherConfig()
	if cfg.env.Clock == nil {
		cfg.env.Clock = def.env.Clock
	}
	if cfg.env.IDs == nil {
		cfg.env.IDs = def.env.IDs
	}
	if cfg.logger == nil {
		cfg.logger = def.logger
	}
	if cfg.schedule.Tries <= 0 {
		cfg.schedule = def.schedule
	}
	if cfg.timeout <= 0 {
		cfg.timeout = def.timeout
	}
	if cfg.poll <= 0 {
		cfg.poll = def.poll
	}
	if cfg.lease <= 0 {
		cfg.lease = def.lease
	}
	if cfg.concurrency <= 0 {
		cfg.concurrency = def.concurrency
	}
	if cfg.batch <= 0 {
		cfg.batch = def.batch
	}
	if cfg.client == nil {
		cfg.client = newHTTPClient(cfg.policy, cfg.concurrency)
	}
	return cfg
}

// newHTTPClient is the default client: connections only to addresses
// policy allows, no proxy (it would connect on the client's behalf, past
// the policy), no redirects (a 3xx is not a delivery).
func newHTTPClient(policy TargetPolicy, conns int) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Client{
		Transport: &http.Transport{
			DialContext:         policy.DialContext(dialer),
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        4 * conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     90 * time.Second,
			TLSHandshakeTimeout: 5 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
