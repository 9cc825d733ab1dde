package promotype

import "maps"

// Metadata is a set of custom key/value pairs attached to a resource. Values
// are JSON values: string, float64, bool, nil, []any or map[string]any.
type Metadata map[string]any

// Set stores v under key, allocating the map if needed.
func (m *Metadata) Set(key string, v any) {
	if *m == nil {
		*m = Metadata{}
	}
	(*m)[key] = v
}

// Unset removes keys.
func (m Metadata) Unset(keys ...string) {
	for _, k := range keys {
		delete(m, k)
	}
}

// Merge returns a copy of m with every key of patch set (a nil value is kept
// as a JSON null, as the hosted service does).
func (m Metadata) Merge(patch Metadata) Metadata {
	out := m.Clone()
	if out == nil {
		out = Metadata{}
	}
	for k, v := range patch {
		out[k] = cloneJSON(v)
	}
	return out
}

// Clone returns a deep copy, so a caller can never change stored metadata.
// A nil map clones to an empty one: metadata is always an object on the wire.
func (m Metadata) Clone() Metadata {
	out := make(Metadata, len(m))
	for k, v := range m {
		out[k] = cloneJSON(v)
	}
	return out
}

// CloneValue deep-copies a decoded JSON value.
func CloneValue(v any) any { return cloneJSON(v) }

func cloneJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		c := maps.Clone(t)
		for k, x := range c {
			c[k] = cloneJSON(x)
		}
		return c
	case Metadata:
		return map[string]any(t.Clone())
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = cloneJSON(x)
		}
		return c
	default:
		return v
	}
}
