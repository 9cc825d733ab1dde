package webhook

import (
	"encoding/json"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// Envelope is the body of a webhook delivery. Every
// field comes from the stored sendout and event, so a retry sends the same
// bytes, with the same signature.
type Envelope struct {
	ID        string         `json:"id"` // the sendout's, "whs_…"
	ProjectID string         `json:"project_id"`
	CreatedAt promotype.Time `json:"created_at"` // when the sendout was made
	// Type is the event name as the payload documentation spells it
	// (DeliveredType): configurations list "campaign.vouchers.aded", the
	// bodies the hosted service documents say "campaign.vouchers.added".
	Type   string          `json:"type"`
	Data   json.RawMessage `json:"data"`
	Source EnvelopeSource  `json:"source"`
	Event  EnvelopeEvent   `json:"event"`
}

// EnvelopeSource names the configuration a delivery is made for.
type EnvelopeSource struct {
	ID        string `json:"id"`
	Object    string `json:"object"` // "webhook"
	TargetURL string `json:"target_url"`
}

// EnvelopeEvent describes the event delivered.
type EnvelopeEvent struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	CreatedAt promotype.Time `json:"created_at"`
	EntityID  string         `json:"entity_id"`
	// GroupID groups the events of one request on the hosted service (its
	// request id). The outbox does not record request ids, so it is the
	// event's own id: each event is its own group.
	GroupID     string      `json:"group_id"`
	EventSource EventSource `json:"event_source"`
}

// EventSource tells what caused an event; this engine's events come from
// API calls.
type EventSource struct {
	Channel string `json:"channel"`
}

// DeliveredType is the name a delivery carries for event name typ as
// configurations spell it: the four "aded" names of the configuration enum
// are delivered spelt "added", as the documented payloads spell them
// (a configuration names "voucher.gift.balance_aded", its deliveries
// "voucher.gift.balance_added").
func DeliveredType(typ string) string { return strings.ReplaceAll(typ, "aded", "added") }

// NewEnvelope returns the envelope of sendout s of event e.
func NewEnvelope(s *Sendout, e *promotype.Event) Envelope {
	data := e.Data
	if len(data) == 0 || string(data) == "null" {
		data = json.RawMessage("{}")
	}
	return Envelope{
		ID: s.ID, ProjectID: s.ProjectID, CreatedAt: s.CreatedAt, Type: DeliveredType(e.Type), Data: data,
		Source: EnvelopeSource{ID: s.WebhookID, Object: "webhook", TargetURL: s.TargetURL},
		Event: EnvelopeEvent{ID: e.ID, Type: DeliveredType(e.Type), CreatedAt: e.CreatedAt, EntityID: e.EntityID,
			GroupID: e.ID, EventSource: EventSource{Channel: "API"}},
	}
}

// Body returns the bytes a try of s sends: the envelope, encoded by Marshal.
func Body(s *Sendout, e *promotype.Event) ([]byte, error) {
	return Marshal(NewEnvelope(s, e))
}
