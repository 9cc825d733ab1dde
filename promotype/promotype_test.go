package promotype_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

func TestTimeJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), `"2026-01-02T03:04:05.000Z"`},
		{time.Date(2026, 1, 2, 3, 4, 5, 8_900_000, time.UTC), `"2026-01-02T03:04:05.008Z"`},
		{time.Date(2026, 1, 2, 4, 4, 5, 0, time.FixedZone("CET", 3600)), `"2026-01-02T03:04:05.000Z"`},
	}
	for _, tc := range tests {
		b, err := json.Marshal(promotype.NewTime(tc.in))
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tc.in, b, err, tc.want)
		}
		var back promotype.Time
		if err := json.Unmarshal(b, &back); err != nil || !back.Equal(promotype.NewTime(tc.in)) {
			t.Errorf("round trip of %s = %v, %v", b, back, err)
		}
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"2016-11-16":                  "2016-11-16T00:00:00.000Z",
		"2016-11-16T14:14:31Z":        "2016-11-16T14:14:31.000Z",
		"2016-11-16T14:14:31.5+01:00": "2016-11-16T13:14:31.500Z",
	} {
		got, err := promotype.ParseTime(in)
		if err != nil || got.Format(promotype.TimeLayout) != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2016-13-01", "16-11-2016"} {
		if _, err := promotype.ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted a bad date", bad)
		}
	}
}

func TestErrorIsMatchesByKey(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("wrapped: %w", promotype.NotFound("product", "prod_1"))
	if !errors.Is(err, promotype.ErrNotFound) {
		t.Error("errors.Is(NotFound, ErrNotFound) = false")
	}
	if errors.Is(err, promotype.ErrInvalidPayload) {
		t.Error("errors.Is(NotFound, ErrInvalidPayload) = true")
	}
	got := promotype.AsError(err)
	want := &promotype.Error{Code: 404, Key: "not_found", Message: "Resource not found", Details: "Cannot find product with id prod_1", ResourceID: "prod_1", ResourceType: "product"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("AsError (-want +got):\n%s", d)
	}
	if e := promotype.AsError(errors.New("db down")); e.Code != 500 || e.Key != "internal_error" || e.Details != "" {
		t.Errorf("a foreign error must become a bare 500, got %+v", e)
	}
}

func TestErrorJSONShape(t *testing.T) {
	t.Parallel()
	e := promotype.Unauthorized()
	e.RequestID = "v-1"
	b, _ := json.Marshal(e)
	if want := `{"code":401,"key":"unauthorized","message":"Unauthorized","request_id":"v-1"}`; string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

var spec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields:       map[string]promotype.FieldKind{"name": promotype.FieldString, "created_at": promotype.FieldTime},
}

func TestListParamsQuery(t *testing.T) {
	t.Parallel()
	now := promotype.NewTime(time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC))
	end := promotype.NewTime(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		name    string
		in      promotype.ListParams
		want    promotype.Query
		wantKey string
	}{
		{name: "defaults", want: promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true, Filter: promotype.Filter{Junction: "and", Conditions: []promotype.Condition{}}}},
		{name: "page 3 of 20 ascending", in: promotype.ListParams{Limit: 20, Page: 3, Order: "updated_at"},
			want: promotype.Query{Limit: 20, Offset: 40, OrderBy: "updated_at", Filter: promotype.Filter{Junction: "and", Conditions: []promotype.Condition{}}}},
		{name: "limit 101", in: promotype.ListParams{Limit: 101}, wantKey: "invalid_query_params"},
		{name: "limit -1", in: promotype.ListParams{Limit: -1}, wantKey: "invalid_query_params"},
		{name: "page 1001", in: promotype.ListParams{Page: 1001}, wantKey: "page_over_limit"},
		{name: "unknown order", in: promotype.ListParams{Order: "-name"}, wantKey: "invalid_query_params"},
		{name: "unknown field", in: promotype.ListParams{Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "price", Op: "$is", Values: []string{"1"}}}}}, wantKey: "invalid_query_params"},
		{name: "time op on string", in: promotype.ListParams{Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "name", Op: "$after", Values: []string{"2020-01-01"}}}}}, wantKey: "invalid_query_params"},
		{name: "bad junction", in: promotype.ListParams{Filter: promotype.Filter{Junction: "xor"}}, wantKey: "invalid_query_params"},
		{name: "bad date", in: promotype.ListParams{Filter: promotype.Filter{Conditions: []promotype.Condition{{Field: "created_at", Op: "$after", Values: []string{"soon"}}}}}, wantKey: "invalid_query_params"},
		{name: "$more_than days ago becomes $before", in: promotype.ListParams{Filter: promotype.Filter{Junction: "or", Conditions: []promotype.Condition{{Field: "created_at", Op: "$more_than", Values: []string{"2"}}}}},
			want: promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true, Filter: promotype.Filter{Junction: "or", Conditions: []promotype.Condition{{Field: "created_at", Op: "$before", At: promotype.NewTime(now.Add(-48 * time.Hour))}}}}},
		{name: "end_date keeps rows created at or before it", in: promotype.ListParams{EndDate: &end},
			want: promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true, Filter: promotype.Filter{Junction: "and", Conditions: []promotype.Condition{}},
				Must: []promotype.Condition{{Field: "created_at", Op: "$before", At: promotype.NewTime(end.Add(time.Millisecond))}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := tc.in.Query(spec, now)
			if tc.wantKey != "" {
				if e := promotype.AsError(err); err == nil || e.Key != tc.wantKey || e.Code != 400 {
					t.Fatalf("got %v, want a 400 %s", err, tc.wantKey)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("query (-want +got):\n%s", d)
			}
		})
	}
}

func TestMetadataCloneIsDeep(t *testing.T) {
	t.Parallel()
	m := promotype.Metadata{"a": map[string]any{"b": []any{1.0, "x"}}}
	c := m.Clone()
	c["a"].(map[string]any)["b"].([]any)[0] = 2.0
	if m["a"].(map[string]any)["b"].([]any)[0] != 1.0 {
		t.Error("Clone shares nested values")
	}
	var nilMeta promotype.Metadata
	if nilMeta.Clone() == nil {
		t.Error("a nil metadata must clone to an empty object")
	}
	m.Unset("a")
	if len(m) != 0 {
		t.Errorf("Unset left %v", m)
	}
}

func TestDecimalJSON(t *testing.T) {
	t.Parallel()
	var v struct{ R promotype.Decimal }
	for _, in := range []string{`{"R":0.25}`, `{"R":"0.25"}`} {
		if err := json.Unmarshal([]byte(in), &v); err != nil || v.R.String() != "0.25" {
			t.Errorf("Unmarshal(%s) = %v, %v", in, v.R, err)
		}
	}
	if b, _ := json.Marshal(v); string(b) != `{"R":0.25}` {
		t.Errorf("Marshal = %s, want a JSON number", b)
	}
	if err := json.Unmarshal([]byte(`{"R":"abc"}`), &v); err == nil {
		t.Error("accepted a non-number")
	}
}

func TestListJSONShape(t *testing.T) {
	tests := []struct {
		name string
		list *promotype.List[string]
		want string
	}{
		{"default", promotype.NewList([]string{"a<b"}, 3, promotype.Query{}), `{"object":"list","data_ref":"data","data":["a<b"],"total":3,"has_more":true}`},
		{"hosted", promotype.NewList([]string{"x"}, 1, promotype.Query{}).WithRef("vouchers"), `{"object":"list","data_ref":"vouchers","vouchers":["x"],"total":1,"has_more":false}`},
		{"nil items", (&promotype.List[string]{DataRef: "tiers"}), `{"object":"list","data_ref":"tiers","tiers":[],"total":0,"has_more":false}`},
		{"ref that needs quoting", (&promotype.List[string]{DataRef: `we"ird`, Data: []string{"&"}}), `{"object":"list","data_ref":"we\"ird","we\"ird":["&"],"total":0,"has_more":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false) // as the adapter encodes
			if err := enc.Encode(tc.list); err != nil {
				t.Fatal(err)
			}
			got := []byte(strings.TrimSuffix(b.String(), "\n"))
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			direct, err := tc.list.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(direct)); diff != "" {
				t.Errorf("MarshalJSON (-want +got):\n%s", diff)
			}
			var back promotype.List[string]
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			want := *tc.list
			if want.Object == "" {
				want.Object = "list"
			}
			if want.Data == nil {
				want.Data = []string{}
			}
			if diff := cmp.Diff(want, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}
