package promotype

import (
	"bytes"
	"context"
	"encoding/json"
)

// PrefixEvent starts the id of an outbox event.
const PrefixEvent = "evt_"

// Event is a change a project's webhook configurations may be told of,
// and a customer's activity log may record. Services write it with
// EventStore.AppendEvents in the transaction of the change (a
// transactional outbox): an event exists exactly when its change
// committed, and the webhook dispatcher delivers it afterwards.
type Event struct {
	ID        string // "evt_…"; also the id of its activity
	ProjectID string
	// Type is the event name as webhook configurations spell it (one of
	// webhook.Events, "aded" included); "" for an activity that no
	// webhook hears of (NewActivity).
	Type string
	// EntityID is the id of the resource the event is about.
	EntityID  string
	CreatedAt Time
	// Data is the delivery's data object, encoded when the change happened.
	Data json.RawMessage
	// Activity, when set, enters the event in a customer's activity log,
	// with the same id, time and data.
	Activity *Activity
}

// Activity says which customer's activity log records an event, and as
// what (GET /v1/customers/{customerId}/activity).
type Activity struct {
	CustomerID string
	// Type is the activity type ("customer.redemption.succeeded").
	Type string
	// CampaignID and CampaignType name the campaign the activity is about
	// ("" for none), for the log's filters.
	CampaignID   string
	CampaignType string
}

// For enters e in the activity log of the customer customerID as an
// activity of type typ and returns e; an empty customerID records none.
func (e *Event) For(customerID, typ string) *Event {
	if customerID != "" {
		e.Activity = &Activity{CustomerID: customerID, Type: typ}
	}
	return e
}

// InCampaign names the campaign of e's activity (if e has one) and returns e.
func (e *Event) InCampaign(id, campaignType string) *Event {
	if e.Activity != nil {
		e.Activity.CampaignID, e.Activity.CampaignType = id, campaignType
	}
	return e
}

// NewActivity returns an event that only enters the activity log of the
// customer customerID as typ (no webhook hears of it: Type is empty), about
// entityID, with data encoded as NewEvent does.
func NewActivity(env Env, projectID, customerID, typ, entityID string, data any) (*Event, error) {
	e, err := NewEvent(env, projectID, "", entityID, data)
	if err != nil {
		return nil, err
	}
	return e.For(customerID, typ), nil
}

// EventStore is the port through which services record events: a store
// bound to a transaction writes them in that transaction.
type EventStore interface {
	// AppendEvents writes to the outbox the events an active webhook
	// configuration of their project, existing by then, lists; the others
	// could never be delivered (a configuration hears only of later
	// events), so they are dropped rather than stored for nobody. Every
	// event with an Activity enters its customer's activity log, heard or
	// not, in the same transaction.
	//
	// A store may keep an event's Data without copying it (everything
	// else of the event it copies): the caller must not change Data once
	// the event is appended, nor reuse its bytes. NewEvent's Data is a
	// slice of its own that nothing changes.
	AppendEvents(ctx context.Context, events ...*Event) error
	// Heard reports whether AppendEvents would keep an event of type typ
	// of the project created at at: whether an active configuration of
	// the project, existing by then, lists it. A change asks before it
	// builds an event's data (encoding, reads), which nobody may hear.
	Heard(ctx context.Context, projectID, typ string, at Time) (bool, error)
}

// NewEvent returns an event (id from env.OutboxID) of type typ about
// entityID, created now, with
// data encoded as compact JSON (no HTML escaping) for its payload.
func NewEvent(env Env, projectID, typ, entityID string, data any) (*Event, error) {
	raw, err := encodeEventData(data)
	if err != nil {
		return nil, err
	}
	return &Event{
		ID: env.OutboxID(PrefixEvent), ProjectID: projectID, Type: typ, EntityID: entityID,
		CreatedAt: env.Clock.Now(), Data: raw,
	}, nil
}

// encodeEventData is data encoded as compact JSON (no HTML escaping, no
// trailing newline) in a slice of its own: encoded into a recycled buffer
// (grown by earlier events, not from nothing each time) and copied out at
// its exact size and capacity, so that the holders a store shares it
// between (AppendEvents) cannot append into each other's bytes.
func encodeEventData(data any) (json.RawMessage, error) {
	e := GetEncoder()
	defer e.Put()
	out, err := e.Encode(data)
	if err != nil {
		return nil, err
	}
	raw := bytes.Clone(bytes.TrimSuffix(out, []byte("\n")))
	return raw[:len(raw):len(raw)], nil // an append to a holder's Data copies
}

// Clone returns a copy that shares nothing with e.
func (e *Event) Clone() *Event {
	c := *e
	c.Data = bytes.Clone(e.Data)
	c.Activity = ClonePtr(e.Activity)
	return &c
}

// AppendEvent appends one event (see NewEvent) through st, the transaction
// of the change it tells of, when a configuration hears it (st.Heard).
func AppendEvent(ctx context.Context, st EventStore, env Env, projectID, typ, entityID string, data any) error {
	return AppendEventFunc(ctx, st, env, projectID, typ, entityID, func() (any, error) { return data, nil })
}

// AppendEventFunc is AppendEvent for data that costs something to gather
// (reads of the transaction): data is called only when a configuration
// hears the event.
func AppendEventFunc(ctx context.Context, st EventStore, env Env, projectID, typ, entityID string, data func() (any, error)) error {
	return AppendEventFor(ctx, st, env, projectID, typ, entityID, nil, data)
}

// AppendEventFor is AppendEventFunc for an event that also enters a
// customer's activity log as a (nil, or without a customer, for none):
// such an event is built whether or not a configuration hears it, since
// the log is written either way (AppendEvents keeps the activity and drops
// an unheard event).
func AppendEventFor(ctx context.Context, st EventStore, env Env, projectID, typ, entityID string, a *Activity, data func() (any, error)) error {
	logged := a != nil && a.CustomerID != ""
	if !logged {
		if heard, err := st.Heard(ctx, projectID, typ, env.Clock.Now()); err != nil || !heard {
			return err
		}
	}
	d, err := data()
	if err != nil {
		return err
	}
	ev, err := NewEvent(env, projectID, typ, entityID, d)
	if err != nil {
		return err
	}
	if logged {
		ev.Activity = a
	}
	return st.AppendEvents(ctx, ev)
}
