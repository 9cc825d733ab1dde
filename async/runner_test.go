package async

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/promoengine/promo/promotype"
)

// fakeStore is an in-memory Store; its transactions are the store itself
// (enough for the runner's logic, not for isolation).
type fakeStore struct {
	mu      sync.Mutex
	actions []*Action
}

func (s *fakeStore) InsertAsyncAction(_ context.Context, a *Action) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actions = append(s.actions, a.Clone())
	return nil
}

func (s *fakeStore) find(projectID, id string) (*Action, error) {
	for _, a := range s.actions {
		if a.ProjectID == projectID && a.ID == id {
			return a, nil
		}
	}
	return nil, promotype.NotFound("async_action", id)
}

func (s *fakeStore) GetAsyncAction(_ context.Context, projectID, id string) (*Action, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.find(projectID, id)
	if err != nil {
		return nil, err
	}
	return a.Clone(), nil
}

func (s *fakeStore) ListAsyncActions(context.Context, string, promotype.Query) ([]*Action, int, error) {
	return nil, 0, errors.New("not used")
}

func (s *fakeStore) ClaimAsyncAction(_ context.Context, owner string, now, until promotype.Time) (*Action, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.actions {
		if a.Status == StatusEnqueued || (a.Status == StatusInProgress && a.LeaseUntil.Before(now.Time)) {
			a.Status, a.LeaseOwner, a.LeaseUntil = StatusInProgress, owner, until.Ptr()
			a.Attempts++
			if a.StartedAt == nil {
				a.StartedAt = now.Ptr()
			}
			return a.Clone(), nil
		}
	}
	return nil, nil
}

func (s *fakeStore) LockAsyncAction(_ context.Context, projectID, id, owner string) (*Action, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.find(projectID, id)
	if err != nil {
		return nil, err
	}
	if a.Status != StatusInProgress || a.LeaseOwner != owner {
		return nil, ErrLeaseLost
	}
	return a.Clone(), nil
}

func (s *fakeStore) UpdateAsyncAction(_ context.Context, a *Action) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.actions {
		if x.ID == a.ID {
			s.actions[i] = a.Clone()
			return nil
		}
	}
	return promotype.NotFound("async_action", a.ID)
}

func (s *fakeStore) tx(ctx context.Context, fn func(ctx context.Context, tx Store) error) error {
	return fn(ctx, s)
}

// countArgs is a fake job: count to N in chunks of ChunkSize.
type countArgs struct {
	N int64 `json:"n"`
}

func (countArgs) Kind() string { return "TEST.COUNT" }

type countState struct {
	Done int64 `json:"done"`
}

// countWorker counts; stopAfter > 0 makes Work fail (as an interruption
// would leave it) after that many chunks.
type countWorker struct {
	store     *fakeStore
	chunks    []int64 // the done count after each chunk
	failed    []string
	stopAfter int
}

func (w *countWorker) Work(ctx context.Context, job *Job[countArgs]) error {
	var st countState
	n := 0
	err := RunChunks(ctx, job.Handle, &st, Chunks[countState, Store]{
		Run:  w.store.tx,
		More: func(st countState) bool { return st.Done < job.Args.N },
		Chunk: func(ctx context.Context, tx Store, cur *Action, next *countState) error {
			if w.stopAfter > 0 && n == w.stopAfter {
				return errors.New("interrupted")
			}
			n++
			next.Done = min(next.Done+int64(job.ChunkSize()), job.Args.N)
			w.chunks = append(w.chunks, next.Done)
			cur.Progress = Progress(next.Done, job.Args.N)
			return nil
		},
	})
	if err != nil {
		return err
	}
	return Finish(ctx, job.Handle, w.store.tx, CountResult{Message: "counted", DoneCount: st.Done}, nil)
}

func (w *countWorker) Fail(ctx context.Context, job *Job[countArgs], reason string, partial map[string]any) error {
	w.failed = append(w.failed, reason)
	return Fail(ctx, job.Handle, w.store.tx, reason, partial, nil)
}

func newTestService(t *testing.T, w *countWorker) (*Service, *fakeStore) {
	t.Helper()
	st := &fakeStore{}
	if w != nil {
		w.store = st
	}
	reg := NewRegistry()
	if w != nil {
		Register[countArgs](reg, w)
	}
	return NewService(st, st.tx, promotype.DefaultEnv(), nil, reg), st
}

func enqueue(t *testing.T, s *Service, st *fakeStore, args Args) *Action {
	t.Helper()
	a, err := s.Enqueue(context.Background(), st, "proj", args)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func result(t *testing.T, st *fakeStore, id string) (*Action, map[string]any) {
	t.Helper()
	a, err := st.GetAsyncAction(context.Background(), "proj", id)
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := a.DecodeResult(&res); err != nil {
		t.Fatal(err)
	}
	return a, res
}

func TestRegistryRunsTypedWorkerInChunks(t *testing.T) {
	w := &countWorker{}
	s, st := newTestService(t, w)
	a := enqueue(t, s, st, countArgs{N: 5})
	n, err := s.RunPending(context.Background(), Config{ChunkSize: 2})
	if err != nil || n != 1 {
		t.Fatalf("RunPending = %d, %v; want 1, nil", n, err)
	}
	got, res := result(t, st, a.ID)
	if diff := cmp.Diff([]int64{2, 4, 5}, w.chunks); diff != "" {
		t.Errorf("chunks (-want +got):\n%s", diff)
	}
	want := map[string]any{"message": "counted", "done_count": float64(5)}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	if got.Status != StatusDone || got.Progress != 100 || got.Type != "TEST.COUNT" {
		t.Errorf("action = %s progress %d type %s, want DONE 100 TEST.COUNT", got.Status, got.Progress, got.Type)
	}
}

func TestResumeFromCheckpoint(t *testing.T) {
	w := &countWorker{stopAfter: 1}
	s, st := newTestService(t, w)
	a := enqueue(t, s, st, countArgs{N: 6})
	// A worker error fails the action through the worker's Failer, after
	// the first chunk was saved.
	if _, err := s.RunPending(context.Background(), Config{ChunkSize: 2}); err != nil {
		t.Fatal(err)
	}
	got, res := result(t, st, a.ID)
	if got.Status != StatusFailed || res["message"] != "Internal error" {
		t.Fatalf("action = %s %v, want FAILED Internal error", got.Status, res)
	}
	if diff := cmp.Diff([]string{"Internal error"}, w.failed); diff != "" {
		t.Errorf("Failer calls (-want +got):\n%s", diff)
	}
	// Another action, interrupted: put back IN_PROGRESS with an expired
	// lease, as a crash leaves it; it resumes from its saved state.
	w.stopAfter, w.chunks = 0, nil
	b := enqueue(t, s, st, countArgs{N: 6})
	st.mu.Lock()
	x, _ := st.find("proj", b.ID)
	past := promotype.NewTime(time.Now().Add(-time.Minute))
	x.Status, x.LeaseOwner, x.LeaseUntil, x.Attempts = StatusInProgress, "crashed", past.Ptr(), 1
	x.State = json.RawMessage(`{"done":4}`)
	st.mu.Unlock()
	if _, err := s.RunPending(context.Background(), Config{ChunkSize: 2}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{6}, w.chunks); diff != "" {
		t.Errorf("chunks after resume (-want +got):\n%s", diff)
	}
	if got, _ := result(t, st, b.ID); got.Status != StatusDone || got.Attempts != 2 {
		t.Errorf("resumed action = %s after %d attempts, want DONE after 2", got.Status, got.Attempts)
	}
}

func TestFailedAfterMaxAttemptsAndUnknownKind(t *testing.T) {
	w := &countWorker{}
	s, st := newTestService(t, w)
	a := enqueue(t, s, st, countArgs{N: 1})
	st.mu.Lock()
	x, _ := st.find("proj", a.ID)
	x.Attempts = 3 // the claim makes it 4: interrupted 3 times
	st.mu.Unlock()
	u := enqueue(t, s, st, otherArgs{})
	if n, err := s.RunPending(context.Background(), Config{}); err != nil || n != 2 {
		t.Fatalf("RunPending = %d, %v; want 2, nil", n, err)
	}
	_, res := result(t, st, a.ID)
	_, ures := result(t, st, u.ID)
	got := []any{res["message"], ures["message"], w.failed}
	want := []any{"The action was interrupted 3 times and was not retried.", "Unknown async action type TEST.OTHER",
		[]string{"The action was interrupted 3 times and was not retried."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("failures (-want +got):\n%s", diff)
	}
}

type otherArgs struct{}

func (otherArgs) Kind() string { return "TEST.OTHER" }

func TestRegisterTwicePanics(t *testing.T) {
	reg := NewRegistry()
	Register(reg, WorkFunc[countArgs](func(context.Context, *Job[countArgs]) error { return nil }))
	defer func() {
		if recover() == nil {
			t.Error("a second worker of a kind did not panic")
		}
	}()
	Register(reg, WorkFunc[countArgs](func(context.Context, *Job[countArgs]) error { return nil }))
}

func TestRunnerStartStopWake(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan string, 1)
	st := &fakeStore{}
	reg := NewRegistry()
	Register(reg, WorkFunc[countArgs](func(ctx context.Context, job *Job[countArgs]) error {
		err := Finish(ctx, job.Handle, st.tx, CountResult{}, nil)
		done <- job.Action().ID
		return err
	}))
	s := NewService(st, st.tx, promotype.DefaultEnv(), nil, reg)
	if err := s.Runner().Start(ctx, Config{PollInterval: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if err := s.Runner().Start(ctx, Config{}); err == nil {
		t.Error("a second Start did not fail")
	}
	a := enqueue(t, s, st, countArgs{N: 1})
	s.Wake() // the poll interval is an hour: only the wake can start it
	select {
	case id := <-done:
		if id != a.ID {
			t.Errorf("ran %s, want %s", id, a.ID)
		}
	case <-ctx.Done():
		t.Fatal("the woken runner did not run the action")
	}
	s.Runner().Stop()
	if !slices.Contains(reg.Kinds(), "TEST.COUNT") {
		t.Error("Kinds lacks TEST.COUNT")
	}
}

// TestWait: Wait answers an ended action at once, an unknown one 404, and
// ctx's error when ctx ends first; it returns the action DONE once this
// process's runner ends it, and notices an action another process ended.
func TestWait(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	release := make(chan struct{})
	st := &fakeStore{}
	reg := NewRegistry()
	Register(reg, WorkFunc[countArgs](func(ctx context.Context, job *Job[countArgs]) error {
		select {
		case <-release:
		case <-ctx.Done():
			return ctx.Err()
		}
		return Finish(ctx, job.Handle, st.tx, CountResult{Message: "counted", DoneCount: job.Args.N}, nil)
	}))
	s := NewService(st, st.tx, promotype.DefaultEnv(), nil, reg)

	if _, err := s.Wait(ctx, "proj", "aa_none"); promotype.AsError(err) == nil || promotype.AsError(err).Code != 404 {
		t.Errorf("Wait of an unknown action = %v, want a 404", err)
	}

	// Nothing runs the action: Wait gives up with ctx.
	idle := enqueue(t, s, st, countArgs{N: 1})
	short, stop := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err := s.Wait(short, "proj", idle.ID)
	stop()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait with no runner = %v, want context.DeadlineExceeded", err)
	}

	// The runner (polling once an hour) is woken by Wake, blocks until
	// released; Wait returns when it ends the action.
	if err := s.Runner().Start(ctx, Config{PollInterval: time.Hour}); err != nil {
		t.Fatal(err)
	}
	s.Wake()
	type waited struct {
		a   *Action
		err error
	}
	got := make(chan waited, 1)
	go func() {
		a, err := s.Wait(ctx, "proj", idle.ID)
		got <- waited{a, err}
	}()
	close(release)
	w := <-got
	if w.err != nil || w.a.Status != StatusDone || w.a.OperationStatus != OperationSuccess || string(w.a.Result) != `{"message":"counted","done_count":1}` {
		t.Fatalf("Wait = %+v, %v; want the action DONE with its result", w.a, w.err)
	}

	// An ended action answers at once.
	if a, err := s.Wait(ctx, "proj", idle.ID); err != nil || a.Status != StatusDone {
		t.Errorf("Wait of an ended action = %+v, %v", a, err)
	}

	// Another process ends an action (here: the store is changed while
	// this process's runner is stopped); Wait sees it by reading again.
	s.Runner().Stop()
	other := enqueue(t, s, st, otherArgs{})
	go func() {
		a, err := s.Wait(ctx, "proj", other.ID)
		got <- waited{a, err}
	}()
	st.mu.Lock()
	cur, _ := st.find("proj", other.ID)
	cur.Status, cur.OperationStatus = StatusFailed, OperationFailed
	st.mu.Unlock()
	if w := <-got; w.err != nil || w.a.Status != StatusFailed {
		t.Errorf("Wait of an action ended elsewhere = %+v, %v; want FAILED", w.a, w.err)
	}
}
