package promotype

import (
	"context"
	"time"
)

// Env is what every domain service needs besides its store: the time and new ids.
type Env struct {
	Clock Clock
	IDs   IDGenerator
	// OutboxIDs makes the ids of webhook events and deliveries. It is not
	// IDs, so that the ids resources get do not depend on what the engine
	// records for webhooks (tests with SequentialIDs keep their ids). Nil
	// means crypto-random ids.
	OutboxIDs IDGenerator
	// CheckMetadata checks the metadata of a create or update of a resource
	// of kind relatedObject ("product", "reward", ...) against the project's
	// metadata schema for it, if there is one (400
	// metadata_validation_failed). Nil means no check. Services call it
	// through CheckMeta, outside their transactions.
	CheckMetadata func(ctx context.Context, projectID, relatedObject string, m Metadata) error
	// Changed is told, after the commit, of every write that can change
	// the answer of a validation in the project: campaigns, tiers, stacks,
	// validation rules and assignments, catalog prices, the project's time
	// zone. The engine points it at the promotion cache. Nil means nobody
	// listens. Services call it through Change.
	Changed func(projectID string)
	// Triggered, when set, is told inside the writing transaction of the
	// changes that automations answer in that same transaction: an order
	// whose status has just become PAID (created PAID, updated to PAID, or
	// recorded PAID by a redemption) and a custom event. tx is the store
	// bound to that transaction, with every port the store has. An error
	// fails the change. The engine points it at loyalty earning.
	Triggered func(ctx context.Context, tx EventStore, t Trigger) error
	// Location, when set, returns the time zone of a project, in which a
	// date alone (start_date "2026-01-02") is read as a whole day. Nil
	// means UTC. Services call it through ProjectLocation.
	Location func(ctx context.Context, projectID string) (*time.Location, error)
	// Step, when set, observes the engine's steps (validations, async
	// actions, webhook tries); see StepFunc. Nil costs a nil check.
	Step StepFunc
}

// Change tells env.Changed, when it is set, that projectID changed.
func (e Env) Change(projectID string) {
	if e.Changed != nil {
		e.Changed(projectID)
	}
}

// ProjectLocation is the project's time zone from env.Location, UTC when
// it is not set.
func (e Env) ProjectLocation(ctx context.Context, projectID string) (*time.Location, error) {
	if e.Location == nil {
		return time.UTC, nil
	}
	return e.Location(ctx, projectID)
}

// CheckMeta runs env.CheckMetadata when it is set.
func (e Env) CheckMeta(ctx context.Context, projectID, relatedObject string, m Metadata) error {
	if e.CheckMetadata == nil {
		return nil
	}
	return e.CheckMetadata(ctx, projectID, relatedObject, m)
}

// OutboxID returns a new outbox id with prefix (see OutboxIDs).
func (e Env) OutboxID(prefix string) string {
	if e.OutboxIDs == nil {
		return RandomIDs{}.NewID(prefix)
	}
	return e.OutboxIDs.NewID(prefix)
}

// DefaultEnv is the wall clock and crypto-random ids.
func DefaultEnv() Env { return Env{Clock: SystemClock{}, IDs: RandomIDs{}} }

// Trigger is a change an automation may answer (Env.Triggered): the
// customer activity the change appended (customer.order.paid, whose Data is
// {"order": …}; customer.custom_event, whose Data is {"event": …,
// "customer": …}; customer.created and customer.updated, whose Data is
// {"customer": …}; customer.segment.entered, whose Data is {"customer": …,
// "segment": …}).
type Trigger struct {
	Event *Event
	// Subject is the record the change wrote, when the event is about one
	// the automations read as it is (the *customer.Customer of
	// customer.created and customer.updated); nil otherwise.
	Subject any
	// LoyaltyCode is the loyalty card a custom event names ("": none).
	LoyaltyCode string
	// ReferralCode and ReferrerID are the referral code and referrer a
	// custom event names ("": none).
	ReferralCode, ReferrerID string
}

// Trigger tells env.Triggered of t, when it is set.
func (e Env) Trigger(ctx context.Context, tx EventStore, t Trigger) error {
	if e.Triggered == nil {
		return nil
	}
	return e.Triggered(ctx, tx, t)
}
