package webhook

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// OutboxStore is the storage port of webhook delivery: it turns the events
// of the outbox (promotype.EventStore) into sendouts and leases those to
// dispatchers. Unlike the other ports it works across projects (a
// dispatcher serves every project of the store); each sendout still
// belongs to the project of its event, and ListSendouts is scoped.
//
// Several dispatchers, in one process or in several over one database, may
// call it at once: no event is fanned out twice and no sendout is held by
// two of them at a time.
type OutboxStore interface {
	// FanOutEvents takes, in one transaction, up to limit events not fanned
	// out yet, oldest first, skipping those another transaction is fanning
	// out; for each it calls plan with the event and the configurations of
	// its project that hear it (see Hears), stores the sendouts plan
	// returns (a second sendout of the same event and configuration is
	// ignored) and marks the event fanned out. It returns the number of
	// events taken and the sendouts stored, as deliveries: a planner may
	// make sendouts already claimed (Attempts 1, NextAttemptAt the end of
	// its lease) and try them at once, without a claim.
	FanOutEvents(ctx context.Context, limit int, plan func(e *promotype.Event, hooks []*Webhook) []*Sendout) (events int, stored []*Delivery, err error)

	// ClaimSendouts leases up to limit pending sendouts due at now
	// (NextAttemptAt ≤ now), earliest due first, skipping those another
	// transaction is claiming: each gets one more attempt and NextAttemptAt
	// = leaseUntil, so that nobody else claims it before leaseUntil (a
	// dispatcher that dies holding it is thus replaced: delivery is at
	// least once). The attempt number is the lease's fencing token.
	ClaimSendouts(ctx context.Context, now, leaseUntil promotype.Time, limit int) ([]*Delivery, error)

	// RecordSendouts saves the outcomes of tries of claimed sendouts, in
	// one transaction: every field of each sendout but its ids, event and
	// creation. An outcome applies only while its sendout is still pending
	// with the attempt count it was claimed with; otherwise (its lease ran
	// out and another dispatcher claimed it, or it was settled) it changes
	// nothing and its sendout id is returned in lost. An outcome with
	// Deactivate set that applies also makes its configuration inactive
	// (UpdatedAt = the sendout's LastAttemptAt).
	RecordSendouts(ctx context.Context, outcomes ...Outcome) (lost []string, err error)

	// PruneOutbox removes, across projects, up to limit settled sendouts
	// (not PENDING) created before before, then up to limit events created
	// before before that are fanned out and have no sendout left. It
	// returns how many sendouts and events it removed. Pending sendouts,
	// their events and events not fanned out yet are never removed.
	PruneOutbox(ctx context.Context, before promotype.Time, limit int) (removed int, err error)

	// ListSendouts lists the sendouts of one configuration of a project.
	ListSendouts(ctx context.Context, projectID, webhookID string, q promotype.Query) ([]*Sendout, int, error)

	// WatchEvents calls wake, soon after a transaction that appended events
	// commits (in this process, and in others over the same database when
	// the store can tell), until stop is called. wake must not block. A
	// store that cannot tell may never call it: dispatchers poll too.
	WatchEvents(wake func()) (stop func())
}

// Delivery is a claimed sendout with what its try needs.
type Delivery struct {
	Sendout *Sendout
	Event   *promotype.Event
	// Webhook is the configuration as it is now; nil once deleted.
	Webhook *Webhook
	// Secret is the project's webhook token, which signs the body.
	Secret string
}

// Outcome is the result of one try of a claimed sendout, to record.
type Outcome struct {
	Sendout *Sendout
	// Deactivate is set after the last try failed: the configuration is
	// made inactive with the outcome.
	Deactivate bool
}
