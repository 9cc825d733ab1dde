package rule

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/promoengine/promo/promotype"
)

// RuleSet is the numbered rule map of a validation rule:
// {"logic": "1 and 2", "1": {...}, "2": {...}}. Sub-rules of an item rule
// use the same shape (their logic defaults to all of them).
type RuleSet struct {
	Logic string
	Rules map[string]Rule
}

// Rule is one numbered rule.
type Rule struct {
	Name       string                  `json:"name"`
	Property   *string                 `json:"property"`
	Conditions map[string][]any        `json:"conditions"`
	Rules      RuleSet                 `json:"rules"`
	Error      *promotype.ErrorMessage `json:"error,omitempty"`
}

// Keys returns the rule keys in numeric order.
func (s RuleSet) Keys() []string {
	keys := make([]string, 0, len(s.Rules))
	for k := range s.Rules {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	return keys
}

// MarshalJSON writes the numbered rules in order, then "logic" (omitted
// when the set is empty and has no logic, as for a rule without sub-rules).
func (s RuleSet) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range s.Keys() {
		if i > 0 {
			b.WriteByte(',')
		}
		r, err := json.Marshal(s.Rules[k])
		if err != nil {
			return nil, err
		}
		b.WriteString(strconv.Quote(k))
		b.WriteByte(':')
		b.Write(r)
	}
	if s.Logic != "" {
		if len(s.Rules) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"logic":`)
		l, _ := json.Marshal(s.Logic)
		b.Write(l)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads "logic" and the numbered rules; any other key is an
// error naming it.
func (s *RuleSet) UnmarshalJSON(data []byte) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		*s = RuleSet{}
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := RuleSet{Rules: make(map[string]Rule, len(raw))}
	for k, v := range raw {
		if k == "logic" {
			if err := json.Unmarshal(v, &out.Logic); err != nil {
				return err
			}
			continue
		}
		var r Rule
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		out.Rules[k] = r
	}
	*s = out
	return nil
}

// Clone returns a deep copy.
func (s RuleSet) Clone() RuleSet {
	out := RuleSet{Logic: s.Logic}
	if s.Rules == nil {
		return out
	}
	out.Rules = make(map[string]Rule, len(s.Rules))
	for k, r := range s.Rules {
		c := r
		c.Property = promotype.ClonePtr(r.Property)
		if r.Error != nil {
			e := *r.Error
			c.Error = &e
		}
		if r.Conditions != nil {
			c.Conditions = make(map[string][]any, len(r.Conditions))
			for op, vals := range r.Conditions {
				vs := make([]any, len(vals))
				for i, v := range vals {
					vs[i] = promotype.CloneValue(v)
				}
				c.Conditions[op] = vs
			}
		}
		c.Rules = r.Rules.Clone()
		out.Rules[k] = c
	}
	return out
}
