package httpadapter

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

func TestParseFilters(t *testing.T) {
	t.Parallel()
	cond := func(field, op string, values ...string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.Op(op), Values: values}
	}
	tests := []struct {
		name    string
		query   string
		want    promotype.Filter
		wantErr string // substring of the error details; "" for success
	}{
		{name: "none", query: "limit=5&order=name", want: promotype.Filter{}},
		{name: "one condition", query: "filters[name][conditions][$is]=Mug",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("name", "$is", "Mug")}}},
		{name: "array form ordered by index", query: "filters[name][conditions][$in][1]=b&filters[name][conditions][$in][0]=a&filters[name][conditions][$in][10]=c",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("name", "$in", "a", "b", "c")}}},
		{name: "repeated keys", query: "filters[name][conditions][$in]=a&filters[name][conditions][$in]=b",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("name", "$in", "a", "b")}}},
		{name: "plain form before array form", query: "filters[name][conditions][$in][0]=b&filters[name][conditions][$in]=a",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("name", "$in", "a", "b")}}},
		{name: "junction and several fields sorted", query: "filters[updated_at][conditions][$after]=2026-01-01&filters[junction]=OR&filters[name][conditions][$starts_with]=T&filters[name][conditions][$ends_with]=t",
			want: promotype.Filter{Junction: promotype.JunctionOr, Conditions: []promotype.Condition{
				cond("name", "$ends_with", "t"), cond("name", "$starts_with", "T"), cond("updated_at", "$after", "2026-01-01")}}},
		{name: "dotted field", query: "filters[metadata.seq_number][conditions][$is]=7",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("metadata.seq_number", "$is", "7")}}},
		{name: "leading [filters]", query: "[filters][active][conditions][$active]=true",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("active", "$active", "true")}}},
		{name: "empty value", query: "filters[name][conditions][$has_value]=",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("name", "$has_value", "")}}},
		{name: "escaped brackets", query: "filters%5Bname%5D%5Bconditions%5D%5B%24is%5D=a%26b",
			want: promotype.Filter{Conditions: []promotype.Condition{cond("name", "$is", "a&b")}}},
		{name: "unrelated parameter with the prefix", query: "filtersX=1", want: promotype.Filter{}},

		{name: "bare filters", query: "filters=name", wantErr: "filters is not a valid filter"},
		{name: "no conditions segment", query: "filters[name][$is]=x", wantErr: "filters[name][$is] is not a valid filter"},
		{name: "wrong conditions word", query: "filters[name][condition][$is]=x", wantErr: "not a valid filter"},
		{name: "missing operator", query: "filters[name][conditions]=x", wantErr: "not a valid filter"},
		{name: "operator without $", query: "filters[name][conditions][is]=x", wantErr: "not a valid filter"},
		{name: "operator upper case", query: "filters[name][conditions][$IS]=x", wantErr: "not a valid filter"},
		{name: "bare $", query: "filters[name][conditions][$]=x", wantErr: "not a valid filter"},
		{name: "index not a number", query: "filters[name][conditions][$in][a]=x", wantErr: "not a valid filter"},
		{name: "negative index", query: "filters[name][conditions][$in][-1]=x", wantErr: "not a valid filter"},
		{name: "index too big", query: "filters[name][conditions][$in][1000]=x", wantErr: "not a valid filter"},
		{name: "too many segments", query: "filters[name][conditions][$in][0][1]=x", wantErr: "not a valid filter"},
		{name: "unclosed bracket", query: "filters[name][conditions][$is=x", wantErr: "not a valid filter"},
		{name: "nested bracket", query: "filters[na[me][conditions][$is]=x", wantErr: "not a valid filter"},
		{name: "text between segments", query: "filters[name]x[conditions][$is]=x", wantErr: "not a valid filter"},
		{name: "empty field", query: "filters[][conditions][$is]=x", wantErr: "not a valid filter"},
		{name: "empty path part", query: "filters[metadata.][conditions][$is]=x", wantErr: "not a valid filter"},
		{name: "junction with conditions", query: "filters[junction][x]=and", wantErr: "not a valid filter"},
		{name: "bad junction", query: "filters[junction]=xor", wantErr: "must be one of and, or"},
		{name: "conflicting junctions", query: "filters[junction]=and&filters[junction]=or", wantErr: "different values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseFilters(q)
			if tc.wantErr != "" {
				var pe *promotype.Error
				if !errors.As(err, &pe) || pe.Key != "invalid_query_params" || !strings.Contains(pe.Details, tc.wantErr) {
					t.Fatalf("parseFilters(%q) error = %v, want invalid_query_params containing %q", tc.query, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseFilters(%q): %v", tc.query, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parseFilters(%q) mismatch (-want +got):\n%s", tc.query, diff)
			}
		})
	}
}

// encodeFilters writes f in the array form parseFilters reads.
func encodeFilters(f promotype.Filter) url.Values {
	q := url.Values{}
	if f.Junction != "" {
		q.Set("filters[junction]", string(f.Junction))
	}
	for _, c := range f.Conditions {
		for i, v := range c.Values {
			q.Add(fmt.Sprintf("filters[%s][conditions][%s][%d]", c.Field, c.Op, i), v)
		}
	}
	return q
}

// FuzzParseFilters checks that any query parses without panicking into
// either a 400 invalid_query_params or a well-formed filter that survives a
// round trip through the array form.
func FuzzParseFilters(f *testing.F) {
	for _, s := range []string{"filters[name][conditions][$is]=x", "filters[junction]=or&filters[a.b][conditions][$in][2]=y&filters[a.b][conditions][$in][0]=x",
		"[filters][x][conditions][$active]=true", "filters[[]]=1", "filters[a][conditions][$in][999]=", "filters]]][[[", "filters%5B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		got, err := parseFilters(q)
		if err != nil {
			var pe *promotype.Error
			if !errors.As(err, &pe) || pe.Code != 400 || pe.Key != "invalid_query_params" {
				t.Fatalf("parseFilters(%q) error %v is not a 400 invalid_query_params", raw, err)
			}
			return
		}
		if got.Junction != "" && got.Junction != promotype.JunctionAnd && got.Junction != promotype.JunctionOr {
			t.Fatalf("parseFilters(%q) junction %q", raw, got.Junction)
		}
		var fields []string
		for _, c := range got.Conditions {
			if !validField(c.Field) || !validOp(string(c.Op)) || len(c.Values) == 0 {
				t.Fatalf("parseFilters(%q) made a bad condition %+v", raw, c)
			}
			fields = append(fields, c.Field+"\x00"+string(c.Op))
		}
		if !slices.IsSorted(fields) {
			t.Fatalf("parseFilters(%q) conditions not ordered: %q", raw, fields)
		}
		again, err := parseFilters(encodeFilters(got))
		if err != nil {
			t.Fatalf("round trip of %+v: %v", got, err)
		}
		if diff := cmp.Diff(got, again); diff != "" {
			t.Fatalf("round trip of %q mismatch (-first +second):\n%s", raw, diff)
		}
	})
}
