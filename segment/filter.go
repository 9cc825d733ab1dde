package segment

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// fields are the customer fields a segment filter reads: those of the
// customer list (customer.ListSpec) and the other profile fields; keys of
// metadata are read as metadata.<key>.
var fields = func() map[string]promotype.FieldKind {
	m := maps.Clone(customer.ListSpec.Fields)
	for _, f := range []string{"id", "phone", "description", "birthdate", "address.state", "address.line_1", "address.line_2",
		"address.country", "address.postal_code"} {
		m[f] = promotype.FieldString
	}
	return m
}()

const metadataPrefix = "metadata."

// Filter is a segment's filter, checked: the conditions of the customer
// list's filter language ({junction, <field>: {conditions: {$op: value or
// [values]}}}) over the customer's fields. Relative dates ($more_than,
// $less_than: days ago) are resolved when the filter is evaluated.
type Filter struct {
	f      promotype.Filter
	fields map[string]promotype.FieldKind
}

// ParseFilter reads and checks a segment's filter. A field or an operator
// the language does not have, or a value it cannot read, is a 400
// invalid_payload naming it.
func ParseFilter(raw json.RawMessage) (*Filter, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, promotype.InvalidPayload("Property .filter must be an object")
	}
	out := &Filter{fields: fields}
	keys := slices.Sorted(maps.Keys(obj))
	for _, k := range keys {
		v := obj[k]
		if k == "junction" {
			var j string
			if err := json.Unmarshal(v, &j); err != nil {
				return nil, promotype.InvalidPayload("Property .filter.junction must be one of and, or")
			}
			out.f.Junction = promotype.Junction(strings.ToLower(j))
			continue
		}
		if name, ok := strings.CutPrefix(k, metadataPrefix); ok && name != "" {
			if out.fields[k] == 0 {
				if len(out.fields) == len(fields) {
					out.fields = maps.Clone(fields)
				}
				out.fields[k] = promotype.FieldString
			}
		}
		var field struct {
			Conditions map[string]json.RawMessage `json:"conditions"`
		}
		if err := json.Unmarshal(v, &field); err != nil || len(field.Conditions) == 0 {
			return nil, promotype.InvalidPayload("Property .filter.%s must be an object with conditions", k)
		}
		for _, op := range slices.Sorted(maps.Keys(field.Conditions)) {
			vals, err := values(field.Conditions[op])
			if err != nil {
				return nil, promotype.InvalidPayload("Property .filter.%s.conditions.%s must be a string, number or boolean, or an array of them", k, op)
			}
			out.f.Conditions = append(out.f.Conditions, promotype.Condition{Field: k, Op: promotype.Op(op), Values: vals})
		}
	}
	if len(out.f.Conditions) == 0 {
		return nil, promotype.InvalidPayload("Property .filter must have at least one condition")
	}
	if _, err := out.f.Resolve(out.fields, promotype.Time{}); err != nil {
		return nil, payloadErr(err)
	}
	return out, nil
}

// payloadErr words a filter's query-parameter error as the invalid
// payload of a segment's body.
func payloadErr(err error) error {
	var pe *promotype.Error
	if !errors.As(err, &pe) {
		return err
	}
	d := strings.Replace(pe.Details, "Property .filters", "Property .filter", 1)
	return promotype.InvalidPayload("%s", d)
}

// values reads a condition's value: one scalar or an array of scalars, as
// strings.
func values(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	var arr []any
	if len(raw) > 0 && raw[0] == '[' {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&arr); err != nil {
			return nil, err
		}
	} else {
		var one any
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&one); err != nil {
			return nil, err
		}
		arr = []any{one}
	}
	out := make([]string, 0, len(arr))
	for _, v := range arr {
		s, ok := scalar(v)
		if !ok {
			return nil, errors.New("not a scalar")
		}
		out = append(out, s)
	}
	return out, nil
}

// scalar is the string form of a JSON scalar (numbers as written, or as
// the shortest decimal of a float64).
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// Match reports whether c satisfies the filter at now.
func (f *Filter) Match(c *customer.Customer, now promotype.Time) bool {
	r, err := f.f.Resolve(f.fields, now)
	if err != nil {
		return false // checked when parsed: cannot happen
	}
	return promotype.Query{Filter: r}.Match(func(field string) promotype.Value { return value(c, field) })
}

// value is a customer's field as a segment filter reads it.
func value(c *customer.Customer, field string) promotype.Value {
	if key, ok := strings.CutPrefix(field, metadataPrefix); ok {
		v, has := c.Metadata[key]
		if !has || v == nil {
			return promotype.Value{Null: true}
		}
		if s, ok := scalar(v); ok {
			return promotype.Value{Str: s}
		}
		return promotype.Value{Null: true}
	}
	addr := func(get func(a *customer.Address) *string) promotype.Value {
		if c.Address == nil {
			return promotype.Value{Null: true}
		}
		return promotype.StringValue(get(c.Address))
	}
	switch field {
	case "description":
		return promotype.StringValue(c.Description)
	case "birthdate":
		return promotype.StringValue(c.Birthdate)
	case "address.state":
		return addr(func(a *customer.Address) *string { return a.State })
	case "address.line_1":
		return addr(func(a *customer.Address) *string { return a.Line1 })
	case "address.line_2":
		return addr(func(a *customer.Address) *string { return a.Line2 })
	case "address.country":
		return addr(func(a *customer.Address) *string { return a.Country })
	case "address.postal_code":
		return addr(func(a *customer.Address) *string { return a.PostalCode })
	}
	return c.Field(field)
}
