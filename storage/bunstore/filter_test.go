package bunstore_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
)

// Text pieces that trip naive SQL: LIKE wildcards, escapes, quotes, case,
// multi-byte characters whose bytes overlap (é = c3 a9, © = c2 a9).
var pieces = []string{"a", "A", "b", "é", "©", "%", "_", "\\", "'", " ", "ab", "日本"}

// Filter values besides pieces: the empty string, and values no text column
// can hold (invalid UTF-8, NUL) that are still byte-wise parts of stored text.
var oddValues = []string{"", "\xa9", "\xc3", "\xc3\xa9\xc2", "\x00", "a\x00", "%_", "A%"}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func productValue(p *catalog.Product, field string) promotype.Value {
	str := func(s *string) promotype.Value {
		if s == nil {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Str: *s}
	}
	switch field {
	case "source_id":
		return str(p.SourceID)
	case "name":
		return str(p.Name)
	case "created_at":
		return promotype.Value{Time: p.CreatedAt}
	case "updated_at":
		if p.UpdatedAt == nil {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Time: *p.UpdatedAt}
	}
	panic(field)
}

// expected is the reference answer: Query.Match, then Compare and id, paged.
func expected(rows []*catalog.Product, q promotype.Query) ([]string, int) {
	var matched []*catalog.Product
	for _, p := range rows {
		if q.Match(func(f string) promotype.Value { return productValue(p, f) }) {
			matched = append(matched, p)
		}
	}
	slices.SortFunc(matched, func(a, b *catalog.Product) int {
		c := promotype.Compare(productValue(a, q.OrderBy), productValue(b, q.OrderBy))
		if c == 0 {
			c = strings.Compare(a.ID, b.ID)
		}
		if q.Desc {
			return -c
		}
		return c
	})
	lo := min(q.Offset, len(matched))
	hi := min(lo+q.Limit, len(matched))
	ids := []string{}
	for _, p := range matched[lo:hi] {
		ids = append(ids, p.ID)
	}
	return ids, len(matched)
}

func randomCondition(r *rand.Rand, stored []string) promotype.Condition {
	value := func() string {
		switch r.IntN(3) {
		case 0:
			return oddValues[r.IntN(len(oddValues))]
		case 1:
			if s := stored[r.IntN(len(stored))]; s != "" {
				i := r.IntN(len(s))
				j := i + r.IntN(len(s)-i) + 1
				return s[i:j] // any byte range, split characters included
			}
			return ""
		default:
			return stored[r.IntN(len(stored))]
		}
	}
	if r.IntN(2) == 0 {
		field := []string{"created_at", "updated_at"}[r.IntN(2)]
		op := []promotype.Op{promotype.OpAfter, promotype.OpBefore, promotype.OpHasValue, promotype.OpIsUnknown}[r.IntN(4)]
		return promotype.Condition{Field: field, Op: op, At: at(r.IntN(8) - 1)}
	}
	field := []string{"source_id", "name"}[r.IntN(2)]
	ops := []promotype.Op{promotype.OpIs, promotype.OpIsNot, promotype.OpIn, promotype.OpNotIn, promotype.OpHasValue,
		promotype.OpIsUnknown, promotype.OpStartsWith, promotype.OpEndsWith, promotype.OpContains, promotype.OpNotContain}
	c := promotype.Condition{Field: field, Op: ops[r.IntN(len(ops))]}
	switch c.Op {
	case promotype.OpHasValue, promotype.OpIsUnknown:
	case promotype.OpIn, promotype.OpNotIn:
		for range 1 + r.IntN(3) {
			c.Values = append(c.Values, value())
		}
	default:
		c.Values = []string{value()}
	}
	return c
}

// The SQL translation agrees with Query.Match and promotype.Compare on
// random rows and queries, odd strings and nulls included.
func TestFilterAndOrderMatchReference(t *testing.T) {
	_, s := migrated(t)
	r := rand.New(rand.NewPCG(1, 2))
	idChars := []string{"a", "B", "z", "é", "_", "0"}
	var rows []*catalog.Product
	stored := []string{""}
	for i := range 60 {
		p := &catalog.Product{
			ID:        fmt.Sprintf("prod_%s%s%02d", idChars[r.IntN(len(idChars))], idChars[r.IntN(len(idChars))], i),
			ProjectID: "p",
			CreatedAt: at(r.IntN(6)),
			Metadata:  promotype.Metadata{},
		}
		if r.IntN(4) > 0 {
			p.Name = ptr(randomText(r))
			stored = append(stored, *p.Name)
		}
		if r.IntN(4) > 0 {
			p.SourceID = ptr(fmt.Sprintf("%s#%d", randomText(r), i))
			stored = append(stored, *p.SourceID)
		}
		if r.IntN(2) == 0 {
			p.UpdatedAt = at(r.IntN(6)).Ptr()
		}
		must(t, s.InsertProduct(ctx, p))
		rows = append(rows, p)
	}
	binned := &catalog.Product{ID: "prod_binned", ProjectID: "p", Name: ptr("a"), CreatedAt: at(1)}
	must(t, s.InsertProduct(ctx, binned))
	must(t, s.BinProduct(ctx, "p", binned.ID, at(2)))

	for i := range 1500 {
		q := promotype.Query{
			Limit:   1 + r.IntN(70),
			Offset:  []int{0, 0, r.IntN(20), r.IntN(70)}[r.IntN(4)],
			OrderBy: []string{"created_at", "updated_at"}[r.IntN(2)],
			Desc:    r.IntN(2) == 0,
		}
		if r.IntN(2) == 0 {
			q.Filter.Junction = promotype.JunctionOr
		} else if r.IntN(2) == 0 {
			q.Filter.Junction = promotype.JunctionAnd
		}
		for range r.IntN(4) {
			q.Filter.Conditions = append(q.Filter.Conditions, randomCondition(r, stored))
		}
		if r.IntN(4) == 0 {
			q.Must = []promotype.Condition{{Field: "created_at", Op: promotype.OpBefore, At: at(r.IntN(6))}}
		}
		wantIDs, wantTotal := expected(rows, q)
		items, total, err := s.ListProducts(ctx, "p", q)
		if err != nil {
			t.Fatalf("query %d %+v: %v", i, q, err)
		}
		gotIDs := []string{}
		for _, p := range items {
			gotIDs = append(gotIDs, p.ID)
		}
		if total != wantTotal || !slices.Equal(gotIDs, wantIDs) {
			t.Fatalf("query %d %+v:\n got total %d %q\nwant total %d %q", i, q, total, gotIDs, wantTotal, wantIDs)
		}
	}
}
