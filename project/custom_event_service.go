package project

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// CustomEventStore is the storage port of custom events: the schemas that
// define them, the events, and the customers they are about.
type CustomEventStore interface {
	SettingsStore
	customer.Store
}

// CustomEventService records the custom events of POST /v1/events.
type CustomEventService struct {
	store CustomEventStore
	tx    promotype.TxFunc[CustomEventStore]
	env   promotype.Env
}

// NewCustomEventService returns a custom event service.
func NewCustomEventService(store CustomEventStore, tx promotype.TxFunc[CustomEventStore], env promotype.Env) *CustomEventService {
	return &CustomEventService{store: store, tx: tx, env: env}
}

// TrackParams is the body of POST /v1/events: a custom event of a name that
// a custom event schema of the project defines, for a customer (created
// when unknown, updated otherwise, by id or source_id).
type TrackParams struct {
	Event    *string            `json:"event"`
	Customer *customer.Params   `json:"customer"`
	Referral *ReferralRef       `json:"referral"` // the referral code the event converts with
	Loyalty  *LoyaltyRef        `json:"loyalty"`  // the loyalty card the event credits
	Metadata promotype.Metadata `json:"metadata"`
}

// ReferralRef names the referral code (and, optionally, its referrer) a
// custom event converts a referral program's referee with.
type ReferralRef struct {
	Code       string `json:"code"`
	ReferrerID string `json:"referrer_id"`
}

// LoyaltyRef names the loyalty card a custom event credits.
type LoyaltyRef struct {
	Code string `json:"code"`
}

// TrackedCustomer is the simple customer object of a custom event response.
type TrackedCustomer struct {
	ID       string             `json:"id"`
	Name     *string            `json:"name"`
	Email    *string            `json:"email"`
	SourceID *string            `json:"source_id"`
	Metadata promotype.Metadata `json:"metadata"`
	Object   string             `json:"object"`
}

// Tracked is the answer of POST /v1/events (object "event").
type Tracked struct {
	Object   string             `json:"object"`
	Type     string             `json:"type"`
	Customer TrackedCustomer    `json:"customer"`
	Referral *struct{}          `json:"referral"` // always null
	Loyalty  *struct{}          `json:"loyalty"`  // always null
	Metadata promotype.Metadata `json:"metadata"`
}

// Track records a custom event: the name must be a custom event schema
// of the project, its metadata must satisfy the schema's properties (those
// not deleted; other keys are accepted), the customer is upserted, and the
// event is stored with the customer, entered in its activity log as
// customer.custom_event, and told to env.Trigger (loyalty earning on
// custom events), in one transaction.
func (s *CustomEventService) Track(ctx context.Context, projectID string, in TrackParams) (*Tracked, error) {
	if in.Event == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'event'")
	}
	if n := utf8.RuneCountInString(*in.Event); n < 1 || n > 300 {
		return nil, promotype.InvalidPayload("Property .event must NOT have fewer than 1 characters or more than 300 characters")
	}
	if in.Customer == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'customer'")
	}
	if in.Referral != nil && in.Referral.Code == "" {
		return nil, promotype.InvalidPayload("Property .referral must have required property 'code'")
	}
	if err := in.Customer.Validate(".customer"); err != nil {
		return nil, err
	}
	schema, err := s.store.FindCustomEventSchema(ctx, projectID, *in.Event)
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
		if err := s.env.CheckMeta(ctx, projectID, "customer", in.Customer.Metadata); err != nil {
			return nil, err
		}
	}
	ev := &CustomEvent{
		ID:        s.env.IDs.NewID(promotype.PrefixCustomEvent),
		ProjectID: projectID,
		Type:      *in.Event,
		Metadata:  in.Metadata.Clone(),
		CreatedAt: s.env.Clock.Now(),
	}
	if ev.Metadata == nil {
		ev.Metadata = promotype.Metadata{}
	}
	var c *customer.Customer
	err = s.tx(ctx, func(ctx context.Context, tx CustomEventStore) error {
		var err error
		if c, err = customer.Upsert(ctx, tx, s.env, projectID, *in.Customer); err != nil {
			return err
		}
		ev.CustomerID = c.ID
		if err := tx.InsertCustomEvent(ctx, ev); err != nil {
			return err
		}
		a, err := promotype.NewActivity(s.env, projectID, c.ID, customer.ActivityCustomEvent, ev.ID, map[string]any{"event": ev, "customer": c})
		if err != nil {
			return err
		}
		if err := tx.AppendEvents(ctx, a); err != nil {
			return err
		}
		t := promotype.Trigger{Event: a}
		if in.Loyalty != nil {
			t.LoyaltyCode = in.Loyalty.Code
		}
		if in.Referral != nil {
			t.ReferralCode, t.ReferrerID = in.Referral.Code, in.Referral.ReferrerID
		}
		return s.env.Trigger(ctx, tx, t)
	})
	if err != nil {
		return nil, err
	}
	meta := c.Metadata.Clone()
	if meta == nil {
		meta = promotype.Metadata{}
	}
	return &Tracked{
		Object:   "event",
		Type:     ev.Type,
		Customer: TrackedCustomer{ID: c.ID, Name: c.Name, Email: c.Email, SourceID: c.SourceID, Metadata: meta, Object: "customer"},
		Metadata: ev.Metadata.Clone(),
	}, nil
}

// List lists the custom events a project received, oldest first
// (filters: created_at).
func (s *CustomEventService) List(ctx context.Context, projectID string, p promotype.ListParams) (*promotype.List[*CustomEvent], error) {
	q, err := p.Query(SettingsListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items, total, err := s.store.ListCustomEvents(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	return promotype.NewList(items, total, q), nil
}
