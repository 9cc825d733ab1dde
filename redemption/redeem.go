package redemption

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// The webhook events redemptions and rollbacks write to the outbox.
const (
	EventSucceeded         = "redemption.succeeded"
	EventFailed            = "redemption.failed"
	EventRollbackSucceeded = "redemption.rollback.succeeded"
	EventRollbackFailed    = "redemption.rollback.failed"
)

// maxAttempts bounds how many times a redemption is evaluated again after
// a limit or the order changed between its evaluation and its spend.
const maxAttempts = 64

// RedeemStore is what redemptions read and write: everything validation
// reads, the ledger, orders, voucher presentation and the outbox.
type RedeemStore interface {
	ServiceStore
	order.Store
	voucher.ServiceStore
	promotype.EventStore
}

// RedemptionService redeems (POST /v1/redemptions), rolls back and reads
// the ledger.
type RedemptionService struct {
	store       RedeemStore
	tx          promotype.TxFunc[RedeemStore]
	env         promotype.Env
	validations *Service
	vouchers    *voucher.Service
	combine     combiner // group commit of concurrent spends of one voucher (combine.go)
	reward      RewardEffect
	points      PointsEffect     // the loyalty expiry buckets (SetPointsEffect)
	conversion  ConversionEffect // referral conversions (SetConversionEffect)
}

// ConversionEffect is told, in a redemption's transaction, of each of its
// rows that redeemed a referral code (row.Voucher as the spend left it):
// the referee converts. An error fails the redemption, and nothing of it
// stays.
type ConversionEffect func(ctx context.Context, st RedeemStore, row *Redemption) error

// SetConversionEffect sets what a redemption of a referral code does
// besides its discount (the wiring points it at the referral service).
func (s *RedemptionService) SetConversionEffect(f ConversionEffect) { s.conversion = f }

// RewardEffect gives, in st's transaction, a reward a loyalty card paid
// for that is not an order discount (a MATERIAL reward's unit of stock, a
// CAMPAIGN reward's coupon or credits): row is the redemption (its Reward
// names the reward), card the card as the spend left it. It may fill
// row.Reward with what it gave; an error fails the redemption, and
// nothing of it stays.
type RewardEffect func(ctx context.Context, st RedeemStore, row *Redemption, card *voucher.Voucher) error

// SetRewardEffect sets what redeeming a reward gives besides spending the
// card's points (the wiring points it at the loyalty service).
func (s *RedemptionService) SetRewardEffect(f RewardEffect) { s.reward = f }

// NewRedemptionService returns the redemption service: validations
// evaluates requests, vouchers presents the voucher snapshots.
func NewRedemptionService(store RedeemStore, tx promotype.TxFunc[RedeemStore], env promotype.Env, validations *Service, vouchers *voucher.Service) *RedemptionService {
	return &RedemptionService{store: store, tx: tx, env: env, validations: validations, vouchers: vouchers,
		combine: combiner{queues: map[string]*queue{}}}
}

// RedeemOptions are what a redemption request carries besides its body.
type RedeemOptions struct {
	// IdempotencyKey makes a retried request answer the first result
	// (without spending again). Empty: none.
	IdempotencyKey string
	// ChannelID is the caller (an application key id); ChannelType
	// defaults to API.
	ChannelID, ChannelType string
}

// Redemptions is the answer of Redeem (POST /v1/redemptions).
type Redemptions struct {
	Redemptions             []*Redemption       `json:"redemptions"`
	ParentRedemption        *Redemption         `json:"parent_redemption,omitempty"`
	Order                   *order.Order        `json:"order,omitempty"`
	InapplicableRedeemables []*RedeemableResult `json:"inapplicable_redeemables,omitempty"`
	SkippedRedeemables      []*RedeemableResult `json:"skipped_redeemables,omitempty"`
}

// errStale is a redemption whose order changed after its evaluation.
var errStale = errors.New("redemption: the order changed since its evaluation")

// Redeem redeems the request's redeemables: it evaluates
// them as Validate does and, when the outcome is valid, spends what the
// applicable ones promised, stores the order and writes the ledger, all in
// one transaction. A limit reached meanwhile (another request spent the
// last unit or credits) makes it evaluate again. When nothing can be
// redeemed it stores a failed redemption (rf_…) and answers 400 with the
// first failure.
func (s *RedemptionService) Redeem(ctx context.Context, projectID string, in ValidationParams, opt RedeemOptions) (*Redemptions, error) {
	if s.env.Step == nil {
		return s.redeem(ctx, projectID, in, opt)
	}
	ctx, end := s.env.Step(ctx, promotype.StepRedeem, slog.String("project_id", projectID))
	out, err := s.redeem(ctx, projectID, in, opt)
	end(redeemOutcome(err), err)
	return out, err
}

// redeemOutcome is the outcome a redemption step reports: succeeded,
// failed (refused with a 4xx, recorded as a failed redemption) or error.
func redeemOutcome(err error) string {
	switch {
	case err == nil:
		return "succeeded"
	case promotype.AsError(err).Code < promotype.StatusInternalServerError:
		return "failed"
	}
	return "error"
}

func (s *RedemptionService) redeem(ctx context.Context, projectID string, in ValidationParams, opt RedeemOptions) (*Redemptions, error) {
	if opt.IdempotencyKey != "" {
		if out, err, ok := s.replay(ctx, projectID, opt.IdempotencyKey); ok {
			return out, err
		}
	}
	rules, err := s.validations.prepare(ctx, projectID, in)
	if err != nil {
		return nil, err
	}
	if _, err := checkSession(in.Session, func() string { return "" }); err != nil {
		return nil, err // a redemption opens no session: it uses the key's
	}
	alone := false // a combined attempt asked to run in its own transaction
	var retries promotype.Retries
	for range maxAttempts {
		r, out, tracking, err := s.validations.evaluate(ctx, projectID, in, rules)
		if err != nil {
			return nil, err
		}
		w := &write{s: s, projectID: projectID, in: in, opt: opt, r: r, out: out, tracking: tracking, now: s.env.Clock.Now()}
		if !out.Valid {
			err := w.fail(ctx)
			if errors.Is(err, promotype.ErrDuplicateFound) && opt.IdempotencyKey != "" {
				if out, err, ok := s.replay(ctx, projectID, opt.IdempotencyKey); ok {
					return out, err // a concurrent request with the key answered first
				}
			}
			return nil, err
		}
		var res *Redemptions
		if key, lane := w.combineKey(); key != "" && !alone && !s.combine.off {
			res, err = s.combine.commit(ctx, key, lane, w)
		} else {
			res, err = w.commit(ctx)
		}
		var le *LimitError
		switch {
		case errors.Is(err, errAlone):
			alone = true
			continue
		case errors.As(err, &le), errors.Is(err, errStale):
			continue // evaluate against what the others left
		case promotype.Retryable(err): // a deadlock in a batch's savepoint
			if retries.Again(ctx, err) {
				continue
			}
			return nil, retries.Final(err)
		case errors.Is(err, promotype.ErrDuplicateFound):
			if opt.IdempotencyKey != "" {
				if out, err, ok := s.replay(ctx, projectID, opt.IdempotencyKey); ok {
					return out, err // a concurrent request with the key won
				}
			}
			// A concurrent request created the order (or customer) this
			// one names by source id: evaluate again against it.
			continue
		}
		return res, err
	}
	return nil, promotype.BadRequest("multiple_requests", "Multiple requests", "The redeemables are in use by other requests; try again")
}

// replay answers a request whose idempotency key a stored redemption
// holds: its first answer, or its failure.
func (s *RedemptionService) replay(ctx context.Context, projectID, key string) (*Redemptions, error, bool) {
	r, err := s.store.FindRedemptionByIdempotencyKey(ctx, projectID, key)
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		return nil, nil, false
	case err != nil:
		return nil, err, true
	case r.Result == ResultFailure:
		return nil, failureError(r), true
	}
	var out Redemptions
	if err := json.Unmarshal(r.Ledger.Answer, &out); err != nil {
		return nil, err, true
	}
	return &out, nil, true
}

// failureError is the 400 of a failed redemption r.
func failureError(r *Redemption) error {
	status := r.Ledger.FailureStatus
	if status == 0 {
		status = 400
	}
	e := promotype.Newf(status, *r.FailureCode, deref(r.FailureMessage), "%s", r.Ledger.FailureDetails)
	e.ResourceID, e.ResourceType = r.ID, "redemption"
	if m := r.Ledger.FailureErrorMessage; m != "" {
		e.Err = &promotype.ErrorMessage{Message: m}
	}
	return e
}

// write is one attempt at storing a redemption.
type write struct {
	s         *RedemptionService
	projectID string
	in        ValidationParams
	opt       RedeemOptions
	r         *resolver
	out       *Outcome
	tracking  string
	now       promotype.Time

	customerID *string
	counters   []CounterDelta // what the ledger rows added (undone by a rollback)
	totals     []CounterDelta // customer totals (kept by a rollback)
	spends     []pendingSpend // children whose voucher spend is still to make (spend)
	stage      *staged        // what prepare left for finish
}

func (w *write) channel() Channel {
	c := Channel{ChannelID: w.opt.ChannelID, ChannelType: w.opt.ChannelType}
	if c.ChannelType == "" {
		c.ChannelType = "API"
	}
	return c
}

// fail stores the failed redemption of an outcome that redeems nothing
// and returns its 400.
func (w *write) fail(ctx context.Context) error {
	e := firstFailure(w.out)
	f := &Redemption{
		ID: w.s.env.IDs.NewID(PrefixFailedRedemption), Object: ObjectRedemption, Date: w.now,
		TrackingID: &w.tracking, Metadata: w.in.Metadata, Result: ResultFailure, Status: StatusFailed,
		FailureCode: &e.Key, FailureMessage: &e.Message, Channel: w.channel(), RelatedObjectType: RelatedRedemption,
		Ledger: Ledger{ProjectID: w.projectID, FailureStatus: e.Code, FailureDetails: e.Details, IdempotencyKey: w.opt.IdempotencyKey},
	}
	f.RelatedObjectID = f.ID
	if e.Err != nil {
		f.Ledger.FailureErrorMessage = e.Err.Message
	}
	present(f)
	if len(w.in.Redeemables) == 1 && w.in.Redeemables[0].Object == ObjectVoucher && len(w.r.shows) == 1 && w.r.shows[0].voucher != nil {
		v := w.r.shows[0].voucher
		f.RelatedObjectType, f.RelatedObjectID, f.Ledger.VoucherID, f.Ledger.VoucherCode = RelatedVoucher, v.ID, v.ID, v.Code
		f.Ledger.CampaignID = w.r.shows[0].campaignID // the campaign summary counts the failure
	}
	err := w.s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		if w.in.Customer != nil {
			c, err := findCustomer(ctx, st, w.projectID, w.in.Customer)
			if err != nil {
				return err
			}
			if c != nil {
				f.CustomerID, f.Customer = &c.ID, customer.NewRef(&c.ID)
				if err := st.AddCounters(ctx, w.projectID, customerTotals(c.ID, 1, 0, 1)...); err != nil {
					return err
				}
			}
		}
		if err := st.InsertRedemptions(ctx, f); err != nil {
			return err
		}
		return w.s.emit(ctx, st, EventFailed, f, nil)
	})
	if err != nil {
		return err
	}
	return failureError(f)
}

// firstFailure is the error of the first redeemable that did not apply.
func firstFailure(out *Outcome) *promotype.Error {
	for _, st := range out.Steps {
		if st.Status == Inapplicable && st.Error != nil {
			return st.Error
		}
	}
	for _, st := range out.Steps {
		if st.Details != nil {
			return promotype.BadRequest(st.Details.Key, st.Details.Message, "%s", st.Candidate.ID)
		}
	}
	return promotype.BadRequest("invalid_redeemables", "Invalid redeemables", "No redeemable can be redeemed")
}

// customerTotals are the deltas of a customer's redemption summary.
func customerTotals(id string, redeemed, succeeded, failed int64) []CounterDelta {
	var out []CounterDelta
	for _, c := range []struct {
		name string
		d    int64
	}{{"total_failed", failed}, {"total_redeemed", redeemed}, {"total_succeeded", succeeded}} {
		if c.d != 0 {
			out = append(out, CounterDelta{Key: customerKey(id, c.name), Delta: c.d})
		}
	}
	return out
}

// inKeyOrder returns ds sorted by key (stable: the deltas of one key keep
// their order), so that concurrent transactions lock counter rows in the
// same order and queue instead of deadlocking.
func inKeyOrder(ds []CounterDelta) []CounterDelta {
	slices.SortStableFunc(ds, func(a, b CounterDelta) int { return strings.Compare(a.Key, b.Key) })
	return ds
}

// commit spends, stores the order and writes the ledger in one
// transaction.
func (w *write) commit(ctx context.Context) (*Redemptions, error) {
	var res *Redemptions
	err := w.s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		var err error
		res, err = w.apply(ctx, st)
		return err
	})
	return res, err
}

// apply writes the redemption through st: prepare, then finish. It may run
// again on the same write (a group transaction rolled back), each time as
// the first.
func (w *write) apply(ctx context.Context, st RedeemStore) (*Redemptions, error) {
	if err := w.prepare(ctx, st); err != nil {
		return nil, err
	}
	return w.finish(ctx, st)
}

// staged is what prepare leaves for finish: the order and ledger rows, and
// the counter deltas to add with the spend.
type staged struct {
	o        *order.Order
	head     *Redemption
	children []*Redemption
	caps     map[string]int64 // limits on the distinct-customer counters
	all      []CounterDelta   // in key order
	read     []string         // counters to read back (nil: first holds the distinct deltas)
	first    []CounterDelta   // the distinct-customer counts a new customer moves
	from     []string         // the campaign-customer counter that moved each of first
	counted  map[string]int64 // set when a group transaction added the deltas: the values of read after them
	spent    *voucher.Voucher // set when a group transaction spent the voucher: what the spend left
	// spentEach is set when a batch spent the vouchers of every spend of
	// the write together with the batch's others (spendStacked): what
	// each spend of w.spends left, by index.
	spentEach []*voucher.Voucher
}

// prepare does the part of a redemption's write that spends nothing:
// records the customer and the order and builds the ledger rows and the
// counter deltas (w.stage).
func (w *write) prepare(ctx context.Context, st RedeemStore) error {
	w.customerID, w.counters, w.totals, w.spends = nil, nil, nil, nil
	var op order.Params
	if w.in.Order != nil {
		op = *w.in.Order
	}
	o := w.out.Order.Clone()
	stored := o.ID != ""
	if stored {
		if err := st.LockOrder(ctx, w.projectID, o.ID); err != nil {
			return err
		}
		cur, err := st.GetOrder(ctx, w.projectID, o.ID)
		if err != nil {
			return err
		}
		if !sameTime(cur.UpdatedAt, o.UpdatedAt) || len(cur.Redemptions) != len(o.Redemptions) || cur.Status != o.Status {
			return errStale
		}
	}
	fresh := false // the customer is new: its counters are all zero
	if w.in.Customer != nil {
		var c *customer.Customer
		var err error
		if w.r.custID != nil { // evaluation looked the customer up
			c, fresh, err = customer.UpsertSeen(ctx, st, w.s.env, w.projectID, *w.in.Customer, w.r.cust)
		} else {
			c, err = customer.Upsert(ctx, st, w.s.env, w.projectID, *w.in.Customer)
		}
		if err != nil {
			return err
		}
		w.customerID = &c.ID
		if !stored && op.Customer == nil && !op.CustomerID.Set {
			o.CustomerID = &c.ID // upserted just now: Record need not read it again
		}
	}
	var children []*Redemption
	var steps []*Step
	for i := range w.out.Steps {
		step := &w.out.Steps[i]
		if step.Status != Applicable {
			continue
		}
		child, err := w.child(ctx, st, step)
		if err != nil {
			return err
		}
		children, steps = append(children, child), append(steps, step)
	}
	head := children[0]
	if len(children) > 1 {
		head = &Redemption{ID: w.s.env.IDs.NewID(PrefixRedemption), Object: ObjectRedemption, Date: w.now,
			CustomerID: w.customerID, Customer: customer.NewRef(w.customerID), TrackingID: &w.tracking, Metadata: w.in.Metadata,
			Result: ResultSuccess, Status: StatusSucceeded, Channel: w.channel(), RelatedObjectType: RelatedRedemption,
			Ledger: Ledger{ProjectID: w.projectID}}
		head.RelatedObjectID = head.ID
		for _, c := range children {
			c.Redemption, c.Ledger.ParentID = &head.ID, head.ID
			head.Ledger.Children = append(head.Ledger.Children, c.ID)
		}
	}
	head.Ledger.IdempotencyKey = w.opt.IdempotencyKey
	entry := order.Redemption{Date: &w.now, RelatedObjectType: head.RelatedObjectType, RelatedObjectID: head.RelatedObjectID}
	if len(children) > 1 {
		entry.Stacked = head.Ledger.Children
	} else if head.Ledger.CampaignID != "" {
		entry.RelatedObjectParentID = &head.Ledger.CampaignID
	}
	if o.Redemptions == nil {
		o.Redemptions = map[string]order.Redemption{}
	}
	o.Redemptions[head.ID] = entry
	o, err := order.Record(ctx, st, w.s.env, w.projectID, o, &op, stored)
	if err != nil {
		return err
	}
	if o.CustomerID != nil && w.customerID == nil {
		w.customerID = o.CustomerID
		for _, c := range children {
			c.CustomerID, c.Customer = w.customerID, customer.NewRef(w.customerID)
		}
		head.CustomerID, head.Customer = w.customerID, customer.NewRef(w.customerID)
	}
	if w.customerID != nil {
		for _, c := range children {
			w.customerCounters(c)
		}
	}
	caps := w.historyCounters(children, steps)
	for _, c := range children {
		c.Ledger.OrderID = o.ID
		if c != head { // head shows the stored order itself (below)
			c.Order = order.Normalized(stamped(c.Order, o))
		}
		present(c)
	}
	if len(children) > 1 {
		head.Ledger.OrderID = o.ID
		present(head)
	}
	head.Order = order.Normalized(o.Clone())
	all := append(append(make([]CounterDelta, 0, len(w.counters)+len(w.totals)+1), w.counters...), w.totals...)
	read := campCustKeys(w.counters)
	sg := &staged{o: o, head: head, children: children, caps: caps}
	if fresh {
		// Every campaign-customer counter of the new customer starts at
		// zero, so which distinct-customer counts move is known without
		// reading them back: they go with the other counters.
		sg.first, sg.from = distinctDeltas(freshValues(w.counters), w.counters, caps)
		all, read = append(all, sg.first...), nil
	}
	sg.all, sg.read = inKeyOrder(all), read
	w.stage = sg
	return nil
}

// finish spends and writes what prepare staged: the counters and the
// spend, the ledger rows and the events.
func (w *write) finish(ctx context.Context, st RedeemStore) (*Redemptions, error) {
	sg := w.stage
	o, head, children := sg.o, sg.head, sg.children
	now := sg.counted
	spent := sg.spent // what a spend of the group or countAndSpend's left, if one spent
	if now == nil {
		var err error
		if now, spent, err = w.countAndSpend(ctx, st, sg.read, sg.all); err != nil {
			return nil, err
		}
	}
	if sg.read == nil {
		recordDistinct(children, sg.first, sg.from)
	} else if err := w.distinct(ctx, st, now, children, sg.caps); err != nil {
		return nil, err
	}
	if err := w.spend(ctx, st, spent); err != nil {
		return nil, err
	}
	// The cards' transactions, then what the rewards give (which may move
	// a card again): the ledger is in the order things happened.
	if err := w.s.recordMovements(ctx, st, children, o); err != nil {
		return nil, err
	}
	if err := w.giveRewards(ctx, st, children); err != nil {
		return nil, err
	}
	if err := w.convert(ctx, st, children); err != nil {
		return nil, err
	}
	rows := children
	if len(children) > 1 {
		rows = append(rows, head)
	}
	// The answer's order is o itself: Record stored a copy of it (the store
	// keeps its own) and normalized it, and nothing changes it after, so
	// the answer owns it; head.Order is a copy, so that the answer's two
	// orders share nothing.
	res := &Redemptions{Redemptions: children, Order: o}
	if len(children) > 1 {
		res.ParentRedemption = head
	}
	for i := range w.out.Steps {
		step := &w.out.Steps[i]
		switch step.Status {
		case Inapplicable:
			res.InapplicableRedeemables = append(res.InapplicableRedeemables, w.r.present(step))
		case Skipped:
			res.SkippedRedeemables = append(res.SkippedRedeemables, w.r.present(step))
		}
	}
	if w.opt.IdempotencyKey != "" {
		// Only a retry with the key reads the answer back (replay).
		answer, err := json.Marshal(res)
		if err != nil {
			return nil, err
		}
		head.Ledger.Answer = answer
	}
	if err := st.InsertRedemptions(ctx, rows...); err != nil {
		return nil, err
	}
	for _, c := range children {
		if err := w.s.emit(ctx, st, EventSucceeded, c, o); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// child spends what one applicable redeemable promised and returns its
// ledger row.
func (w *write) child(ctx context.Context, st RedeemStore, step *Step) (*Redemption, error) {
	sh := &w.r.shows[step.Index]
	c := step.Candidate
	row := &Redemption{ID: w.s.env.IDs.NewID(PrefixRedemption), Object: ObjectRedemption, Date: w.now,
		CustomerID: w.customerID, Customer: customer.NewRef(w.customerID), TrackingID: &w.tracking, Metadata: w.in.Metadata,
		Result: ResultSuccess, Status: StatusSucceeded, Channel: w.channel(), Order: step.Order,
		Ledger: Ledger{ProjectID: w.projectID, CampaignID: sh.campaignID}}
	if sh.object == ObjectPromotionTier {
		row.RelatedObjectType, row.RelatedObjectID, row.Ledger.TierID = RelatedPromotionTier, c.ID, c.ID
		row.PromotionTier = &TierRef{ID: c.ID, Name: sh.name, Object: ObjectPromotionTier}
		if sh.campaignID != "" {
			row.PromotionTier.CampaignID = &sh.campaignID
		}
		applied := int64(0)
		if step.Order != nil {
			applied = step.Order.TotalAppliedDiscountAmount
		}
		w.counters = append(w.counters,
			CounterDelta{Key: tierKey(c.ID, "total_redeemed"), Delta: 1},
			CounterDelta{Key: tierKey(c.ID, "orders_total_amount"), Delta: w.out.Order.Amount},
			CounterDelta{Key: tierKey(c.ID, "orders_total_discount_amount"), Delta: applied})
		row.Ledger.Counters = slices.Clip(w.counters[len(w.counters)-3:])
		return row, nil
	}
	v := sh.voucher
	sp := Spend{Quantity: 1}
	switch {
	case c.Gift != nil:
		sp.Credits = step.Credits
		row.Amount, row.Gift = step.Credits, &GiftAmount{Amount: step.Credits}
	case c.Loyalty != nil:
		sp.Points = step.Points
		row.Amount, row.LoyaltyCard = step.Points, &LoyaltyPoints{Points: step.Points}
		row.Reward = &RewardRef{ID: sh.rewardID, AssignmentID: c.Loyalty.AssignmentID, Object: "reward"}
	}
	row.RelatedObjectType, row.RelatedObjectID = RelatedVoucher, v.ID
	row.Ledger.VoucherID, row.Ledger.VoucherCode, row.Ledger.Spend = v.ID, v.Code, sp
	w.spends = append(w.spends, pendingSpend{row: row, show: sh})
	return row, nil
}

// spend takes from each voucher what its child row spends (but the first
// when countAndSpend spent it: first is the voucher it left) and presents
// the voucher as it is afterwards. apply spends after every other write but
// the ledger rows and events, which a database holds back to the commit,
// so that a voucher's row lock (taken by the spend, held until the
// transaction ends) is held as briefly as possible: concurrent redemptions
// of one voucher wait on it. Several vouchers are spent in id order, the
// order every redemption and rollback locks vouchers in, so that two of
// them spending the same vouchers queue instead of deadlocking; outside a
// session, in one store call (SpendVouchers).
func (w *write) spend(ctx context.Context, st RedeemStore, first *voucher.Voucher) error {
	after := make([]*voucher.Voucher, len(w.spends))
	if first != nil {
		after[0] = first // countAndSpend spent the first voucher
	}
	if w.stage != nil && w.stage.spentEach != nil {
		copy(after, w.stage.spentEach) // spendStacked spent them all
	}
	order := make([]int, 0, len(w.spends))
	for i := range w.spends {
		if after[i] == nil {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return strings.Compare(w.spends[a].row.Ledger.VoucherID, w.spends[b].row.Ledger.VoucherID)
	})
	if err := w.spendInOrder(ctx, st, order, after); err != nil {
		return err
	}
	for i, p := range w.spends {
		row := p.row
		if k := requestKey(w.in.Session); k != "" {
			row.Session = &RedemptionSession{Key: k}
		}
		var err error
		if row.Voucher, err = w.s.vouchers.PresentAssigned(ctx, st, after[i], p.show.assignments); err != nil {
			return err
		}
	}
	return nil
}

// spendInOrder spends the vouchers of w.spends[i] for i in order (sorted
// by voucher id) and sets after[i] to what each spend left. Two or more
// distinct vouchers outside a session, none reserved when evaluated, are
// spent by one SpendVouchers; a reservation made since the evaluation
// makes the write evaluate again (errStale: the transaction undoes what
// the call spent), and then it spends through the reservations.
func (w *write) spendInOrder(ctx context.Context, st RedeemStore, order []int, after []*voucher.Voucher) error {
	together := len(order) > 1 && requestKey(w.in.Session) == ""
	ss := make([]VoucherSpend, 0, len(order))
	for k, i := range order {
		p := w.spends[i]
		if p.show.voucher == nil || p.show.voucher.ReservedUntil != nil ||
			k > 0 && p.row.Ledger.VoucherID == w.spends[order[k-1]].row.Ledger.VoucherID {
			together = false
		}
		ss = append(ss, VoucherSpend{VoucherID: p.row.Ledger.VoucherID, Spend: p.row.Ledger.Spend})
	}
	if together {
		spent, err := st.SpendVouchers(ctx, w.projectID, ss)
		if errors.Is(err, ErrReserved) {
			return errStale
		}
		if err != nil {
			return err
		}
		for k, i := range order {
			after[i] = spent[k]
		}
		return nil
	}
	for k, i := range order {
		v, err := w.spendVoucher(ctx, st, ss[k].VoucherID, ss[k].Spend)
		if err != nil {
			return err
		}
		after[i] = v
	}
	return nil
}

// giveRewards runs the reward effect of every row that paid points for a
// reward.
func (w *write) giveRewards(ctx context.Context, st RedeemStore, rows []*Redemption) error {
	if w.s.reward == nil {
		return nil
	}
	for _, r := range rows {
		if r.Reward != nil && r.Voucher != nil && r.Ledger.Spend.Points > 0 {
			if err := w.s.reward(ctx, st, r, r.Voucher); err != nil {
				return err
			}
		}
	}
	return nil
}

// convert runs the conversion effect of every row that redeemed a
// referral code.
func (w *write) convert(ctx context.Context, st RedeemStore, rows []*Redemption) error {
	if w.s.conversion == nil {
		return nil
	}
	for _, r := range rows {
		if r.Voucher != nil && r.Voucher.IsReferralCode {
			if err := w.s.conversion(ctx, st, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// countAndSpend adds the redemption's counters ds and reads back the
// values of read. When the write spends exactly one voucher, outside a
// session, and no delta has a limit, it spends that voucher in the same
// store call (AddCountersReadSpend: one statement on a database) and
// returns the voucher the spend left; otherwise, or when the voucher is
// reserved by sessions, the voucher is nil and spend spends it.
func (w *write) countAndSpend(ctx context.Context, st RedeemStore, read []string, ds []CounterDelta) (map[string]int64, *voucher.Voucher, error) {
	sp, ok := w.soleSpend()
	if !ok || Capped(ds) {
		now, err := st.AddCountersRead(ctx, w.projectID, read, ds...)
		return now, nil, err
	}
	now, after, err := st.AddCountersReadSpend(ctx, w.projectID, read, ds, sp.VoucherID, sp.Spend)
	if errors.Is(err, ErrReserved) {
		return now, nil, nil // spend takes it through the reservations
	}
	return now, after, err
}

// soleSpend is the spend of the one voucher the write spends outside a
// session, which a store may make together with other steps
// (AddCountersReadSpend, SpendVouchers); false when it spends several or
// through a session's reservations.
func (w *write) soleSpend() (VoucherSpend, bool) {
	if len(w.spends) != 1 || requestKey(w.in.Session) != "" {
		return VoucherSpend{}, false
	}
	l := w.spends[0].row.Ledger
	return VoucherSpend{VoucherID: l.VoucherID, Spend: l.Spend}, true
}

// pendingSpend is a child row whose voucher is still to spend, with the
// redeemable it spends (its evaluation's reads).
type pendingSpend struct {
	row  *Redemption
	show *show
}

// customerCounters records what child adds to its customer's summary and
// per-customer counts.
func (w *write) customerCounters(child *Redemption) {
	id := *w.customerID
	w.totals = append(w.totals, customerTotals(id, 1, 1, 0)...)
	var undo []CounterDelta
	if child.Ledger.VoucherID != "" {
		undo = append(undo, CounterDelta{Key: VoucherCustomerKey(child.Ledger.VoucherID, id), Delta: 1})
	}
	if child.Ledger.CampaignID != "" {
		undo = append(undo, CounterDelta{Key: CampaignCustomerKey(child.Ledger.CampaignID, id), Delta: 1})
	}
	if sp := child.Ledger.Spend; sp.Credits != 0 {
		undo = append(undo, CounterDelta{Key: customerKey(id, "gift_redeemed_amount"), Delta: sp.Credits})
	} else if sp.Points != 0 {
		undo = append(undo, CounterDelta{Key: customerKey(id, "loyalty_redeemed_points"), Delta: sp.Points})
	}
	w.counters = append(w.counters, undo...)
	child.Ledger.Counters = append(child.Ledger.Counters, undo...)
}

// historyCounters adds what each child adds to the redemption-history
// counters (capped by its rules' limits) and returns the limits on the
// distinct-customers counters.
func (w *write) historyCounters(children []*Redemption, steps []*Step) map[string]int64 {
	cust := deref(w.customerID)
	var caps map[string]int64
	for k, child := range children {
		st := steps[k]
		var discounted int64
		if st.Order != nil {
			discounted = st.Order.TotalAppliedDiscountAmount
		}
		ds := historyDeltas(st.Candidate, cust, w.r.periods, w.r.amount, discounted)
		w.counters = append(w.counters, ds...)
		child.Ledger.Counters = append(child.Ledger.Counters, ds...)
		caps = customersCaps(caps, st.Candidate, w.r.periods)
	}
	return caps
}

// distinct counts the customers whose first redemption in a campaign (and
// period) this is, after the campaign-customer counters moved (to now).
func (w *write) distinct(ctx context.Context, st RedeemStore, now map[string]int64, children []*Redemption, caps map[string]int64) error {
	ds, from := distinctDeltas(now, w.counters, caps)
	if len(ds) == 0 {
		return nil
	}
	if err := st.AddCounters(ctx, w.projectID, ds...); err != nil {
		return err
	}
	recordDistinct(children, ds, from)
	return nil
}

// recordDistinct records each distinct-customer delta ds[i] on the child
// that moved its campaign-customer counter from[i] (a rollback undoes it
// with that child).
func recordDistinct(children []*Redemption, ds []CounterDelta, from []string) {
	for i, d := range ds {
		for _, c := range children {
			if slices.ContainsFunc(c.Ledger.Counters, func(x CounterDelta) bool { return x.Key == from[i] }) {
				c.Ledger.Counters = append(c.Ledger.Counters, d)
				break
			}
		}
	}
}

// freshValues is the values the campaign-customer counters of ds take
// when they all start at zero (a customer created by the write).
func freshValues(ds []CounterDelta) map[string]int64 {
	now := map[string]int64{}
	for _, k := range campCustKeys(ds) {
		now[k] = 0
	}
	for _, d := range ds {
		if _, ok := now[d.Key]; ok {
			now[d.Key] += d.Delta
		}
	}
	return now
}

// stamped is a child's running order as stored: the running amounts with
// the stored order's identity and status.
func stamped(running, stored *order.Order) *order.Order {
	if running == nil {
		return stored.Clone()
	}
	o := running.Clone()
	o.ID, o.SourceID, o.CreatedAt, o.UpdatedAt, o.Status = stored.ID, promotype.ClonePtr(stored.SourceID), stored.CreatedAt, promotype.ClonePtr(stored.UpdatedAt), stored.Status
	o.CustomerID, o.Customer, o.Metadata, o.Object = promotype.ClonePtr(stored.CustomerID), promotype.ClonePtr(stored.Customer), stored.Metadata.Clone(), "order"
	o.Redemptions = stored.CloneRedemptions()
	return o
}

func sameTime(a, b *promotype.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// emit appends a redemption event about r (data as OpenAPIWebhooks
// documents it: customer, order, campaign, voucher, promotion_tier,
// redemption, created_at), entered in the activity log of r's customer
// as customer.<typ>.
func (s *RedemptionService) emit(ctx context.Context, st RedeemStore, typ string, r *Redemption, o *order.Order) error {
	a := &promotype.Activity{CustomerID: deref(r.CustomerID), Type: "customer." + typ, CampaignID: r.Ledger.CampaignID}
	return promotype.AppendEventFor(ctx, st, s.env, r.Ledger.ProjectID, typ, r.ID, a, func() (any, error) {
		data := &eventData{Redemption: r, Customer: r.Customer, Order: o, Voucher: r.Voucher, PromotionTier: r.PromotionTier, CreatedAt: r.Date}
		if r.Ledger.CampaignID != "" {
			c, err := st.GetCampaign(ctx, r.Ledger.ProjectID, r.Ledger.CampaignID)
			switch {
			case errors.Is(err, promotype.ErrNotFound):
			case err != nil:
				return nil, err
			default:
				data.Campaign = c
				a.CampaignType = string(c.CampaignType)
			}
		}
		return data, nil
	})
}

// eventData is the data of a redemption event. Its fields are in the
// order of their names, as the map it replaces encoded them, and none is
// omitted when empty (null): the payload is the one webhooks always got.
type eventData struct {
	Campaign      *campaign.Campaign `json:"campaign"`
	CreatedAt     promotype.Time     `json:"created_at"`
	Customer      *customer.Ref      `json:"customer"`
	Order         *order.Order       `json:"order"`
	PromotionTier *TierRef           `json:"promotion_tier"`
	Redemption    *Redemption        `json:"redemption"`
	Voucher       *voucher.Voucher   `json:"voucher"`
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// findCustomer returns the stored customer c names (by id or source id),
// nil when none does.
func findCustomer(ctx context.Context, st customer.Store, projectID string, c *customer.Params) (*customer.Customer, error) {
	for _, ref := range []*string{c.ID, c.SourceID} {
		if ref == nil || *ref == "" {
			continue
		}
		found, err := customer.Resolve(ctx, st, projectID, *ref)
		if errors.Is(err, promotype.ErrNotFound) {
			continue
		}
		return found, err
	}
	return nil, nil
}

// LegacyRedeemParams is the body of the legacy (deprecated) single
// redemptions, POST /v1/vouchers/{code}/redemption and
// POST /v1/promotions/tiers/{id}/redemption. Session
// names the session whose reservation the redemption uses (the SDK sends
// its key).
type LegacyRedeemParams struct {
	Customer   *customer.Params   `json:"customer"`
	Order      *order.Params      `json:"order"`
	Metadata   promotype.Metadata `json:"metadata"`
	Gift       *GiftParams        `json:"gift"`
	Reward     *RewardParams      `json:"reward"`
	Session    *SessionParams     `json:"session,omitempty"`
	TrackingID *string            `json:"tracking_id"`
	Options    *ValidationOptions `json:"options"`
}

// RedeemVoucher redeems one voucher (code or id) the legacy way: the
// answer is the redemption itself; a failure is a 400 naming the stored
// rf_… redemption, an unknown code a 404.
func (s *RedemptionService) RedeemVoucher(ctx context.Context, projectID, code string, in LegacyRedeemParams, opt RedeemOptions) (*Redemption, error) {
	return s.redeemOne(ctx, projectID, RedeemableParams{Object: ObjectVoucher, ID: code, Gift: in.Gift, Reward: in.Reward}, in, opt)
}

// RedeemTier redeems one promotion tier the legacy way.
func (s *RedemptionService) RedeemTier(ctx context.Context, projectID, tierID string, in LegacyRedeemParams, opt RedeemOptions) (*Redemption, error) {
	return s.redeemOne(ctx, projectID, RedeemableParams{Object: ObjectPromotionTier, ID: tierID}, in, opt)
}

func (s *RedemptionService) redeemOne(ctx context.Context, projectID string, p RedeemableParams, in LegacyRedeemParams, opt RedeemOptions) (*Redemption, error) {
	out, err := s.Redeem(ctx, projectID, ValidationParams{Redeemables: []RedeemableParams{p}, Order: in.Order, Customer: in.Customer,
		Session: in.Session, TrackingID: in.TrackingID, Metadata: in.Metadata, Options: in.Options}, opt)
	if e := promotype.AsError(err); err != nil && e.Key == "not_found" && e.ResourceType == "redemption" {
		// The failure is stored; the answer is the plain 404 of the code,
		// the same for a code of another project as for one of none.
		return nil, promotype.NotFound(p.Object, p.ID)
	}
	if err != nil {
		return nil, err
	}
	return out.Redemptions[0], nil
}
