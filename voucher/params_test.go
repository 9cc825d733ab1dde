package voucher

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// TestUpdateParamsClear: a validity field given as null in PUT
// /v1/vouchers/{code} is cleared, an absent one is unchanged, and a name
// that is not a validity field, or a field both given and cleared (Go API),
// is refused.
func TestUpdateParamsClear(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body string
		want []string
	}{
		{`{"expiration_date":null}`, []string{"expiration_date"}},
		{`{"start_date":null,"validity_hours":null,"metadata":null}`, []string{"start_date", "validity_hours"}},
		{`{"expiration_date":"2030-01-01T00:00:00Z"}`, nil},
		{`{}`, nil},
	} {
		var in UpdateParams
		if err := json.Unmarshal([]byte(tc.body), &in); err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if diff := cmp.Diff(tc.want, in.Clear); diff != "" {
			t.Errorf("%s: Clear (-want +got):\n%s", tc.body, diff)
		}
		if err := in.ValidityParams.CheckClear(in.Clear); err != nil {
			t.Errorf("%s: %v", tc.body, err)
		}
	}

	at := promotype.Time{}
	for _, tc := range []struct {
		name string
		in   UpdateParams
	}{
		{"not a validity field", UpdateParams{Clear: []string{"description"}}},
		{"given and cleared", UpdateParams{Common: Common{ValidityParams: campaign.ValidityParams{ExpirationDate: &at}}, Clear: []string{"expiration_date"}}},
	} {
		if err := tc.in.ValidityParams.CheckClear(tc.in.Clear); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
