package auth_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

func TestNormalizeOrigin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"https://shop.example", "https://shop.example", true},
		{"https://shop.example/", "https://shop.example", true},
		{"HTTP://LocalHost:3000", "http://localhost:3000", true},
		{" https://shop.example ", "https://shop.example", true},
		{"*", "", false},
		{"https://*.example", "", false},
		{"null", "", false},
		{"", "", false},
		{"shop.example", "", false},
		{"ftp://shop.example", "", false},
		{"https://shop.example/path", "", false},
		{"https://shop.example?x=1", "", false},
		{"https://user@shop.example", "", false},
		{"https://", "", false},
	} {
		got, err := auth.NormalizeOrigin(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("NormalizeOrigin(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, promotype.ErrInvalidPayload) {
			t.Errorf("NormalizeOrigin(%q): error %v is not invalid_payload", tc.in, err)
		}
	}
}

func TestNewClientKey(t *testing.T) {
	t.Parallel()
	k, creds, err := auth.NewClientKey("proj_1", auth.ClientKeyParams{
		KeyParams: auth.KeyParams{ID: "client_1", Secret: "client-secret-0123456789"},
		Origins:   []string{"https://a.example/", "HTTPS://A.example", "http://localhost:3000"},
	}, promotype.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://a.example", "http://localhost:3000"}, k.Origins); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
	if creds.ID != "client_1" || !auth.Match("client-secret-0123456789", k.SecretHash) || string(k.SecretHash) == creds.Secret {
		t.Errorf("key %+v, credentials %+v: the token must be stored hashed", k, creds)
	}
	for _, tc := range []struct {
		origin string
		want   bool
	}{{"https://a.example", true}, {"https://A.EXAMPLE", true}, {"http://localhost:3000", true}, {"http://a.example", false}, {"", false}, {"*", false}} {
		if got := k.Allows(tc.origin); got != tc.want {
			t.Errorf("Allows(%q) = %v, want %v", tc.origin, got, tc.want)
		}
	}
	for name, in := range map[string]auth.ClientKeyParams{
		"no origin":    {},
		"wildcard":     {Origins: []string{"*"}},
		"short secret": {KeyParams: auth.KeyParams{Secret: "short"}, Origins: []string{"https://a.example"}},
	} {
		if _, _, err := auth.NewClientKey("proj_1", in, promotype.Time{}); !errors.Is(err, promotype.ErrInvalidPayload) {
			t.Errorf("%s: err = %v, want invalid_payload", name, err)
		}
	}
}
