package customer

import (
	"time"
	"unicode/utf8"

	"github.com/promoengine/promo/promotype"
)

// Params is the customer input object: the body of POST /v1/customers and
// the `customer` / `referrer` of an order. It is an upsert: an id names an
// existing customer (which must exist), else a source id names the customer
// to update or create. Absent fields are left unchanged on update; metadata
// and address given replace the stored ones.
type Params struct {
	ID          *string            `json:"id"`
	SourceID    *string            `json:"source_id"`
	Name        *string            `json:"name"`
	Description *string            `json:"description"`
	Email       *string            `json:"email"`
	Phone       *string            `json:"phone"`
	Birthdate   *string            `json:"birthdate"`
	Address     *Address           `json:"address"`
	Metadata    promotype.Metadata `json:"metadata"`
}

// Limits of the customer fields.
const (
	maxSourceID    = 200
	maxText        = 300
	maxDescription = 1000
)

// Validate checks in; path is the property path the details name it by ("",
// or ".customer" inside an order).
func (in Params) Validate(path string) error {
	if in.SourceID != nil {
		if n := utf8.RuneCountInString(*in.SourceID); n < 1 || n > maxSourceID {
			return promotype.InvalidPayload("Property %s.source_id must have between 1 and %d characters", path, maxSourceID)
		}
	}
	texts := []struct {
		name string
		v    *string
		max  int
	}{
		{"name", in.Name, maxText}, {"description", in.Description, maxDescription},
		{"email", in.Email, maxText}, {"phone", in.Phone, maxText},
	}
	if a := in.Address; a != nil {
		texts = append(texts, []struct {
			name string
			v    *string
			max  int
		}{
			{"address.city", a.City, maxText}, {"address.state", a.State, maxText}, {"address.line_1", a.Line1, maxText},
			{"address.line_2", a.Line2, maxText}, {"address.country", a.Country, maxText}, {"address.postal_code", a.PostalCode, maxText},
		}...)
	}
	for _, f := range texts {
		if f.v != nil && utf8.RuneCountInString(*f.v) > f.max {
			return promotype.InvalidPayload("Property %s.%s must NOT have more than %d characters", path, f.name, f.max)
		}
	}
	if in.Birthdate != nil {
		if _, err := time.Parse(time.DateOnly, *in.Birthdate); err != nil {
			return promotype.InvalidPayload("Property %s.birthdate must be a date (YYYY-MM-DD)", path)
		}
	}
	return nil
}

// changesOf reports whether in changes something of c: a field, or the
// source id.
func (in Params) changesOf(c *Customer) bool {
	return in.changes() || (in.SourceID != nil && (c.SourceID == nil || *c.SourceID != *in.SourceID))
}

// changes reports whether in sets any field besides the id.
func (in Params) changes() bool {
	return in.Name != nil || in.Description != nil || in.Email != nil || in.Phone != nil ||
		in.Birthdate != nil || in.Address != nil || in.Metadata != nil
}

func (in Params) apply(c *Customer) {
	if in.SourceID != nil {
		c.SourceID = promotype.ClonePtr(in.SourceID)
	}
	if in.Name != nil {
		c.Name = promotype.ClonePtr(in.Name)
	}
	if in.Description != nil {
		c.Description = promotype.ClonePtr(in.Description)
	}
	if in.Email != nil {
		c.Email = promotype.ClonePtr(in.Email)
	}
	if in.Phone != nil {
		c.Phone = promotype.ClonePtr(in.Phone)
	}
	if in.Birthdate != nil {
		c.Birthdate = promotype.ClonePtr(in.Birthdate)
	}
	if in.Address != nil {
		c.Address = in.Address.Clone()
	}
	if in.Metadata != nil {
		c.Metadata = in.Metadata.Clone()
	}
}
