package promotest

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage/memory"
)

// TB is the part of testing.TB the harness uses; *testing.T and
// *testing.B satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// DefaultTime is where a harness's clock stands unless [WithTime] says
// otherwise.
var DefaultTime = time.Date(2026, time.January, 2, 10, 0, 0, 0, time.UTC)

// Option changes what [New] builds.
type Option func(*options)

type options struct {
	now    time.Time
	engine []promo.Option
	name   string
}

// WithTime sets the clock's starting instant.
func WithTime(t time.Time) Option { return func(o *options) { o.now = t } }

// WithEngineOptions passes options to promo.New (after the harness's
// clock and id generator, so a WithClock here replaces the fixed clock).
func WithEngineOptions(opts ...promo.Option) Option {
	return func(o *options) { o.engine = append(o.engine, opts...) }
}

// WithProjectName names the project (default "test").
func WithProjectName(name string) Option { return func(o *options) { o.name = name } }

// Harness is an engine over a memory store with one project ready.
type Harness struct {
	// Engine is the engine under test, over its own memory store.
	Engine *promo.Engine
	// Clock is the engine's clock: it does not move unless the test calls
	// Set or Advance.
	Clock *promotype.ManualClock
	// ProjectID is the project ready for the test.
	ProjectID string
	// App is an app key pair of the project (X-App-Id, X-App-Token), for
	// tests that go through the HTTP adapter.
	App auth.Credentials
	// Management is a management key granted the project
	// (X-Management-Id, X-Management-Token).
	Management auth.Credentials

	tb TB
}

// New returns a harness; a failure to build it fails tb at once.
func New(tb TB, opts ...Option) *Harness {
	tb.Helper()
	o := options{now: DefaultTime, name: "test"}
	for _, opt := range opts {
		opt(&o)
	}
	h := &Harness{Clock: promotype.NewManualClock(o.now), tb: tb}
	engOpts := append([]promo.Option{promo.WithClock(h.Clock), promo.WithIDGenerator(&promotype.SequentialIDs{})}, o.engine...)
	var err error
	if h.Engine, err = promo.New(memory.New(), engOpts...); err != nil {
		tb.Fatalf("promotest: promo.New: %v", err)
	}
	ctx := context.Background()
	p, err := h.Engine.Projects().Create(ctx, project.Params{Name: o.name})
	if err != nil {
		tb.Fatalf("promotest: creating the project: %v", err)
	}
	h.ProjectID = p.ID
	if h.App, err = h.Engine.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{}); err != nil {
		tb.Fatalf("promotest: creating the app key pair: %v", err)
	}
	if h.Management, err = h.Engine.Auth().CreateManagementKey(ctx, auth.KeyParams{}, p.ID); err != nil {
		tb.Fatalf("promotest: creating the management key: %v", err)
	}
	return h
}

// RequireVoucherRedeemed checks that voucher code (or id) of the project
// has been redeemed n times in all (rollbacks subtract).
func (h *Harness) RequireVoucherRedeemed(code string, n int64) {
	h.tb.Helper()
	v, err := h.Engine.Vouchers().Get(context.Background(), h.ProjectID, code)
	if err != nil {
		h.tb.Errorf("voucher %s: %v", code, err)
		return
	}
	if got := v.RedeemedQuantity; got != n {
		h.tb.Errorf("voucher %s: redeemed quantity %d, want %d", code, got, n)
	}
}

// RequireGiftBalance checks the balance left on gift card code.
func (h *Harness) RequireGiftBalance(code string, balance int64) {
	h.tb.Helper()
	v, err := h.Engine.Vouchers().Get(context.Background(), h.ProjectID, code)
	if err != nil {
		h.tb.Errorf("voucher %s: %v", code, err)
		return
	}
	if v.Gift == nil {
		h.tb.Errorf("voucher %s is not a gift card", code)
		return
	}
	if v.Gift.Balance != balance {
		h.tb.Errorf("gift card %s has a balance of %d, want %d", code, v.Gift.Balance, balance)
	}
}

// RequireRedemptions checks how many redemption records of the project
// have each result: want maps a result ("SUCCESS", "FAILURE") to its
// count; a result not in want is not checked. Rollbacks are records of
// their own (listed by [redemption.RedemptionService.List]) and are not
// counted here.
func (h *Harness) RequireRedemptions(want map[string]int) {
	h.tb.Helper()
	got, err := h.redemptionResults()
	if err != nil {
		h.tb.Errorf("listing the redemptions: %v", err)
		return
	}
	for result, n := range want {
		if got[result] != n {
			h.tb.Errorf("%d redemptions with result %s, want %d (all: %v)", got[result], result, n, got)
		}
	}
}

// redemptionResults counts the project's redemption records (not
// rollbacks) by result.
func (h *Harness) redemptionResults() (map[string]int, error) {
	out := map[string]int{}
	for page := 1; ; page++ {
		l, err := h.Engine.Redemptions().List(context.Background(), h.ProjectID,
			redemption.ListParams{ListParams: promotype.ListParams{Limit: 100, Page: page}})
		if err != nil {
			return nil, err
		}
		for _, r := range l.Data {
			if r.Object == "redemption" {
				out[r.Result]++
			}
		}
		if !l.HasMore || len(l.Data) == 0 {
			return out, nil
		}
	}
}

// String describes the harness (its project and time), for test logs.
func (h *Harness) String() string {
	return fmt.Sprintf("promotest harness: project %s at %s", h.ProjectID, h.Clock.Now().Format(time.RFC3339))
}
