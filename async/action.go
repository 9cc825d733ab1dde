package async

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/promoengine/promo/internal/startstop"
	"github.com/promoengine/promo/promotype"
)

// Status is the status of an async action.
type Status string

// Async action statuses: ENQUEUED until a runner takes it, IN_PROGRESS while
// it runs, then DONE or FAILED.
const (
	StatusEnqueued   Status = "ENQUEUED"
	StatusInProgress Status = "IN_PROGRESS"
	StatusDone       Status = "DONE"
	StatusFailed     Status = "FAILED"
)

// OperationStatus tells how an async action ended: UNKNOWN until it does.
type OperationStatus string

// Operation statuses.
const (
	OperationUnknown OperationStatus = "UNKNOWN"
	OperationSuccess OperationStatus = "SUCCESS"
	OperationFailed  OperationStatus = "FAILED"
)

// Action is long work running in the background (object
// "async_action"): recorded when a request starts it, then taken by a
// runner of the engine (any replica over the same store), done in chunks
// with its progress (0 to 100) saved after each, and ended DONE or FAILED
// with a result.
type Action struct {
	ID              string          `json:"id"`
	Type            string          `json:"type"`
	Status          Status          `json:"status"`
	OperationStatus OperationStatus `json:"operation_status"`
	// Result is null until the action ends; its shape depends on Type
	// (CountResult, ImportResult). Lists leave it out (it is nil there).
	Result    json.RawMessage `json:"result,omitempty"`
	CreatedAt promotype.Time  `json:"created_at"`
	UpdatedAt *promotype.Time `json:"updated_at"`
	RequestID string          `json:"request_id"`
	// ProcessingTime is the milliseconds from the first start to the end
	// (0 until the action ends).
	ProcessingTime int64  `json:"processing_time"`
	Progress       int    `json:"progress"`
	Object         string `json:"object"`

	ProjectID  string          `json:"-"`
	Payload    json.RawMessage `json:"-"` // the action's input
	State      json.RawMessage `json:"-"` // its checkpoint, saved with each chunk
	LeaseOwner string          `json:"-"` // the runner working on it
	LeaseUntil *promotype.Time `json:"-"` // when another runner may take it over
	StartedAt  *promotype.Time `json:"-"` // when a runner first took it
	Attempts   int             `json:"-"` // how many times a runner took it
	// SerialKey, when set (Serial args), queues the action behind every
	// action of its project with the same key enqueued before it: a
	// runner takes it only once they have all ended.
	SerialKey string `json:"-"`
	// Seq is the store's insertion order of the action (set by the store
	// when it is inserted): what "enqueued before" means for SerialKey.
	Seq int64 `json:"-"`
}

// Clone returns a deep copy.
func (a *Action) Clone() *Action {
	c := *a
	c.Result = slices.Clone(a.Result)
	c.Payload = slices.Clone(a.Payload)
	c.State = slices.Clone(a.State)
	c.UpdatedAt = promotype.ClonePtr(a.UpdatedAt)
	c.LeaseUntil = promotype.ClonePtr(a.LeaseUntil)
	c.StartedAt = promotype.ClonePtr(a.StartedAt)
	return &c
}

// Ended reports whether the action is DONE or FAILED.
func (a *Action) Ended() bool { return a.Status == StatusDone || a.Status == StatusFailed }

// DecodeResult decodes the action's result into v (a *CountResult or an
// *ImportResult); a null result leaves v as it is.
func (a *Action) DecodeResult(v any) error {
	if len(a.Result) == 0 || string(a.Result) == "null" {
		return nil
	}
	return json.Unmarshal(a.Result, v)
}

// CountResult is the result of CAMPAIGN.VOUCHERS_GENERATE, _UPDATE and
// _DELETE.
type CountResult struct {
	Message   string `json:"message"`
	DoneCount int64  `json:"done_count"`
}

// ImportResult is the result of CAMPAIGN.VOUCHERS_IMPORT.
type ImportResult struct {
	Message     string          `json:"message"`
	Failed      []ImportFailure `json:"failed"`
	DoneCount   int64           `json:"done_count"`
	FailedCount int64           `json:"failed_count"`
}

// ImportFailure is one code an import could not store, and why.
type ImportFailure struct {
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// ErrLeaseLost is what LockAsyncAction returns when the action is no longer
// leased to the caller (another runner took it over, or it ended).
var ErrLeaseLost = errors.New("async: the async action is not leased to this runner any more")

// Store is the storage port of async actions. Actions are scoped by
// project, except ClaimAsyncAction, which serves the runners of every
// project.
type Store interface {
	// InsertAsyncAction stores a new action and gives the stored row the
	// next Seq (the caller's value is not changed).
	InsertAsyncAction(ctx context.Context, a *Action) error
	GetAsyncAction(ctx context.Context, projectID, id string) (*Action, error)
	ListAsyncActions(ctx context.Context, projectID string, q promotype.Query) ([]*Action, int, error)
	// ClaimAsyncAction takes the oldest action (created_at, then id) that is
	// ENQUEUED, or IN_PROGRESS with a lease that ended before now, and that
	// waits for no other action: one with a SerialKey is skipped while an action
	// of its project with the same key and a lower Seq has not ended. It
	// becomes IN_PROGRESS, leased to owner until until, its Attempts goes
	// up by one, StartedAt is set if it was not, and UpdatedAt is now. It
	// returns nil when there is none. Two claims never take the same
	// action while its lease lasts, in one process or several (PostgreSQL:
	// SELECT ... FOR UPDATE SKIP LOCKED).
	ClaimAsyncAction(ctx context.Context, owner string, now, until promotype.Time) (*Action, error)
	// LockAsyncAction returns the action if it is IN_PROGRESS and leased to
	// owner, and keeps it so until the transaction ends (PostgreSQL: a row
	// lock), so that a chunk and its checkpoint commit only while the lease
	// holds. Otherwise it returns ErrLeaseLost (or a not found error).
	LockAsyncAction(ctx context.Context, projectID, id, owner string) (*Action, error)
	// UpdateAsyncAction replaces every field of the action.
	UpdateAsyncAction(ctx context.Context, a *Action) error
}

// ListSpec is what GET /v1/async-actions accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"type":       promotype.FieldString,
		"status":     promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

// Field returns the value of a filterable field of a.
func (a *Action) Field(name string) promotype.Value {
	switch name {
	case "type":
		return promotype.Value{Str: a.Type}
	case "status":
		return promotype.Value{Str: string(a.Status)}
	case "created_at":
		return promotype.Value{Time: a.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(a.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

// newAction returns a new ENQUEUED action of a project (not stored)
// with its input; the request id comes from ctx (WithRequestID), or is
// made up when ctx has none.
func newAction(ctx context.Context, env promotype.Env, projectID, typ string, payload any) (*Action, error) {
	p, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	return &Action{
		ID:              env.IDs.NewID(promotype.PrefixAsyncAction),
		ProjectID:       projectID,
		Type:            typ,
		Status:          StatusEnqueued,
		OperationStatus: OperationUnknown,
		CreatedAt:       env.Clock.Now(),
		RequestID:       RequestID(ctx),
		Payload:         p,
		Object:          "async_action",
		SerialKey:       serialKey(payload),
	}, nil
}

// Serial is Args whose actions run one at a time, in the order they were
// enqueued, with the other actions of their project that have the same
// SerialKey (a campaign's voucher jobs: a generation, then the import,
// update or delete requested while it runs).
type Serial interface {
	Args
	SerialKey() string
}

func serialKey(payload any) string {
	if s, ok := payload.(Serial); ok {
		return s.SerialKey()
	}
	return ""
}

type requestIDKey struct{}

// WithRequestID returns ctx carrying the id of the request that acts (the
// HTTP adapter's X-Request-Id); async actions record it.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id ctx carries, or a new one ("v-" and 18
// random hex characters, the form of the adapter's ids).
func RequestID(ctx context.Context) string {
	if id, ok := ctx.Value(requestIDKey{}).(string); ok && id != "" {
		return id
	}
	var b [9]byte
	_, _ = rand.Read(b[:])
	return "v-" + hex.EncodeToString(b[:])
}

// Ref is the answer of a request that started an async action (202
// {"async_action_id": ...}).
type Ref struct {
	AsyncActionID string `json:"async_action_id"`
}

// Service is the async actions API: it reads them, enqueues them in the
// caller's transaction and runs them (its Runner).
type Service struct {
	store  Store
	env    promotype.Env
	runner *Runner
	admit  Admission // nil: every action is admitted
}

// Admission decides, in the enqueuing transaction tx, whether projectID may
// start an action with args (a quota); its error refuses the request.
type Admission func(ctx context.Context, tx Store, projectID string, args Args) error

// SetAdmission makes Enqueue ask admit first. Call it before the service
// is used.
func (s *Service) SetAdmission(admit Admission) { s.admit = admit }

// NewService returns an async action service whose runner takes actions
// from store and carries them out with the workers of reg; tx runs the
// runner's own transactions (hand-backs, and the failures of kinds whose
// worker has no Failer).
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env, logger *slog.Logger, reg *Registry) *Service {
	return &Service{store: store, env: env, runner: newRunner(store, tx, env, logger, reg)}
}

// Runner is the service's background runner.
func (s *Service) Runner() *Runner { return s.runner }

// Enqueue records in tx (the caller's transaction) a new ENQUEUED action of
// kind args.Kind() with args as its input. The request id comes from ctx
// (WithRequestID); the admission (SetAdmission), if any, may refuse it.
// Call Wake once the transaction committed, so that an
// idle runner takes the action at once.
func (s *Service) Enqueue(ctx context.Context, tx Store, projectID string, args Args) (*Action, error) {
	if s.admit != nil {
		if err := s.admit(ctx, tx, projectID, args); err != nil {
			return nil, err
		}
	}
	a, err := newAction(ctx, s.env, projectID, args.Kind(), args)
	if err != nil {
		return nil, err
	}
	return a, tx.InsertAsyncAction(ctx, a)
}

// Wake tells an idle runner worker of this process that an action was
// enqueued; it never blocks.
func (s *Service) Wake() { s.runner.base.Wake() }

// RunPending runs, in the calling goroutine, every async action that can be
// taken now (enqueued, or left by a runner whose lease ran out), until none
// is left, and returns how many it ran. It suits tests and programs that
// do not start the background runner.
func (s *Service) RunPending(ctx context.Context, cfg Config) (int, error) {
	return s.runner.RunPending(ctx, cfg)
}

// Get returns an async action by id, with its result.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Action, error) {
	a, err := s.store.GetAsyncAction(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	a.Object = "async_action"
	if len(a.Result) == 0 {
		a.Result = json.RawMessage("null") // written as null until the action ends
	}
	return a, nil
}

// Wait polls between waitPollMin and waitPollMax for an action that
// another process carries out.
const (
	waitPollMin = 20 * time.Millisecond
	waitPollMax = DefaultPollInterval
)

// Wait waits until the action id of the project has ended (DONE or
// FAILED) and returns it with its result, or returns ctx's error when ctx
// ends first. It does not run the action: a runner must (the engine's,
// started by StartAsyncRunner, or one of another process over the same
// store). It wakes as soon as this process's runner ends an action, and
// reads the action again at growing intervals (up to a second) for an
// action another process runs. An unknown id is 404 not_found.
func (s *Service) Wait(ctx context.Context, projectID, id string) (*Action, error) {
	for attempt := 1; ; attempt++ {
		ended := s.runner.ended.wait() // before the read: no end is missed
		a, err := s.Get(ctx, projectID, id)
		if err != nil {
			return nil, err
		}
		if a.Ended() {
			return a, nil
		}
		t := time.NewTimer(startstop.Backoff(attempt, waitPollMin, waitPollMax))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-ended:
		case <-t.C:
		}
		t.Stop()
	}
}

// List lists the async actions of a project, newest first by default;
// items have no result.
func (s *Service) List(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*Action], error) {
	q, err := p.Query(ListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items, total, err := s.store.ListAsyncActions(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, a := range items {
		a.Object = "async_action"
		a.Result = nil // lists leave the result out
	}
	return promotype.NewList(items, total, q), nil
}
