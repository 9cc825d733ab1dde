package customer

import (
	"github.com/promoengine/promo/promotype"
)

// Customer is a customer record (object "customer"): created or updated by
// source id when a customer upsert, an order, a validation or a custom event
// names it. The identifying and descriptive fields are stored; the computed
// parts (summary, loyalty, referrals, system_metadata) are filled in the
// answers of the customer service.
type Customer struct {
	ID          string   `json:"id"`
	SourceID    *string  `json:"source_id"`
	Name        *string  `json:"name"`
	Description *string  `json:"description"`
	Email       *string  `json:"email"`
	Phone       *string  `json:"phone"`
	Birthdate   *string  `json:"birthdate"` // YYYY-MM-DD
	Address     *Address `json:"address"`
	// Summary, Loyalty and Referrals are derived, filled in the answers of
	// the customer service (never stored).
	Summary   *Summary         `json:"summary,omitempty"`
	Loyalty   *LoyaltySummary  `json:"loyalty,omitempty"`
	Referrals *ReferralSummary `json:"referrals,omitempty"`
	// SystemMetadata is the hosted service's system metadata: always {}
	// in answers of the customer service, omitted elsewhere.
	SystemMetadata map[string]any `json:"system_metadata,omitzero"`
	// Assets is null in answers of the customer service, as the hosted
	// service answers it (its customer cockpits were removed; this engine
	// has none), and omitted elsewhere (docs/behaviour.md, issue 29).
	Assets NullAssets `json:"assets,omitzero"`
	// Metadata is omitted when empty and UpdatedAt before any update, as
	// the hosted service answers a customer.
	Metadata  promotype.Metadata `json:"metadata,omitempty"`
	CreatedAt promotype.Time     `json:"created_at"`
	UpdatedAt *promotype.Time    `json:"updated_at,omitempty"`
	Object    string             `json:"object"`

	ProjectID string          `json:"-"`
	BinnedAt  *promotype.Time `json:"-"` // set while the customer is in the bin
}

// NullAssets is a customer's assets (OpenAPI
// CustomerWithSummaryLoyaltyReferrals.assets, the cockpit links): true
// answers null, false leaves the member out (omitzero).
type NullAssets bool

// IsZero reports whether the member is left out.
func (a NullAssets) IsZero() bool { return !bool(a) }

// MarshalJSON writes null.
func (NullAssets) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// UnmarshalJSON ignores what it reads: this engine keeps no cockpit links.
func (*NullAssets) UnmarshalJSON([]byte) error { return nil }

// Address is a customer's postal address.
type Address struct {
	City       *string `json:"city"`
	State      *string `json:"state"`
	Line1      *string `json:"line_1"`
	Line2      *string `json:"line_2"`
	Country    *string `json:"country"`
	PostalCode *string `json:"postal_code"`
}

// Clone returns a deep copy of the stored fields; the derived parts of an
// answer (summary, loyalty, referrals, system_metadata, assets) are left out, as
// stores never hold them.
func (c *Customer) Clone() *Customer {
	out := *c
	out.SourceID = promotype.ClonePtr(c.SourceID)
	out.Name = promotype.ClonePtr(c.Name)
	out.Description = promotype.ClonePtr(c.Description)
	out.Email = promotype.ClonePtr(c.Email)
	out.Phone = promotype.ClonePtr(c.Phone)
	out.Birthdate = promotype.ClonePtr(c.Birthdate)
	out.Address = c.Address.Clone()
	out.UpdatedAt = promotype.ClonePtr(c.UpdatedAt)
	out.BinnedAt = promotype.ClonePtr(c.BinnedAt)
	out.Summary, out.Loyalty, out.Referrals, out.SystemMetadata, out.Assets = nil, nil, nil, nil, false
	out.Metadata = c.Metadata.Clone()
	return &out
}

// Clone returns a deep copy (nil for nil).
func (a *Address) Clone() *Address {
	if a == nil {
		return nil
	}
	return &Address{
		City:       promotype.ClonePtr(a.City),
		State:      promotype.ClonePtr(a.State),
		Line1:      promotype.ClonePtr(a.Line1),
		Line2:      promotype.ClonePtr(a.Line2),
		Country:    promotype.ClonePtr(a.Country),
		PostalCode: promotype.ClonePtr(a.PostalCode),
	}
}

func (c *Customer) normalize() *Customer {
	c.Object = "customer"
	if c.Metadata == nil {
		c.Metadata = promotype.Metadata{}
	}
	return c
}

// Ref is how other resources point at a customer: {"id": ..., "object": "customer"}.
type Ref struct {
	ID     string `json:"id"`
	Object string `json:"object"`
}

// NewRef returns the reference to the customer with id id, or nil when id is nil.
func NewRef(id *string) *Ref {
	if id == nil {
		return nil
	}
	return &Ref{ID: *id, Object: "customer"}
}

// Field returns a filterable or orderable field of c (the customer list's
// and the customer export's: id, source_id, email, name, phone,
// address.city, created_at, updated_at).
func (c *Customer) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: c.ID}
	case "source_id":
		return promotype.StringValue(c.SourceID)
	case "email":
		return promotype.StringValue(c.Email)
	case "name":
		return promotype.StringValue(c.Name)
	case "phone":
		return promotype.StringValue(c.Phone)
	case "address.city":
		if c.Address == nil {
			return promotype.Value{Null: true}
		}
		return promotype.StringValue(c.Address.City)
	case "created_at":
		return promotype.Value{Time: c.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(c.UpdatedAt)
	}
	return promotype.Value{Null: true}
}
