package promotype

import (
	"strings"
	"testing"
)

// TestEncodeEventData: compact JSON without HTML escaping or the
// encoder's newline, in a slice whose capacity is its length (holders that
// share it cannot append into each other's bytes), whatever the recycled
// buffer held before.
func TestEncodeEventData(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 2*MaxPooledBuffer) // a buffer the pool drops
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"struct, html kept", struct {
			A string `json:"a"`
			B []int  `json:"b"`
		}{"<a&b>", []int{1, 2}}, `{"a":"<a&b>","b":[1,2]}`},
		{"null", nil, `null`},
		{"map keys sorted", map[string]any{"z": 1, "a": "é\u2028"}, `{"a":"é\u2028","z":1}`},
		{"after a huge one", big, `"` + big + `"`},
		{"small again", 7, `7`},
	} {
		got, err := encodeEventData(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: got %.80s, want %.80s", tc.name, got, tc.want)
		}
		if cap(got) != len(got) {
			t.Errorf("%s: capacity %d, length %d", tc.name, cap(got), len(got))
		}
	}
}
