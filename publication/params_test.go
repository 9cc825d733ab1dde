package publication

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

func TestCreateParamsCheck(t *testing.T) {
	t.Parallel()
	cust := &customer.Params{SourceID: promotype.Ptr("alice")}
	name := promotype.Ptr("Summer")
	for _, tc := range []struct {
		name string
		in   CreateParams
		n    int
		key  string // "" for no error
	}{
		{"voucher", CreateParams{Voucher: promotype.Ptr("SOLO"), Customer: cust}, 1, ""},
		{"voucher wins over campaign", CreateParams{Voucher: promotype.Ptr("SOLO"), Campaign: &CampaignRef{Name: name, Count: promotype.Ptr(3)}, Customer: cust}, 1, ""},
		{"campaign default count", CreateParams{Campaign: &CampaignRef{Name: name}, Customer: cust}, 1, ""},
		{"campaign by id", CreateParams{Campaign: &CampaignRef{ID: promotype.Ptr("camp_1"), Count: promotype.Ptr(50)}, Customer: cust}, 50, ""},
		{"no customer", CreateParams{Voucher: promotype.Ptr("SOLO")}, 0, "missing_customer"},
		{"neither voucher nor campaign", CreateParams{Customer: cust}, 0, "missing_vouchers"},
		{"campaign without name or id", CreateParams{Campaign: &CampaignRef{Count: promotype.Ptr(1)}, Customer: cust}, 0, "missing_vouchers"},
		{"count 0", CreateParams{Campaign: &CampaignRef{Name: name, Count: promotype.Ptr(0)}, Customer: cust}, 0, "invalid_payload"},
		{"count 51", CreateParams{Campaign: &CampaignRef{Name: name, Count: promotype.Ptr(51)}, Customer: cust}, 0, "invalid_payload"},
		{"count with source id", CreateParams{Campaign: &CampaignRef{Name: name, Count: promotype.Ptr(2)}, Customer: cust, SourceID: promotype.Ptr("s")}, 0, "invalid_publish_params"},
		{"empty channel", CreateParams{Voucher: promotype.Ptr("SOLO"), Customer: cust, Channel: promotype.Ptr("")}, 0, "invalid_payload"},
		{"NUL source id", CreateParams{Voucher: promotype.Ptr("SOLO"), Customer: cust, SourceID: promotype.Ptr("a\x00")}, 0, "invalid_payload"},
		{"bad customer", CreateParams{Voucher: promotype.Ptr("SOLO"), Customer: &customer.Params{Birthdate: promotype.Ptr("soon")}}, 0, "invalid_payload"},
	} {
		n, err := tc.in.check()
		key := ""
		if err != nil {
			key = promotype.AsError(err).Key
		}
		if key != tc.key || n != tc.n {
			t.Errorf("%s: got %d, %q (%v); want %d, %q", tc.name, n, key, err, tc.n, tc.key)
		}
	}
}

func TestCampaignRefJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		want CampaignRef
	}{
		{`"Summer"`, CampaignRef{Name: promotype.Ptr("Summer")}},
		{`{"name":"Summer","count":2}`, CampaignRef{Name: promotype.Ptr("Summer"), Count: promotype.Ptr(2)}},
		{`{"id":"camp_1"}`, CampaignRef{ID: promotype.Ptr("camp_1")}},
	} {
		var got CampaignRef
		if err := json.Unmarshal([]byte(tc.body), &got); err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.body, d)
		}
	}
	var bad CampaignRef
	if err := json.Unmarshal([]byte(`12`), &bad); err == nil {
		t.Errorf("a number read as a campaign")
	}
}

func TestHeldStatus(t *testing.T) {
	t.Parallel()
	now := promotype.NewTime(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC))
	before, after := promotype.NewTime(now.Add(-time.Hour)), promotype.NewTime(now.Add(time.Hour))
	base := func(f func(v *voucher.Voucher)) *voucher.Voucher {
		v := &voucher.Voucher{Active: true}
		f(v)
		return v
	}
	for _, tc := range []struct {
		name string
		v    *voucher.Voucher
		want string
	}{
		{"active", base(func(*voucher.Voucher) {}), StatusActive},
		{"disabled", base(func(v *voucher.Voucher) { v.Active = false }), StatusDisabled},
		{"not active yet", base(func(v *voucher.Voucher) { v.StartDate = &after }), StatusNotActiveYet},
		{"expired", base(func(v *voucher.Voucher) { v.ExpirationDate = &before }), StatusExpired},
		{"used", base(func(v *voucher.Voucher) { v.RedemptionQuantity, v.RedeemedQuantity = promotype.Ptr[int64](1), 1 }), StatusUsed},
		{"gift spent", base(func(v *voucher.Voucher) { v.Gift = &voucher.Gift{Amount: 100} }), StatusNoBalance},
		{"gift left", base(func(v *voucher.Voucher) { v.Gift = &voucher.Gift{Amount: 100, Balance: 1} }), StatusActive},
	} {
		if got := heldStatus(tc.v, now); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
