package webhook

import (
	"github.com/promoengine/promo/promotype"
)

// PrefixSendout starts the id of a sendout, which is also the id of the
// delivered envelope.
const PrefixSendout = "whs_"

// SendoutStatus is where a sendout stands.
type SendoutStatus string

// Sendout statuses.
const (
	// SendoutPending waits for its first try or a retry (or is being tried:
	// a claimed sendout stays pending, leased until its next_attempt_at).
	SendoutPending SendoutStatus = "PENDING"
	// SendoutDelivered was answered 2xx.
	SendoutDelivered SendoutStatus = "DELIVERED"
	// SendoutFailed failed its last try: it was given up and its
	// configuration deactivated.
	SendoutFailed SendoutStatus = "FAILED"
	// SendoutCanceled was not sent: its configuration was deactivated or
	// deleted before its turn.
	SendoutCanceled SendoutStatus = "CANCELED"
)

// Sendout is the delivery of one event to one webhook configuration (object
// "webhook_sendout"), with its tries. Its id is the id of the envelope it
// sends, the same on every try.
type Sendout struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	WebhookID string `json:"webhook_id"`
	EventID   string `json:"event_id"`
	EventType string `json:"event_type"`
	// TargetURL is the configuration's target when the sendout was made:
	// every try goes there with the same body.
	TargetURL string         `json:"target_url"`
	Status    SendoutStatus  `json:"status"`
	Attempts  int            `json:"attempts"`
	CreatedAt promotype.Time `json:"created_at"`
	// NextAttemptAt is when a pending sendout is due (for a claimed one,
	// when its lease ends); nil once it is settled.
	NextAttemptAt  *promotype.Time `json:"next_attempt_at"`
	LastAttemptAt  *promotype.Time `json:"last_attempt_at"`
	DeliveredAt    *promotype.Time `json:"delivered_at"`
	LastStatusCode *int            `json:"last_status_code"`
	LastError      *string         `json:"last_error"`
	ProjectID      string          `json:"-"`
}

// Clone returns a deep copy.
func (s *Sendout) Clone() *Sendout {
	c := *s
	c.NextAttemptAt = promotype.ClonePtr(s.NextAttemptAt)
	c.LastAttemptAt = promotype.ClonePtr(s.LastAttemptAt)
	c.DeliveredAt = promotype.ClonePtr(s.DeliveredAt)
	c.LastStatusCode = promotype.ClonePtr(s.LastStatusCode)
	c.LastError = promotype.ClonePtr(s.LastError)
	return &c
}

// Field returns a filterable or orderable field of s.
func (s *Sendout) Field(name string) promotype.Value {
	switch name {
	case "created_at":
		return promotype.Value{Time: s.CreatedAt}
	case "status":
		return promotype.Value{Str: string(s.Status)}
	}
	return promotype.Value{Null: true}
}

// SendoutListSpec is what a sendout list accepts: newest first by default.
var SendoutListSpec = promotype.ListSpec{
	Orders:       []string{"created_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"created_at": promotype.FieldTime,
		"status":     promotype.FieldString,
	},
}

// Hears reports whether configuration w is sent event e: w belongs to e's
// project, is active, lists e's type and existed when e happened (a
// configuration hears of the events after its creation only).
func Hears(w *Webhook, e *promotype.Event) bool {
	return w.ProjectID == e.ProjectID && w.Active && Listens(w.Events, e.Type) && !w.CreatedAt.After(e.CreatedAt.Time)
}

// NewSendout returns the pending sendout of event e to configuration w,
// due at once.
func NewSendout(env promotype.Env, w *Webhook, e *promotype.Event) *Sendout {
	now := env.Clock.Now()
	return &Sendout{
		ID: env.IDs.NewID(PrefixSendout), Object: "webhook_sendout", ProjectID: e.ProjectID,
		WebhookID: w.ID, EventID: e.ID, EventType: e.Type, TargetURL: w.TargetURL,
		Status: SendoutPending, CreatedAt: now, NextAttemptAt: now.Ptr(),
	}
}
