package storage

import (
	"context"
	"time"
)

// Pinger is the optional ability of a store to tell whether it can serve:
// the database answers and its schema is migrated. Readiness checks
// (telemetry.Health) call it; a store without it is taken as always
// reachable.
type Pinger interface {
	// Ping returns nil when the store can serve, or the reason it cannot.
	Ping(ctx context.Context) error
}

// BacklogReporter is the optional ability of a store to report the work
// waiting across every project, for metrics.
type BacklogReporter interface {
	Backlog(ctx context.Context) (Backlog, error)
}

// Backlog is the work waiting in a store, across projects.
type Backlog struct {
	// AsyncActions counts the async actions by status (ENQUEUED,
	// IN_PROGRESS, DONE, FAILED); statuses without any are absent.
	AsyncActions map[string]int
	// OldestPendingAction is when the oldest action not ended (ENQUEUED or
	// IN_PROGRESS) was created; zero when there is none.
	OldestPendingAction time.Time
	// OutboxEvents counts the webhook events not fanned out yet.
	OutboxEvents int
	// PendingSendouts counts the webhook deliveries waiting for a try.
	PendingSendouts int
}
