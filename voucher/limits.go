package voucher

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// Limits bounds the voucher generation one project may ask for, so that
// no project fills the store or holds the async runner for days. A request
// past a limit is refused with 400 voucher_limit_exceeded and changes
// nothing. The limits are checked when a generation is accepted (a
// campaign created with vouchers_count, or vouchers added to one);
// requests accepted concurrently may exceed the pending limits by their
// own size.
type Limits struct {
	// VouchersPerRequest is the most vouchers one request may generate
	// (default DefaultVouchersPerRequest; at most campaign.MaxVouchersCount).
	VouchersPerRequest int64
	// PendingVouchersPerProject is the most vouchers a project may have
	// waiting to be generated, by its queued and running generations and
	// the new one together (default DefaultPendingVouchersPerProject).
	PendingVouchersPerProject int64
	// PendingGenerationsPerProject is the most generations a project may
	// have queued or running (default DefaultPendingGenerationsPerProject;
	// at most promotype.MaxLimit).
	PendingGenerationsPerProject int
}

// Default limits.
const (
	DefaultVouchersPerRequest           = 1_000_000
	DefaultPendingVouchersPerProject    = 10_000_000
	DefaultPendingGenerationsPerProject = 100
)

func (l Limits) withDefaults() Limits {
	if l.VouchersPerRequest <= 0 {
		l.VouchersPerRequest = DefaultVouchersPerRequest
	}
	l.VouchersPerRequest = min(l.VouchersPerRequest, campaign.MaxVouchersCount)
	if l.PendingVouchersPerProject <= 0 {
		l.PendingVouchersPerProject = DefaultPendingVouchersPerProject
	}
	if l.PendingGenerationsPerProject <= 0 {
		l.PendingGenerationsPerProject = DefaultPendingGenerationsPerProject
	}
	l.PendingGenerationsPerProject = min(l.PendingGenerationsPerProject, promotype.MaxLimit)
	return l
}

func errVoucherLimit(format string, args ...any) *promotype.Error {
	return promotype.BadRequest("voucher_limit_exceeded", "Voucher limit exceeded", format, args...)
}

// GenerationAdmission returns the admission of async actions (see
// async.Service.SetAdmission) that refuses a generation past limits (zero
// fields take their defaults), reading the project's pending generations
// through the enqueuing transaction.
func GenerationAdmission(limits Limits) func(ctx context.Context, tx async.Store, projectID string, args async.Args) error {
	l := limits.withDefaults()
	return func(ctx context.Context, tx async.Store, projectID string, args async.Args) error {
		return l.admit(ctx, tx, projectID, args)
	}
}

func (l Limits) admit(ctx context.Context, tx async.Store, projectID string, args async.Args) error {
	g, ok := args.(campaign.GenerateVouchers)
	if !ok || g.Count == 0 {
		return nil // not a generation, or a campaign without vouchers (its generation only marks it DONE)
	}
	if g.Count > l.VouchersPerRequest {
		return errVoucherLimit("A request may generate at most %d vouchers, not %d: split it into several requests", l.VouchersPerRequest, g.Count)
	}
	q := promotype.Query{Limit: promotype.MaxLimit, OrderBy: "created_at", Filter: promotype.Filter{Junction: promotype.JunctionAnd,
		Conditions: []promotype.Condition{
			{Field: "type", Op: promotype.OpIs, Values: []string{campaign.ActionVouchersGenerate}},
			{Field: "status", Op: promotype.OpIn, Values: []string{string(async.StatusEnqueued), string(async.StatusInProgress)}},
		}}}
	pending, total, err := tx.ListAsyncActions(ctx, projectID, q)
	if err != nil {
		return err
	}
	if total >= l.PendingGenerationsPerProject {
		return errVoucherLimit("The project has %d voucher generations queued or running, the most it may have: wait until one ends", total)
	}
	left := g.Count
	for _, a := range pending {
		var p campaign.GenerateVouchers
		var st struct {
			Done int64 `json:"done"` // the generation's checkpoint
		}
		if json.Unmarshal(a.Payload, &p) != nil {
			continue
		}
		if len(a.State) > 0 {
			_ = json.Unmarshal(a.State, &st)
		}
		left += max(0, p.Count-st.Done)
	}
	if left > l.PendingVouchersPerProject {
		return errVoucherLimit("The project may have at most %d vouchers waiting to be generated; with this request it would have %d: wait until its generations end",
			l.PendingVouchersPerProject, left)
	}
	return nil
}
