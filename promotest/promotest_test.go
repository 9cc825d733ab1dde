package promotest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotest"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// recordTB records what the harness reports instead of failing.
type recordTB struct{ errs []string }

func (*recordTB) Helper() {}
func (r *recordTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recordTB) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// The harness is ready: its clock stands still at the time given, and the
// key pairs it made authenticate for its project.
func TestNew(t *testing.T) {
	t.Parallel()
	at := time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)
	h := promotest.New(t, promotest.WithTime(at), promotest.WithProjectName("shop"))
	ctx := context.Background()
	if got := h.Engine.Clock().Now().Time; !got.Equal(at) {
		t.Errorf("clock = %v, want %v", got, at)
	}
	if pid, err := h.Engine.Auth().AuthenticateApp(ctx, h.App.ID, h.App.Secret); err != nil || pid != h.ProjectID {
		t.Errorf("AuthenticateApp = %q, %v; want %q", pid, err, h.ProjectID)
	}
	if _, err := h.Engine.Auth().AuthorizeManagement(ctx, h.Management.ID, h.Management.Secret, h.ProjectID); err != nil {
		t.Errorf("AuthorizeManagement: %v", err)
	}
	p, err := h.Engine.Projects().Get(ctx, h.ProjectID)
	if err != nil || p.Name != "shop" {
		t.Errorf("project = %+v, %v; want the name shop", p, err)
	}
	h.Clock.Advance(time.Hour)
	if got := h.Engine.Clock().Now().Time; !got.Equal(at.Add(time.Hour)) {
		t.Errorf("clock after Advance = %v, want an hour later", got)
	}
}

// Each assertion reports a mismatch, a missing voucher and a wrong kind
// of voucher in words a test log can be read by.
func TestRequireFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := promotest.New(t)
	if _, err := h.Engine.Vouchers().Create(ctx, h.ProjectID, voucher.Params{Code: promo.Ptr("TEN"),
		Type: promo.Ptr(campaign.DiscountVoucher), Discount: &discount.Discount{Type: discount.Amount,
			AmountOff: promo.Ptr(promotype.NewDecimal("1000"))}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		check func(h *promotest.Harness)
		want  []string
	}{
		{"redeemed as wanted", func(h *promotest.Harness) { h.RequireVoucherRedeemed("TEN", 0) }, nil},
		{"redeemed count differs", func(h *promotest.Harness) { h.RequireVoucherRedeemed("TEN", 3) },
			[]string{"voucher TEN: redeemed quantity 0, want 3"}},
		{"no such voucher", func(h *promotest.Harness) { h.RequireVoucherRedeemed("NOPE", 1) },
			[]string{"voucher NOPE: "}},
		{"not a gift card", func(h *promotest.Harness) { h.RequireGiftBalance("TEN", 0) },
			[]string{"voucher TEN is not a gift card"}},
		{"no redemptions yet", func(h *promotest.Harness) { h.RequireRedemptions(map[string]int{"SUCCESS": 0}) }, nil},
		{"redemptions differ", func(h *promotest.Harness) { h.RequireRedemptions(map[string]int{"SUCCESS": 1}) },
			[]string{"0 redemptions with result SUCCESS, want 1 (all: map[])"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordTB{}
			// The same engine and project, reporting to rec.
			hr := *h
			promotest.SetTB(&hr, rec)
			tt.check(&hr)
			got := rec.errs
			for i := range got {
				if i < len(tt.want) && len(got[i]) > len(tt.want[i]) && tt.want[i][len(tt.want[i])-2:] == ": " {
					got[i] = got[i][:len(tt.want[i])] // the store's error text after the prefix is not ours to pin
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reported (-want +got):\n%s", diff)
			}
		})
	}
}
