package async

import (
	"context"
	"encoding/json"
	"fmt"
)

// Args are the typed arguments of a kind of job: the payload of its
// actions. Kind names the kind (the action's type, such as
// "CAMPAIGN.VOUCHERS_GENERATE"); it must answer on the zero value, so Args
// are value types. The package that enqueues a kind declares its Args.
type Args interface{ Kind() string }

// Job is an action in the hands of a worker: its decoded arguments and the
// Handle to run its steps with.
type Job[A Args] struct {
	*Handle
	Args A
}

// Worker carries out the jobs of one kind. Work runs the job's chunks
// (Step, RunChunks) and ends it (Finish, Fail); returning an error fails
// the action with it, unless the runner is stopping (ErrStopping: the
// action is handed back) or the lease was lost (ErrLeaseLost).
type Worker[A Args] interface {
	Work(ctx context.Context, job *Job[A]) error
}

// WorkFunc is a Worker that is a function.
type WorkFunc[A Args] func(ctx context.Context, job *Job[A]) error

// Work calls f.
func (f WorkFunc[A]) Work(ctx context.Context, job *Job[A]) error { return f(ctx, job) }

// Failer is a worker that records more than the action when its action
// fails (a generation sets its campaign FAILED): the runner calls Fail
// instead of ending the action itself, and Fail ends it, usually with the
// function Fail in its own transaction type. partial holds the result
// fields known so far (done_count).
type Failer[A Args] interface {
	Fail(ctx context.Context, job *Job[A], reason string, partial map[string]any) error
}

// Registry maps each kind to its worker.
type Registry struct {
	kinds map[string]handler
}

// handler is a registered worker without its type parameter.
type handler struct {
	work func(ctx context.Context, h *Handle) error
	// fail ends the action FAILED; nil when the worker is no Failer.
	fail func(ctx context.Context, h *Handle, reason string, partial map[string]any) error
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{kinds: map[string]handler{}} }

// Register adds w as the worker of A's kind. It panics if the kind has one
// already: a kind is carried out by one worker.
func Register[A Args](r *Registry, w Worker[A]) {
	var zero A
	kind := zero.Kind()
	if _, ok := r.kinds[kind]; ok {
		panic(fmt.Sprintf("async: kind %s is registered twice", kind))
	}
	h := handler{work: func(ctx context.Context, h *Handle) error {
		job, err := decode[A](h)
		if err != nil {
			return err
		}
		return w.Work(ctx, job)
	}}
	if f, ok := w.(Failer[A]); ok {
		h.fail = func(ctx context.Context, h *Handle, reason string, partial map[string]any) error {
			job, err := decode[A](h)
			if err != nil { // the payload is unreadable: the action alone fails
				return h.r.fail(ctx, h, reason, partial)
			}
			return f.Fail(ctx, job, reason, partial)
		}
	}
	r.kinds[kind] = h
}

// Kinds returns the registered kinds.
func (r *Registry) Kinds() []string {
	out := make([]string, 0, len(r.kinds))
	for k := range r.kinds {
		out = append(out, k)
	}
	return out
}

// decode reads the job of the action in h.
func decode[A Args](h *Handle) (*Job[A], error) {
	job := &Job[A]{Handle: h}
	if err := json.Unmarshal(h.a.Payload, &job.Args); err != nil {
		return nil, fmt.Errorf("decode payload of %s: %w", h.a.ID, err)
	}
	return job, nil
}
