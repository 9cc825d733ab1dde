package customer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/promoengine/promo/promotype"
)

// UpdateParams is the body of PUT /v1/customers/{customerId}: the fields
// of Params, and the nullable fields sent as null, which the update clears
// (metadata to {}). Decoded from JSON it finds the nulls itself.
type UpdateParams struct {
	Params
	// Clear names the fields to clear: name, description, email, phone,
	// birthdate, address, metadata.
	Clear []string `json:"-"`
}

// clearable are the fields a null in an update clears.
var clearable = []string{"name", "description", "email", "phone", "birthdate", "address", "metadata"}

// UnmarshalJSON decodes the fields, then notes which clearable ones are
// null.
func (u *UpdateParams) UnmarshalJSON(b []byte) error {
	var p Params
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	u.Params, u.Clear = p, nil
	for _, k := range clearable {
		if v, ok := raw[k]; ok && string(bytes.TrimSpace(v)) == "null" {
			u.Clear = append(u.Clear, k)
		}
	}
	return nil
}

// clear empties the fields u.Clear names on c.
func (u UpdateParams) clear(c *Customer) {
	for _, k := range u.Clear {
		switch k {
		case "name":
			c.Name = nil
		case "description":
			c.Description = nil
		case "email":
			c.Email = nil
		case "phone":
			c.Phone = nil
		case "birthdate":
			c.Birthdate = nil
		case "address":
			c.Address = nil
		case "metadata":
			c.Metadata = promotype.Metadata{}
		}
	}
}

// Update changes the customer that ref (an id or a source id) names with
// the fields in sets (PUT /v1/customers/{customerId}): absent fields are
// left unchanged, fields sent as null are cleared; an id or source_id in
// the body is ignored (the path names the customer). A missing customer
// is 404.
func (s *Service) Update(ctx context.Context, projectID, ref string, in UpdateParams) (*Customer, error) {
	in.ID, in.SourceID = nil, nil
	if err := s.check(ctx, projectID, in.Params); err != nil {
		return nil, err
	}
	var out *Customer
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		c, err := Update(ctx, st, s.env, projectID, ref, in)
		out = c
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.present(ctx, out)
}

// Update is the customer update over st, for callers that run it inside
// their own transaction (a bulk update job): the customer ref (id or
// source id) gets the fields in sets besides its keys and loses those in
// clears (in.ID is ignored; a different in.SourceID moves the source id,
// refused with 409 when another customer holds it). updated_at is set only
// when something is written. in must have passed Validate (and its
// metadata the project's schema).
func Update(ctx context.Context, st Store, env promotype.Env, projectID, ref string, in UpdateParams) (*Customer, error) {
	c, err := Resolve(ctx, st, projectID, ref)
	if err != nil {
		return nil, err
	}
	if !in.changesOf(c) {
		return c, nil
	}
	in.ID = nil
	in.clear(c)
	in.apply(c)
	c.UpdatedAt = env.Clock.Now().Ptr()
	if err := st.UpdateCustomer(ctx, c); err != nil {
		return nil, err
	}
	return c.normalize(), updatedActivity(ctx, st, env, c)
}

// UpsertMany runs Upsert for each item of in, in one transaction: all are
// written or none (the first failure is returned, with the index of its
// item in its details). Items are validated first, so a bad item changes
// nothing. The answers carry no summaries.
func (s *Service) UpsertMany(ctx context.Context, projectID string, in []Params) ([]*Customer, error) {
	for i, p := range in {
		if err := p.Validate(""); err != nil {
			return nil, itemErr(i, err)
		}
		if p.Metadata != nil {
			if err := s.env.CheckMeta(ctx, projectID, "customer", p.Metadata); err != nil {
				return nil, itemErr(i, err)
			}
		}
	}
	var out []*Customer
	upsert := func(ctx context.Context, st Store) error {
		out = make([]*Customer, 0, len(in))
		for i, p := range in {
			c, err := Upsert(ctx, st, s.env, projectID, p)
			if err != nil {
				return itemErr(i, err)
			}
			out = append(out, c)
		}
		return nil
	}
	if err := promotype.RetryUpsert(ctx, func() error { return s.tx(ctx, upsert) }); err != nil {
		return nil, err
	}
	return out, nil
}

// itemErr names item i in err's details when err is a promotype.Error.
func itemErr(i int, err error) error {
	var pe *promotype.Error
	if !errors.As(err, &pe) {
		return err
	}
	c := *pe
	c.Details = fmt.Sprintf("Item %d: %s", i, pe.Details)
	return &c
}
