package imports

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/promoengine/promo/promotype"
)

// columns reads the fields of CSV rows by column name: the standard
// columns of a resource (matched without case, spaces as underscores) and
// the others, which become metadata.
type columns struct {
	header []string
	std    map[string]int // standard column → index
	meta   []int          // the other columns
}

// norm is the form column names are matched in.
func norm(name string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "_")
}

// newColumns maps header; std lists the standard column names (normal
// form). Aliases map another name to a standard one.
func newColumns(header []string, std []string, aliases map[string]string) columns {
	c := columns{header: header, std: map[string]int{}}
	known := map[string]bool{}
	for _, s := range std {
		known[s] = true
	}
	for i, h := range header {
		n := norm(h)
		if a, ok := aliases[n]; ok {
			n = a
		}
		if known[n] {
			c.std[n] = i
			continue
		}
		c.meta = append(c.meta, i)
	}
	return c
}

// has reports whether the header has the standard column name.
func (c columns) has(name string) bool { _, ok := c.std[name]; return ok }

// get returns the value of a standard column as the file gives it, nil
// when the row leaves it blank. Text is kept as given, a leading tab or
// quote included (a cell an export neutralised stays neutral: see
// docs/behaviour.md); the parsers of typed cells (integer, boolean, date,
// the enums) trim the spaces around them.
func (c columns) get(rec []string, name string) *string {
	i, ok := c.std[name]
	if !ok || i >= len(rec) || strings.TrimSpace(rec[i]) == "" {
		return nil
	}
	v := rec[i]
	return &v
}

// trimmed is v without the spaces around it (nil stays nil): the form a
// typed cell is parsed in.
func trimmed(v *string) *string {
	if v == nil {
		return nil
	}
	t := strings.TrimSpace(*v)
	return &t
}

// metadata returns the non-empty values of the other columns, keyed by
// their header (a "metadata_" prefix dropped), nil when there is none.
// Values stay strings: a CSV cell has no type.
func (c columns) metadata(rec []string) promotype.Metadata {
	var m promotype.Metadata
	for _, i := range c.meta {
		if i >= len(rec) || strings.TrimSpace(rec[i]) == "" {
			continue
		}
		if m == nil {
			m = promotype.Metadata{}
		}
		key := c.header[i]
		if len(key) > len("metadata_") && strings.EqualFold(key[:len("metadata_")], "metadata_") {
			key = key[len("metadata_"):]
		}
		m[key] = rec[i]
	}
	return m
}

// integer parses an integer cell of column name.
func integer(v *string, name string) (*int64, error) {
	if v == nil {
		return nil, nil
	}
	v = trimmed(v)
	n, err := strconv.ParseInt(*v, 10, 64)
	if err != nil {
		return nil, promotype.InvalidPayload("Column %s must be an integer, not %q", name, *v)
	}
	return &n, nil
}

// boolean parses a boolean cell of column name.
func boolean(v *string, name string) (*bool, error) {
	if v == nil {
		return nil, nil
	}
	v = trimmed(v)
	b, err := strconv.ParseBool(strings.ToLower(*v))
	if err != nil {
		return nil, promotype.InvalidPayload("Column %s must be true or false, not %q", name, *v)
	}
	return &b, nil
}

// dateLayouts are the ISO 8601 forms a date cell may take.
var dateLayouts = []string{"2006-01-02", "2006-01-02T15", "2006-01-02T15:04", "2006-01-02T15:04:05",
	time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05.000Z07:00"}

// date parses a date cell of column name.
func date(v *string, name string) (*promotype.Time, error) {
	if v == nil {
		return nil, nil
	}
	v = trimmed(v)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, *v); err == nil {
			pt := promotype.NewTime(t)
			return &pt, nil
		}
	}
	return nil, promotype.InvalidPayload("Column %s must be an ISO 8601 date, not %q", name, *v)
}

// names parses a list cell: a JSON array of strings, or names separated
// by commas.
func names(v *string, name string) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	v = trimmed(v)
	if strings.HasPrefix(*v, "[") {
		var out []string
		if err := json.Unmarshal([]byte(*v), &out); err != nil {
			return nil, promotype.InvalidPayload("Column %s must be a JSON array of strings or names separated by commas", name)
		}
		return out, nil
	}
	var out []string
	for _, p := range strings.Split(*v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// object parses a JSON object cell of column name.
func object(v *string, name string) (promotype.Metadata, error) {
	if v == nil {
		return nil, nil
	}
	var m promotype.Metadata
	if err := json.Unmarshal([]byte(*v), &m); err != nil || m == nil {
		return nil, promotype.InvalidPayload("Column %s must be a JSON object", name)
	}
	return m, nil
}
