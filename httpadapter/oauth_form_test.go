package httpadapter

import (
	"errors"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

func TestParseForm(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		body    string
		want    form
		details string // of the 400, when it fails
	}{
		{"fields", "grant_type=client_credentials&scope=api+vouchers", form{"grant_type": "client_credentials", "scope": "api vouchers"}, ""},
		{"percent escapes", "scope=api%20vouchers%2Ccampaigns", form{"scope": "api vouchers,campaigns"}, ""},
		{"unknown fields ignored", "scope=api&client_id=x&x=1&x=2", form{"scope": "api"}, ""},
		{"empty body", "", form{}, ""},
		{"empty value kept", "scope=", form{"scope": ""}, ""},
		{"key without value", "scope", form{"scope": ""}, ""},
		{"repeated field", "scope=api&scope=rewards", nil, "Property scope must be sent once"},
		{"bad escape", "scope=%zz", nil, `The form body cannot be parsed: invalid URL escape "%zz"`},
		{"semicolon", "scope=api;x=1", nil, "The form body cannot be parsed: invalid semicolon separator in query"},
	}
	for _, tc := range tests {
		got, err := parseForm(tc.body, "grant_type", "scope")
		if tc.details != "" {
			var e *promotype.Error
			if !errors.As(err, &e) || e.Code != 400 || e.Key != "invalid_payload" || e.Details != tc.details {
				t.Errorf("%s: error %v, want 400 invalid_payload %q", tc.name, err, tc.details)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

// FuzzParseForm: any body decodes into the named fields exactly as
// url.ParseQuery reads them, or fails with a 400 invalid_payload; it never
// panics, and a decoded form encodes back to a body that decodes the same.
func FuzzParseForm(f *testing.F) {
	for _, s := range []string{"grant_type=client_credentials&scope=api", "scope=a%2Cb", "scope=%zz", "a=1;b=2", "scope=api&scope=x", "=&&=", "scope=%00%ff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got, err := parseForm(body, "grant_type", "scope", "access_token")
		if err != nil {
			var e *promotype.Error
			if !errors.As(err, &e) || e.Code != 400 || e.Key != "invalid_payload" {
				t.Fatalf("parseForm(%q): %v", body, err)
			}
			return
		}
		values, err := url.ParseQuery(body)
		if err != nil {
			t.Fatalf("parseForm accepted %q that url.ParseQuery refuses: %v", body, err)
		}
		back := url.Values{}
		for k, v := range got {
			if values.Get(k) != v || len(values[k]) != 1 {
				t.Fatalf("parseForm(%q)[%q] = %q, want %q", body, k, v, values[k])
			}
			back.Set(k, v)
		}
		again, err := parseForm(back.Encode(), "grant_type", "scope", "access_token")
		if err != nil || !cmp.Equal(got, again, cmp.Comparer(func(a, b form) bool { return cmp.Equal(map[string]string(a), map[string]string(b)) })) {
			t.Fatalf("parseForm(%q) = %v does not round-trip: %v %v", body, got, again, err)
		}
	})
}
