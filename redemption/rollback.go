package redemption

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// RollbackParams are the inputs of a rollback: a reason and a tracking id
// (query parameters over HTTP), and, in the body, the customer and the
// order the redemption must belong to (a mismatch is refused), and the
// rollback's metadata.
type RollbackParams struct {
	Reason     *string            `json:"reason"`
	TrackingID *string            `json:"tracking_id"`
	Customer   *customer.Params   `json:"customer"`
	Order      *OrderRef          `json:"order"`
	Metadata   promotype.Metadata `json:"metadata"`
}

// OrderRef names an order by id or source id.
type OrderRef struct {
	ID       *string `json:"id"`
	SourceID *string `json:"source_id"`
}

// RollbackStack is the answer of a rollback (and of POST
// /v1/redemptions/{id}/rollbacks): Rollbacks holds one rr_… row per
// redemption rolled back (the single redemption's, or one per child of a
// stacked one), ParentRollback the parent's rollback of a stacked
// redemption (nil for a single one), Order the order after the rollback.
type RollbackStack struct {
	Rollbacks      []*Redemption `json:"rollbacks"`
	ParentRollback *Redemption   `json:"parent_rollback,omitempty"`
	Order          *order.Order  `json:"order,omitempty"`
}

// Head is the rollback that stands for the whole: the parent rollback of
// a stacked redemption, the only rollback of a single one (the answer of
// POST /v1/redemptions/{id}/rollback).
func (r *RollbackStack) Head() *Redemption {
	if r.ParentRollback != nil {
		return r.ParentRollback
	}
	return r.Rollbacks[0]
}

// maxRollbackMonths is how old a redemption may be rolled back.
const maxRollbackMonths = 3

// RollbackOption changes what Rollback accepts.
type RollbackOption func(*rollbackOptions)

type rollbackOptions struct{ singleOnly bool }

// SingleOnly makes Rollback refuse a stacked redemption (a parent with
// children) with 400 invalid_redemption, as the hosted single-rollback
// endpoint POST /v1/redemptions/{id}/rollback does; the HTTP adapter uses
// it. A Go caller has no need of it.
func SingleOnly() RollbackOption { return func(o *rollbackOptions) { o.singleOnly = true } }

// Rollback undoes the redemption id, single or stacked, in one
// transaction. A single redemption gets one rr_… rollback row; a stacked
// one (the parent that Redeem returns as ParentRedemption) gets one per
// child, in the rollback order mode of the stacking rules, and a parent
// rollback. Their spend is given back (gift credits, loyalty points,
// quantities), their counters are undone, the order's entries are marked
// (the order CANCELED in WITH_ORDER mode) and redemption.rollback.succeeded
// is sent for each. A child of a stack cannot be rolled back alone (400
// invalid_redemption_parent), nor a failed redemption (400
// invalid_redemption), nor one older than three months (400
// invalid_rollback_params). A redemption rolled back already stores a
// failed rollback (rrf_…) and answers 400 already_rolled_back.
func (s *RedemptionService) Rollback(ctx context.Context, projectID, id string, in RollbackParams, opts ...RollbackOption) (*RollbackStack, error) {
	var o rollbackOptions
	for _, opt := range opts {
		opt(&o)
	}
	return s.rollback(ctx, projectID, id, in, !o.singleOnly)
}

func (s *RedemptionService) rollback(ctx context.Context, projectID, id string, in RollbackParams, allowStack bool) (*RollbackStack, error) {
	if in.Metadata != nil {
		if err := s.env.CheckMeta(ctx, projectID, "redemption", in.Metadata); err != nil {
			return nil, err
		}
	}
	rules, err := s.validations.rules.effective(ctx, s.store, projectID)
	if err != nil {
		return nil, err
	}
	var out *RollbackStack
	var refused error // a failed rollback: stored, then answered
	err = s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		rb := &rollbacker{s: s, st: st, projectID: projectID, in: in, now: s.env.Clock.Now(), mode: rules.RedeemablesRollbackOrderMode}
		var err error
		out, refused, err = rb.run(ctx, id, allowStack)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, refused
}

type rollbacker struct {
	s         *RedemptionService
	st        RedeemStore
	projectID string
	in        RollbackParams
	now       promotype.Time
	mode      string
}

// run checks the target and rolls it back; a redemption rolled back
// already gives a stored failure (refused) rather than an error.
func (rb *rollbacker) run(ctx context.Context, id string, allowStack bool) (*RollbackStack, error, error) {
	target, err := rb.st.GetRedemption(ctx, rb.projectID, id)
	if err != nil {
		return nil, nil, err
	}
	if err := rb.check(ctx, target, allowStack); err != nil {
		return nil, nil, err
	}
	children := []*Redemption{target}
	if len(target.Ledger.Children) > 0 {
		children = children[:0]
		for _, cid := range target.Ledger.Children {
			c, err := rb.st.GetRedemption(ctx, rb.projectID, cid)
			if err != nil {
				return nil, nil, err
			}
			children = append(children, c)
		}
	}
	headID := rb.s.env.IDs.NewID(PrefixRollback)
	done, err := rb.st.MarkRolledBack(ctx, rb.projectID, target.ID, headID, rb.now)
	if err != nil {
		return nil, nil, err
	}
	if !done {
		return nil, rb.failed(ctx, target), nil
	}
	parent := len(target.Ledger.Children) > 0
	var rows []*Redemption
	out := &RollbackStack{}
	for _, c := range children {
		id := headID
		if parent {
			id = rb.s.env.IDs.NewID(PrefixRollback)
		}
		rr, err := rb.undo(ctx, c, id, parent)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, rr)
		out.Rollbacks = append(out.Rollbacks, rr)
	}
	head := rows[0]
	if parent {
		head = rb.row(headID, target)
		head.Result, head.Status = ResultSuccess, StatusSucceeded
		for _, r := range rows {
			r.Ledger.ParentID = head.ID
			head.Ledger.Children = append(head.Ledger.Children, r.ID)
		}
		rows = append(rows, head)
		out.ParentRollback = head
	}
	if target.Ledger.OrderID != "" {
		o, err := rb.order(ctx, target, head)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range rows {
			r.Order = order.Normalized(o.Clone())
		}
		out.Order = o
	}
	// Locks are taken in the order a redemption takes them: the order
	// (above), the counters, then the vouchers in id order; the vouchers'
	// rows, which concurrent redemptions wait for, last. What presenting
	// the vouchers reads is read before.
	assigned, err := rb.assignments(ctx, out.Rollbacks)
	if err != nil {
		return nil, nil, err
	}
	if err := rb.count(ctx, children, out.Rollbacks); err != nil {
		return nil, nil, err
	}
	if err := rb.giveBack(ctx, out.Rollbacks, assigned); err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		present(r)
	}
	// The card transactions first: their insert is a statement of its
	// own, while a database holds the ledger rows and events back to the
	// commit.
	if err := rb.s.recordMovements(ctx, rb.st, out.Rollbacks, out.Order); err != nil {
		return nil, nil, err
	}
	if err := rb.st.InsertRedemptions(ctx, rows...); err != nil {
		return nil, nil, err
	}
	for _, r := range out.Rollbacks {
		if err := rb.s.emit(ctx, rb.st, EventRollbackSucceeded, r, out.Order); err != nil {
			return nil, nil, err
		}
	}
	return out, nil, nil
}

// check makes the refusals that store nothing: a failed redemption, a
// child of a stack, a stack under SingleOnly, one older than three months,
// an order or a customer the redemption does not belong to.
func (rb *rollbacker) check(ctx context.Context, r *Redemption, allowStack bool) error {
	switch {
	case r.Object != ObjectRedemption || r.Result != ResultSuccess:
		return promotype.BadRequest("invalid_redemption", "Invalid redemption", "Only a successful redemption can be rolled back.")
	case r.Ledger.ParentID != "":
		return promotype.BadRequest("invalid_redemption_parent", "Invalid redemption parent", "You can rollback only a redemption that does not have parent redemption.")
	case !allowStack && len(r.Ledger.Children) > 0:
		return promotype.BadRequest("invalid_redemption", "Invalid redemption", "You can rollback only a single redemption. Use different endpoint for stacked redemption.")
	case r.Date.Time.AddDate(0, maxRollbackMonths, 0).Before(rb.now.Time):
		return promotype.BadRequest("invalid_rollback_params", "Invalid rollback params", "A redemption older than %d months cannot be rolled back.", maxRollbackMonths)
	}
	if o := rb.in.Order; o != nil && (o.ID != nil || o.SourceID != nil) {
		stored, err := promotype.Resolve(ctx, "order", strings.Join(nonEmpty(o.ID, o.SourceID), ""), rb.projectID, rb.st.GetOrder, rb.st.FindOrderBySourceID)
		if err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return err
		}
		if stored == nil || stored.ID != r.Ledger.OrderID {
			return promotype.BadRequest("invalid_order", "Invalid order", "Order is not related with redemption.")
		}
	}
	if c := rb.in.Customer; c != nil && (c.ID != nil || c.SourceID != nil) {
		found, err := findCustomer(ctx, rb.st, rb.projectID, c)
		if err != nil {
			return err
		}
		if found == nil {
			return promotype.NotFound("customer", strings.Join(nonEmpty(c.ID, c.SourceID), ""))
		}
		if r.CustomerID == nil || *r.CustomerID != found.ID {
			return promotype.BadRequest("invalid_customer", "Invalid customer", "Customer is not related with redemption.")
		}
		if _, err := customer.Upsert(ctx, rb.st, rb.s.env, rb.projectID, *c); err != nil {
			return err
		}
	}
	return nil
}

func nonEmpty(ps ...*string) []string {
	for _, p := range ps {
		if p != nil && *p != "" {
			return []string{*p}
		}
	}
	return nil
}

// row is the rollback row id of redemption r.
func (rb *rollbacker) row(id string, r *Redemption) *Redemption {
	tracking := r.TrackingID
	if rb.in.TrackingID != nil {
		tracking = rb.in.TrackingID
	}
	return &Redemption{ID: id, Object: ObjectRollback, Date: rb.now,
		CustomerID: r.CustomerID, Customer: customer.NewRef(r.CustomerID), TrackingID: tracking, Metadata: rb.in.Metadata,
		Redemption: &r.ID, Reason: rb.in.Reason, Channel: r.Channel,
		RelatedObjectType: r.RelatedObjectType, RelatedObjectID: r.RelatedObjectID, PromotionTier: r.PromotionTier, Reward: r.Reward,
		Ledger: Ledger{ProjectID: rb.projectID, VoucherID: r.Ledger.VoucherID, VoucherCode: r.Ledger.VoucherCode,
			TierID: r.Ledger.TierID, CampaignID: r.Ledger.CampaignID, OrderID: r.Ledger.OrderID, RollbackMode: rb.mode}}
}

// failed stores the failed rollback of r (rolled back already) and
// returns its 400.
func (rb *rollbacker) failed(ctx context.Context, r *Redemption) error {
	f := rb.row(rb.s.env.IDs.NewID(PrefixFailedRollback), r)
	code, msg := "already_rolled_back", "Already rolled back"
	f.Result, f.Status, f.FailureCode, f.FailureMessage = ResultFailure, StatusFailed, &code, &msg
	if r.CustomerID != nil {
		if err := rb.st.AddCounters(ctx, rb.projectID, CounterDelta{Key: customerKey(*r.CustomerID, "total_rollback_failed"), Delta: 1}); err != nil {
			return err
		}
	}
	if err := rb.st.InsertRedemptions(ctx, f); err != nil {
		return err
	}
	if err := rb.s.emit(ctx, rb.st, EventRollbackFailed, f, nil); err != nil {
		return err
	}
	e := promotype.BadRequest(code, msg, "Redemption has been already rolled back.")
	e.ResourceID, e.ResourceType = f.ID, ObjectRollback
	return e
}

// undo returns child c's rollback row: its counters (c's undone, which
// count adds) and its spend (what c spent, negative, which giveBack gives
// back). c is marked ROLLED_BACK (a child of a parent here; a single
// redemption is marked by run). c is marked ROLLED_BACK (a child of a parent here; a
// single redemption is marked by run).
func (rb *rollbacker) undo(ctx context.Context, c *Redemption, id string, child bool) (*Redemption, error) {
	rr := rb.row(id, c)
	rr.Result, rr.Status = ResultSuccess, StatusSucceeded
	if child {
		if _, err := rb.st.MarkRolledBack(ctx, rb.projectID, c.ID, rr.ID, rb.now); err != nil {
			return nil, err
		}
	}
	back := c.Ledger.Spend.Neg()
	rr.Ledger.Spend = back
	rr.Amount = -c.Amount
	if c.Gift != nil {
		rr.Gift = &GiftAmount{Amount: -c.Gift.Amount}
	}
	if c.LoyaltyCard != nil {
		rr.LoyaltyCard = &LoyaltyPoints{Points: -c.LoyaltyCard.Points}
	}
	deltas := make([]CounterDelta, 0, len(c.Ledger.Counters))
	for _, d := range c.Ledger.Counters {
		if !isCustomersKey(d.Key) { // recomputed by count: a customer counts while it has a redemption left
			deltas = append(deltas, CounterDelta{Key: d.Key, Delta: -d.Delta})
		}
	}
	rr.Ledger.Counters = deltas
	return rr, nil
}

// count undoes the counters of the rollback rows rows (of children, in
// their order) in one statement, in key order (as a redemption adds its
// counters: several children's rows moved one by one would lock them out
// of order and deadlock with redemptions), adds the customers' rollback
// totals, and then moves the distinct-customers counters: each row's as
// it would alone, from the campaign-customer values as its own deltas
// left them (those of the rows after it subtracted).
func (rb *rollbacker) count(ctx context.Context, children, rows []*Redemption) error {
	var all []CounterDelta
	var read []string
	for i, rr := range rows {
		all = append(all, rr.Ledger.Counters...)
		read = append(read, campCustKeys(rr.Ledger.Counters)...)
		if id := children[i].CustomerID; id != nil {
			for _, name := range []string{"total_rolled_back", "total_rollback_succeeded"} {
				all = append(all, CounterDelta{Key: customerKey(*id, name), Delta: 1})
			}
		}
	}
	now, err := rb.st.AddCountersRead(ctx, rb.projectID, slices.Compact(slices.Sorted(slices.Values(read))), inKeyOrder(all)...)
	if err != nil {
		return err
	}
	distinct := make([][]CounterDelta, len(rows))
	for i, rr := range slices.Backward(rows) { // last first: now becomes what each saw
		distinct[i], _ = distinctDeltas(now, rr.Ledger.Counters, nil)
		for _, d := range rr.Ledger.Counters {
			if _, ok := now[d.Key]; ok {
				now[d.Key] -= d.Delta
			}
		}
	}
	var moved []CounterDelta
	for i, rr := range rows {
		moved = append(moved, distinct[i]...)
		rr.Ledger.Counters = append(slices.Clip(rr.Ledger.Counters), distinct[i]...)
	}
	return rb.st.AddCounters(ctx, rb.projectID, inKeyOrder(moved)...)
}

// assignments reads the validation rule assignments of the vouchers of
// rows (rollback rows), which presenting them shows, in one call.
func (rb *rollbacker) assignments(ctx context.Context, rows []*Redemption) (map[string][]*rule.Assignment, error) {
	var ids []string
	for _, rr := range rows {
		if rr.Ledger.VoucherID != "" {
			ids = append(ids, rr.Ledger.VoucherID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return rule.AssignmentsByObject(ctx, rb.st, rb.projectID, rule.RelatedVoucher, ids)
}

// giveBack gives each voucher of rows (rollback rows) what its redemption
// spent (rr.Ledger.Spend, negative) and presents it as left: in voucher
// id order, the order redemptions spend in, several distinct vouchers in
// one store call (SpendVouchers), presented with assigned (their rule
// assignments, by voucher id). A giving back is never refused.
func (rb *rollbacker) giveBack(ctx context.Context, rows []*Redemption, assigned map[string][]*rule.Assignment) error {
	var back []*Redemption
	for _, rr := range rows {
		if rr.Ledger.VoucherID != "" {
			back = append(back, rr)
		}
	}
	slices.SortStableFunc(back, func(a, b *Redemption) int { return strings.Compare(a.Ledger.VoucherID, b.Ledger.VoucherID) })
	ss := make([]VoucherSpend, len(back))
	distinct := true
	for i, rr := range back {
		ss[i] = VoucherSpend{VoucherID: rr.Ledger.VoucherID, Spend: rr.Ledger.Spend}
		distinct = distinct && (i == 0 || ss[i].VoucherID != ss[i-1].VoucherID)
	}
	var left []*voucher.Voucher
	var err error
	if distinct {
		left, err = rb.st.SpendVouchers(ctx, rb.projectID, ss)
	} else {
		left, err = SpendEach(ctx, rb.st, rb.projectID, ss)
	}
	if err != nil {
		return err
	}
	for i, rr := range back {
		if rr.Voucher, err = rb.s.vouchers.PresentAssigned(ctx, rb.st, left[i], assigned[rr.Ledger.VoucherID]); err != nil {
			return err
		}
	}
	return nil
}

// order marks the order entry of target rolled back by head and, in
// WITH_ORDER mode, cancels the order.
func (rb *rollbacker) order(ctx context.Context, target, head *Redemption) (*order.Order, error) {
	if err := rb.st.LockOrder(ctx, rb.projectID, target.Ledger.OrderID); err != nil {
		return nil, err
	}
	o, err := rb.st.GetOrder(ctx, rb.projectID, target.Ledger.OrderID)
	if err != nil {
		return nil, err
	}
	if e, ok := o.Redemptions[target.ID]; ok {
		e.RollbackID, e.RollbackDate = &head.ID, &rb.now
		e.RollbackStacked = head.Ledger.Children
		o.Redemptions[target.ID] = e
	}
	was := o.Status
	if rb.mode != RollbackWithoutOrder {
		o.Cancel(rb.now)
	} else {
		o.UpdatedAt = &rb.now
	}
	if err := rb.st.UpdateOrder(ctx, o); err != nil {
		return nil, err
	}
	return order.Normalized(o), order.LogActivity(ctx, rb.st, rb.s.env, order.Normalized(o), was)
}
