package httpadapter

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

// decodeTarget exercises every kind of property the decoder names.
type decodeTarget struct {
	Name   *string            `json:"name"`
	Price  *int64             `json:"price"`
	Ratio  promotype.Decimal  `json:"ratio"`
	Active *bool              `json:"active"`
	Tags   []string           `json:"tags"`
	Meta   promotype.Metadata `json:"metadata"`
	Shape  *struct {
		Rings [][][]float64 `json:"rings"`
		Items []struct {
			Qty int `json:"quantity"`
		} `json:"items"`
	} `json:"shape"`
}

func TestUnmarshalObject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       string // error details; "" for success
	}{
		{"empty", "", ""},
		{"spaces", " \n\t", ""},
		{"empty object", "{}", ""},
		{"unknown fields", `{"nope":[1,2,{"x":null}],"name":"a"}`, ""},
		{"malformed", `{"name":`, "Invalid JSON: unexpected end of JSON input (at byte 8)"},
		{"trailing data", `{} x`, "Invalid JSON: invalid character 'x' after top-level value (at byte 4)"},
		{"two objects", `{}{}`, "Invalid JSON: invalid character '{' after top-level value (at byte 3)"},
		{"array", `[{}]`, "Payload must be object"},
		{"string", `"x"`, "Payload must be object"},
		{"null", `null`, "Payload must be object"},
		{"number", `12`, "Payload must be object"},
		{"string for integer", `{"price":"1"}`, "Property .price must be integer"},
		{"fraction for integer", `{"price":1.5}`, "Property .price must be integer"},
		{"overflow", `{"price":1e30}`, "Property .price must be integer"},
		{"number for string", `{"name":1}`, "Property .name must be string"},
		{"string for boolean", `{"active":"yes"}`, "Property .active must be boolean"},
		{"object for array", `{"tags":{}}`, "Property .tags must be array"},
		{"array element", `{"tags":["a","b",3]}`, "Property .tags[2] must be string"},
		{"array for object", `{"metadata":[]}`, "Property .metadata must be object"},
		{"string for object", `{"shape":"circle"}`, "Property .shape must be object"},
		{"nested arrays", `{"shape":{"rings":[[[1,2]],[[3,4],[5,"6"]]]}}`, "Property .shape.rings[1][1][1] must be number"},
		{"array of objects", `{"shape":{"items":[{"quantity":1},{"quantity":true}]}}`, "Property .shape.items[1].quantity must be integer"},
		{"keys around", `{"a":{"b":[1]},"shape":{"x":[{}],"items":[{"y":"z","quantity":"q"}]}}`, "Property .shape.items[0].quantity must be integer"},
		{"decimal ok", `{"ratio":"0.5"}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var v decodeTarget
			err := unmarshalObject([]byte(tc.body), &v)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("unmarshalObject(%q): %v", tc.body, err)
				}
				return
			}
			var pe *promotype.Error
			if !errors.As(err, &pe) {
				t.Fatalf("unmarshalObject(%q) = %v, want a *promotype.Error", tc.body, err)
			}
			want := promotype.InvalidPayload("%s", tc.want)
			if diff := cmp.Diff(want, pe); diff != "" {
				t.Errorf("unmarshalObject(%q) mismatch (-want +got):\n%s", tc.body, diff)
			}
		})
	}
}

func TestDecodeBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, contentType, body string
		wantCode                int // 0 for success
	}{
		{"json", "application/json", `{"name":"x"}`, 0},
		{"no content type", "", `{"name":"x"}`, 0},
		{"form", "application/x-www-form-urlencoded", `name=x`, http.StatusUnsupportedMediaType},
		{"over the limit", "application/json", `{"name":"` + strings.Repeat("x", 100) + `"}`, http.StatusBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			if tc.contentType != "" {
				r.Header.Set("Content-Type", tc.contentType)
			}
			var v decodeTarget
			err := decodeBody(httptest.NewRecorder(), r, 64, &v)
			if got := promotype.AsError(err); (err == nil) != (tc.wantCode == 0) || (err != nil && got.Code != tc.wantCode) {
				t.Fatalf("decodeBody = %v, want code %d", err, tc.wantCode)
			}
		})
	}
}
