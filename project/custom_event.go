package project

import "github.com/promoengine/promo/promotype"

// CustomEvent is a custom event a project received (POST /v1/events), as
// stored: the event name, the customer it is linked to and its metadata.
type CustomEvent struct {
	ID         string             `json:"id"`
	Type       string             `json:"type"`
	CustomerID string             `json:"customer_id"`
	Metadata   promotype.Metadata `json:"metadata"`
	CreatedAt  promotype.Time     `json:"created_at"`
	ProjectID  string             `json:"-"`
}

// Clone returns a deep copy.
func (e *CustomEvent) Clone() *CustomEvent {
	c := *e
	c.Metadata = e.Metadata.Clone()
	return &c
}

// Field returns a filterable or orderable field of e.
func (e *CustomEvent) Field(name string) promotype.Value {
	switch name {
	case "created_at":
		return promotype.Value{Time: e.CreatedAt}
	case "type":
		return promotype.Value{Str: e.Type}
	}
	return promotype.Value{Null: true}
}
