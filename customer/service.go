package customer

import (
	"context"
	"errors"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// Service is the customer use cases over a [Store].
type Service struct {
	store             Store
	tx                promotype.TxFunc[Store]
	env               promotype.Env
	orderSummary      OrderSummaryFunc
	redemptionSummary RedemptionSummaryFunc
	loyaltySummary    LoyaltySummaryFunc
	referralSummary   ReferralSummaryFunc
}

// NewService returns a customer service reading through store and writing in
// transactions opened by tx.
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env) *Service {
	return &Service{store: store, tx: tx, env: env}
}

// check validates in and its metadata against the project's customer
// schema.
func (s *Service) check(ctx context.Context, projectID string, in Params) error {
	if err := in.Validate(""); err != nil {
		return err
	}
	if in.Metadata != nil {
		return s.env.CheckMeta(ctx, projectID, "customer", in.Metadata)
	}
	return nil
}

// Upsert creates a customer, or updates the one its id or source_id names
// (POST /v1/customers).
func (s *Service) Upsert(ctx context.Context, projectID string, in Params) (*Customer, error) {
	if err := s.check(ctx, projectID, in); err != nil {
		return nil, err
	}
	var out *Customer
	upsert := func(ctx context.Context, st Store) error {
		c, err := Upsert(ctx, st, s.env, projectID, in)
		out = c
		return err
	}
	err := promotype.RetryUpsert(ctx, func() error { return s.tx(ctx, upsert) })
	if err != nil {
		return nil, err
	}
	return s.present(ctx, out)
}

// Get returns a customer by id or source id, with its summary.
func (s *Service) Get(ctx context.Context, projectID, ref string) (*Customer, error) {
	c, err := Resolve(ctx, s.store, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.present(ctx, c)
}

// Upsert is the customer upsert over st, for callers that run it inside their
// own transaction (an order naming its customer). An id must name an existing
// customer (else 404); otherwise a source id names the customer to update or
// create; with neither, a new customer without a source id is created. A
// stored customer is written only when in sets a field besides its keys, so
// naming a customer by {id} or {source_id} leaves its updated_at alone. A
// create records customer.created through st. in must have passed Validate.
func Upsert(ctx context.Context, st Store, env promotype.Env, projectID string, in Params) (*Customer, error) {
	c, err := promotype.UpsertTarget(ctx, "customer", in.ID, in.SourceID, st.GetCustomer, st.FindCustomerBySourceID, projectID)
	if err != nil {
		return nil, err
	}
	if c != nil {
		if !in.changesOf(c) {
			return c.normalize(), nil
		}
		in.apply(c)
		c.UpdatedAt = env.Clock.Now().Ptr()
		if err := st.UpdateCustomer(ctx, c); err != nil {
			return nil, err
		}
		return c.normalize(), updatedActivity(ctx, st, env, c)
	}
	return create(ctx, st, env, projectID, in)
}

// UpsertSeen is Upsert for a customer the caller looked up moments ago
// (before its transaction): seen is what it found, nil for none. When in
// changes nothing of seen, seen is the answer and nothing is read or
// written; when the caller found none, it inserts first (one statement
// instead of a read and an insert) and upserts as Upsert does when the
// insert finds the source id taken (a concurrent request created the
// customer meanwhile). Under read committed this is what Upsert's own read
// would see: neither locks the customer's row. fresh reports that the
// answer is the customer that first insert created, with an id nothing
// else (no ledger row, no counter) can name yet.
func UpsertSeen(ctx context.Context, st Store, env promotype.Env, projectID string, in Params, seen *Customer) (c *Customer, fresh bool, err error) {
	switch {
	case seen != nil:
		if in.changesOf(seen) || (in.ID != nil && *in.ID != seen.ID) {
			c, err = Upsert(ctx, st, env, projectID, in)
			return c, false, err
		}
		return seen.Clone().normalize(), false, nil
	case in.ID != nil || in.SourceID == nil:
		c, err = Upsert(ctx, st, env, projectID, in)
		return c, false, err
	}
	c, err = create(ctx, st, env, projectID, in)
	if errors.Is(err, promotype.ErrDuplicateFound) {
		c, err = Upsert(ctx, st, env, projectID, in)
		return c, false, err
	}
	return c, err == nil, err
}

// create stores a new customer from in and its customer.created event.
func create(ctx context.Context, st Store, env promotype.Env, projectID string, in Params) (*Customer, error) {
	c := &Customer{ID: env.IDs.NewID(promotype.PrefixCustomer), ProjectID: projectID, CreatedAt: env.Clock.Now()}
	in.apply(c)
	if err := st.InsertCustomer(ctx, c); err != nil {
		return nil, err
	}
	c.normalize()
	ev, err := promotype.NewEvent(env, projectID, EventCreated, c.ID, map[string]any{"customer": c})
	if err != nil {
		return nil, err
	}
	if err := st.AppendEvents(ctx, ev.For(c.ID, ActivityCreated)); err != nil {
		return nil, err
	}
	return c, env.Trigger(ctx, st, promotype.Trigger{Event: ev, Subject: c})
}

// updatedActivity enters customer.updated in the activity log of c (just
// written and normalized) through st: no webhook configuration can list it.
// The automations answering a customer change (segment membership) are
// told of it in the same transaction.
func updatedActivity(ctx context.Context, st Store, env promotype.Env, c *Customer) error {
	ev, err := promotype.NewActivity(env, c.ProjectID, c.ID, ActivityUpdated, c.ID, map[string]any{"customer": c})
	if err != nil {
		return err
	}
	if err := st.AppendEvents(ctx, ev); err != nil {
		return err
	}
	return env.Trigger(ctx, st, promotype.Trigger{Event: ev, Subject: c})
}

// Webhook events of customers, written to the outbox in the transaction of
// the change, each with data {customer}: customer.created by a create
// (Upsert), customer.deleted when a live customer is deleted (to the bin
// or permanently). The customer's activity log records them too (but a
// permanent deletion deletes the log), and customer.updated, which no
// configuration can list.
const (
	EventCreated = "customer.created"
	EventDeleted = "customer.deleted"
)

// Reader is what Resolve reads (a Store).
type Reader interface {
	GetCustomer(ctx context.Context, projectID, id string) (*Customer, error)
	FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (*Customer, error)
}

// Resolve returns the customer with id or source id ref (404 naming ref when
// there is none), read through st. Customer ids are the engine's
// (promotype.PrefixCustomer + random), so a ref without that prefix is
// looked up as a source id only: one read instead of two.
func Resolve(ctx context.Context, st Reader, projectID, ref string) (*Customer, error) {
	byID := st.GetCustomer
	if !strings.HasPrefix(ref, promotype.PrefixCustomer) {
		byID = func(context.Context, string, string) (*Customer, error) { return nil, promotype.ErrNotFound }
	}
	c, err := promotype.Resolve(ctx, "customer", ref, projectID, byID, st.FindCustomerBySourceID)
	if err != nil {
		return nil, err
	}
	return c.normalize(), nil
}
