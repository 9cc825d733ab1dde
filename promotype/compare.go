package promotype

import "strings"

// Compare orders two field values as every store must: null first, then
// times, then strings bytewise.
func Compare(a, b Value) int {
	switch {
	case a.Null && b.Null:
		return 0
	case a.Null:
		return -1
	case b.Null:
		return 1
	}
	if c := a.Time.Compare(b.Time.Time); c != 0 {
		return c
	}
	return strings.Compare(a.Str, b.Str)
}
