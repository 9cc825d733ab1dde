package promo

import (
	"context"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// EventParams is the body of POST /v1/events: a custom event of a name that
// a custom event schema of the project defines, for a customer (created
// when unknown, updated otherwise, by id or source_id).
type EventParams struct {
	Event    *string            `json:"event"`
	Customer *customer.Params   `json:"customer"`
	Referral json.RawMessage    `json:"referral"` // accepted; referral programs are not in the engine
	Loyalty  json.RawMessage    `json:"loyalty"`  // accepted; loyalty programs are not in the engine
	Metadata promotype.Metadata `json:"metadata"`
}

// EventCustomer is the simple customer object of a custom event response.
type EventCustomer struct {
	ID       string             `json:"id"`
	Name     *string            `json:"name"`
	Email    *string            `json:"email"`
	SourceID *string            `json:"source_id"`
	Metadata promotype.Metadata `json:"metadata"`
	Object   string             `json:"object"`
}

// Event is the answer of POST /v1/events (object "event").
type Event struct {
	Object   string             `json:"object"`
	Type     string             `json:"type"`
	Customer EventCustomer      `json:"customer"`
	Referral *struct{}          `json:"referral"` // always null
	Loyalty  *struct{}          `json:"loyalty"`  // always null
	Metadata promotype.Metadata `json:"metadata"`
}

// TrackEvent records a custom event: the name must be a custom event schema
// of the project, its metadata must satisfy the schema's properties (those
// not deleted; other keys are accepted), the customer is upserted, and the
// event is stored with the customer in one transaction.
func (e *Engine) TrackEvent(ctx context.Context, projectID string, in EventParams) (*Event, error) {
	if in.Event == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'event'")
	}
	if n := utf8.RuneCountInString(*in.Event); n < 1 || n > 300 {
		return nil, promotype.InvalidPayload("Property .event must NOT have fewer than 1 characters or more than 300 characters")
	}
	if in.Customer == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'customer'")
	}
	if err := in.Customer.Validate(".customer"); err != nil {
		return nil, err
	}
	schema, err := e.store.FindCustomEventSchema(ctx, projectID, *in.Event)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil, promotype.InvalidPayload("Property .event must be the name of a custom event schema of the project: %s is not defined", *in.Event)
	}
	if err != nil {
		return nil, err
	}
	if err := schema.MetadataSchema().Check(in.Metadata); err != nil {
		return nil, err
	}
	if in.Customer.Metadata != nil {
		if err := e.env.CheckMeta(ctx, projectID, "customer", in.Customer.Metadata); err != nil {
			return nil, err
		}
	}
	ev := &project.CustomEvent{
		ID:        e.env.IDs.NewID(promotype.PrefixCustomEvent),
		ProjectID: projectID,
		Type:      *in.Event,
		Metadata:  in.Metadata.Clone(),
		CreatedAt: e.env.Clock.Now(),
	}
	if ev.Metadata == nil {
		ev.Metadata = promotype.Metadata{}
	}
	var c *customer.Customer
	err = e.store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		var err error
		if c, err = customer.Upsert(ctx, tx, e.env, projectID, *in.Customer); err != nil {
			return err
		}
		ev.CustomerID = c.ID
		return tx.InsertCustomEvent(ctx, ev)
	})
	if err != nil {
		return nil, err
	}
	meta := c.Metadata.Clone()
	if meta == nil {
		meta = promotype.Metadata{}
	}
	return &Event{
		Object:   "event",
		Type:     ev.Type,
		Customer: EventCustomer{ID: c.ID, Name: c.Name, Email: c.Email, SourceID: c.SourceID, Metadata: meta, Object: "customer"},
		Metadata: ev.Metadata.Clone(),
	}, nil
}

// ListEvents lists the custom events a project received, oldest first
// (filters: created_at).
func (e *Engine) ListEvents(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*project.CustomEvent], error) {
	q, err := p.Query(project.SettingsListSpec, e.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items, total, err := e.store.ListCustomEvents(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	return promotype.NewList(items, total, q), nil
}
