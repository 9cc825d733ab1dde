package promotype_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

func TestNewCursorList(t *testing.T) {
	t.Parallel()
	id := func(s string) string { return s }
	cases := []struct {
		name  string
		items []string
		limit int
		want  *promotype.CursorList[string]
	}{
		{"nothing", nil, 2, &promotype.CursorList[string]{Object: "list", DataRef: "data", Data: []string{}}},
		{"a last page", []string{"a", "b"}, 2, &promotype.CursorList[string]{Object: "list", DataRef: "data", Data: []string{"a", "b"}}},
		{"one row more", []string{"a", "b", "c"}, 2, &promotype.CursorList[string]{Object: "list", DataRef: "data", Data: []string{"a", "b"},
			HasMore: true, MoreStartingAfter: promotype.Ptr("b")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if d := cmp.Diff(c.want, promotype.NewCursorList(c.items, c.limit, id)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
