package promotype

import (
	"strings"
	"testing"
)

func TestRandomIDsShape(t *testing.T) {
	t.Parallel()
	for _, prefix := range []string{"", "r_", PrefixOrder, "evt_"} {
		seen := map[string]bool{}
		for range 200 {
			id := RandomIDs{}.NewID(prefix)
			rest, ok := strings.CutPrefix(id, prefix)
			if !ok || len(rest) != 24 || strings.Trim(rest, base62) != "" {
				t.Fatalf("NewID(%q) = %q: want the prefix and 24 base62 characters", prefix, id)
			}
			if seen[id] {
				t.Fatalf("NewID(%q) repeated %q", prefix, id)
			}
			seen[id] = true
		}
	}
}

func TestRandomStringDrawsFromCharset(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n       int
		charset string
	}{{0, base62}, {1, "ab"}, {100, "xyz"}, {130, base62}} {
		s := RandomString(tc.n, tc.charset)
		if len(s) != tc.n || strings.Trim(s, tc.charset) != "" {
			t.Errorf("RandomString(%d, %q) = %q", tc.n, tc.charset, s)
		}
	}
}
