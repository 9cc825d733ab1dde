package loyalty

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// PrefixPendingPoints is the id prefix of pending point entries.
const PrefixPendingPoints = "lopp_"

// States of a pending point entry: only a PENDING one is listed, and can
// be activated, adjusted or canceled.
const (
	PendingState   = "PENDING"
	ActivatedState = "ACTIVATED"
	CanceledState  = "CANCELED"
)

// Events of pending points (configuration spelling: "aded" is delivered as
// "added").
const (
	EventPendingAdded     = "voucher.loyalty_card.pending_points.aded"
	EventPendingActivated = "voucher.loyalty_card.pending_points.activated"
	EventPendingUpdated   = "voucher.loyalty_card.pending_points.updated"
	EventPendingCanceled  = "voucher.loyalty_card.pending_points.canceled"
)

// PendingPeriod is how long an earning rule's points wait: PeriodValue
// days (1 to 90) after the order is paid.
type PendingPeriod struct {
	PeriodType  string `json:"period_type"`
	PeriodValue int    `json:"period_value"`
}

func (p *PendingPeriod) check() error {
	if p.PeriodType == "" {
		p.PeriodType = "DAY"
	}
	if p.PeriodType != "DAY" || p.PeriodValue < 1 || p.PeriodValue > 90 {
		return promotype.InvalidPayload("Property .pending_points must be {\"period_type\": \"DAY\", \"period_value\": 1 to 90}")
	}
	return nil
}

// PendingPoints is points an earning rule gave that wait until
// ActivatesAt (a date in the project's time zone) before they join the
// card's points (object of the pending-points lists).
type PendingPoints struct {
	ID          string         `json:"id"`
	VoucherID   string         `json:"voucher_id"`
	CampaignID  string         `json:"campaign_id"`
	CustomerID  string         `json:"customer_id"`
	OrderID     *string        `json:"order_id"`
	Points      int64          `json:"points"`
	ActivatesAt string         `json:"activates_at"`
	Details     PendingDetails `json:"details"`
	CreatedAt   promotype.Time `json:"created_at"`
	UpdatedAt   promotype.Time `json:"updated_at"`

	ProjectID string `json:"-"`
	// Status is PENDING, ACTIVATED or CANCELED; Due is the instant
	// ActivatesAt begins.
	Status string         `json:"-"`
	Due    promotype.Time `json:"-"`
}

// PendingDetails say what earned pending points.
type PendingDetails struct {
	EarningRule *redemption.TxEarningRule `json:"earning_rule,omitempty"`
	Order       *redemption.TxOrder       `json:"order,omitempty"`
	Event       *redemption.TxEvent       `json:"event,omitempty"`
}

// Clone returns a deep copy.
func (p *PendingPoints) Clone() *PendingPoints {
	c := *p
	c.OrderID = promotype.ClonePtr(p.OrderID)
	c.Details.EarningRule = promotype.ClonePtr(p.Details.EarningRule)
	c.Details.Order = promotype.ClonePtr(p.Details.Order)
	c.Details.Event = promotype.ClonePtr(p.Details.Event)
	return &c
}

// PendingList is a keyset page of pending points (object "list", data_ref
// "data", has_more and more_starting_after).
type PendingList = promotype.CursorList[*PendingPoints]

// PendingListParams page the pending points: at most Limit (1 to 100,
// default 10), in id order (Order "id", or "-id" for descending), after
// StartingAfterID.
type PendingListParams struct {
	Limit           int
	Order           string
	StartingAfterID string
}

// pend gives card the points of rule r in st's transaction, as a pending
// entry due period days after now (in the project's time zone), instead of
// crediting them: the card's pending_points grow, its points and balance
// do not.
func (e *earning) pend(ctx context.Context, r *EarningRule, card *voucher.Voucher, points int64) error {
	loc, err := e.location(ctx)
	if err != nil {
		return err
	}
	now := e.s.env.Clock.Now()
	y, m, d := now.In(loc).Date()
	due := time.Date(y, m, d+r.PendingPoints.PeriodValue, 0, 0, 0, 0, loc)
	p := &PendingPoints{ID: e.s.env.IDs.NewID(PrefixPendingPoints), ProjectID: e.projectID, VoucherID: card.ID, CampaignID: r.CampaignID(),
		CustomerID: e.customerID, Points: points, ActivatesAt: due.Format(time.DateOnly), Status: PendingState,
		Due: promotype.Time{Time: due.UTC()}, CreatedAt: now, UpdatedAt: now,
		Details: e.pendingDetails(r)}
	if e.order != nil {
		p.OrderID = promotype.Ptr(e.order.ID)
	}
	if err := e.st.InsertPendingPoints(ctx, p); err != nil {
		return err
	}
	return e.s.changePending(ctx, e.st, p, points, EventPendingAdded)
}

func (e *earning) pendingDetails(r *EarningRule) PendingDetails {
	d := e.details(r)
	return PendingDetails{EarningRule: d.EarningRule, Order: d.Order, Event: d.Event}
}

// changePending adds delta to the pending points of p's card (locked) and
// appends the event typ with the card's pending balance.
func (s *Service) changePending(ctx context.Context, st ServiceStore, p *PendingPoints, delta int64, typ string) error {
	if err := st.LockVoucher(ctx, p.ProjectID, p.VoucherID); err != nil {
		return err
	}
	v, err := st.GetVoucher(ctx, p.ProjectID, p.VoucherID)
	if err != nil {
		return err
	}
	if v.LoyaltyCard == nil {
		return promotype.NotFound("voucher", p.VoucherID)
	}
	pending := deref64(v.LoyaltyCard.PendingPoints) + delta
	v.LoyaltyCard.PendingPoints = &pending
	v.UpdatedAt = s.env.Clock.Now().Ptr()
	if err := st.UpdateVoucher(ctx, v); err != nil {
		return err
	}
	return s.pendingEvent(ctx, st, typ, v, p, delta, pending)
}

// pendingEvent appends the pending points event typ of card v and entry p:
// {voucher, pending_points, voucher_pending_points_balance}.
func (s *Service) pendingEvent(ctx context.Context, st ServiceStore, typ string, v *voucher.Voucher, p *PendingPoints, delta, total int64) error {
	return promotype.AppendEventFunc(ctx, st, s.env, p.ProjectID, typ, p.ID, func() (any, error) {
		return map[string]any{"voucher": v, "pending_points": p, "voucher_pending_points_balance": map[string]any{
			"points": delta, "total": total, "object": "balance", "operation_type": redemption.OperationManual,
			"related_object": redemption.BalanceRelated{Type: "voucher", ID: v.ID}}}, nil
	})
}

// ListPending lists the PENDING entries of the program ref ("" for any)
// and, with member, of that card only.
func (s *Service) ListPending(ctx context.Context, projectID, ref, member string, in PendingListParams) (*PendingList, error) {
	campaignID, err := s.programID(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	voucherID := ""
	if member != "" {
		card, err := s.card(ctx, projectID, campaignID, member)
		if err != nil {
			return nil, err
		}
		voucherID = card.ID
	}
	limit, desc, err := promotype.IDPage(in.Limit, in.Order)
	if err != nil {
		return nil, err
	}
	items, err := s.store.ListPendingPoints(ctx, projectID, PendingQuery{CampaignID: campaignID, VoucherID: voucherID,
		AfterID: in.StartingAfterID, Desc: desc, Limit: limit + 1})
	if err != nil {
		return nil, err
	}
	return promotype.NewCursorList(items, limit, func(p *PendingPoints) string { return p.ID }), nil
}

// pendingOf reads entry id of the card member (code or id) and locks the
// card, in st's transaction; only a PENDING entry may change (400
// invalid_pending_points_state, naming the action).
func (s *Service) pendingOf(ctx context.Context, st ServiceStore, projectID, member, id, action string) (*PendingPoints, error) {
	card, err := cardIn(ctx, s.deps.Vouchers, st, projectID, "", member)
	if err != nil {
		return nil, err
	}
	if err := st.LockVoucher(ctx, projectID, card.ID); err != nil {
		return nil, err
	}
	p, err := st.GetPendingPoints(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	if p.VoucherID != card.ID {
		return nil, promotype.NotFound("pending_points", id)
	}
	if p.Status != PendingState {
		return nil, promotype.BadRequest("invalid_pending_points_state", "Invalid pending points state",
			"Only pending points in 'PENDING' status can be %s. Current status: '%s'.", action, p.Status)
	}
	return p, nil
}

// ActivatePending makes the points of entry id of the card member join
// its points and balance now (a PENDING_POINTS_ACTIVATION transaction)
// and answers the card's balance.
func (s *Service) ActivatePending(ctx context.Context, projectID, member, id string) (*redemption.Balance, error) {
	var out *redemption.Balance
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		p, err := s.pendingOf(ctx, st, projectID, member, id, "activated")
		if err != nil {
			return err
		}
		out, err = s.activate(ctx, st, p, redemption.OperationManual)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// activate turns entry p (PENDING, its card locked) into points, in st's
// transaction.
func (s *Service) activate(ctx context.Context, st ServiceStore, p *PendingPoints, operation string) (*redemption.Balance, error) {
	p.Status, p.UpdatedAt = ActivatedState, s.env.Clock.Now()
	if err := st.UpdatePendingPoints(ctx, p); err != nil {
		return nil, err
	}
	entry, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	expiry, err := s.activatedExpiry(ctx, st, p)
	if err != nil {
		return nil, err
	}
	v, out, err := s.deps.Redemptions.Move(ctx, st, p.ProjectID, p.VoucherID, redemption.Movement{Amount: p.Points, PendingDelta: -p.Points,
		Type: redemption.TxPendingActivation, Operation: operation, Source: promotype.Ptr(redemption.SourceAutomation), Expiry: expiry,
		Details: redemption.TransactionDetails{Order: p.Details.Order, Event: p.Details.Event, EarningRule: p.Details.EarningRule, PendingPoints: entry}})
	if err != nil {
		return nil, err
	}
	out.Points, out.Amount = out.Amount, nil
	return out, s.pendingEvent(ctx, st, EventPendingActivated, v, p, -p.Points, deref64(v.LoyaltyCard.PendingPoints))
}

// PendingBalanceParams is the body of POST .../pending-points/{id}/balance.
type PendingBalanceParams struct {
	Points Int `json:"points"`
}

// AdjustPending adds in.Points (negative: removes them) to entry id of the
// card member; the entry must keep more than 0 points (400 invalid_amount).
// It answers the change and the entry's points after it.
func (s *Service) AdjustPending(ctx context.Context, projectID, member, id string, in PendingBalanceParams) (*redemption.Balance, error) {
	if in.Points == 0 || in.Points > MaxPoints || in.Points < -MaxPoints {
		return nil, promotype.BadRequest("invalid_amount", "Invalid Amount", "Amount has to be a valid positive number")
	}
	var out *redemption.Balance
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		p, err := s.pendingOf(ctx, st, projectID, member, id, "updated")
		if err != nil {
			return err
		}
		if p.Points+int64(in.Points) <= 0 {
			return promotype.BadRequest("invalid_amount", "Invalid Amount", "Amount has to be a valid positive number")
		}
		p.Points += int64(in.Points)
		p.UpdatedAt = s.env.Clock.Now()
		if err := st.UpdatePendingPoints(ctx, p); err != nil {
			return err
		}
		out = &redemption.Balance{Points: promotype.Ptr(int64(in.Points)), Total: p.Points, Object: "balance", Type: redemption.BalanceLoyalty,
			OperationType: redemption.OperationManual, RelatedObject: redemption.BalanceRelated{Type: "voucher", ID: p.VoucherID}}
		return s.changePending(ctx, st, p, int64(in.Points), EventPendingUpdated)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CancelPending cancels entry id of the card member: its points never
// arrive.
func (s *Service) CancelPending(ctx context.Context, projectID, member, id string) error {
	return s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		p, err := s.pendingOf(ctx, st, projectID, member, id, "canceled")
		if err != nil {
			return err
		}
		p.Status, p.UpdatedAt = CanceledState, s.env.Clock.Now()
		if err := st.UpdatePendingPoints(ctx, p); err != nil {
			return err
		}
		return s.changePending(ctx, st, p, -p.Points, EventPendingCanceled)
	})
}

// ActivateDue activates, each in its own transaction, up to limit PENDING
// entries of the project whose date has come (due at or before now), and
// reports how many it activated. An entry another engine activated or
// canceled meanwhile is skipped, so each is activated once whatever runs
// this at the same time.
func (s *Service) ActivateDue(ctx context.Context, projectID string, limit int) (int, error) {
	due, err := s.store.DuePendingPoints(ctx, projectID, s.env.Clock.Now(), limit)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range due {
		activated := false
		err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
			if err := st.LockVoucher(ctx, projectID, d.VoucherID); err != nil {
				return err
			}
			p, err := st.GetPendingPoints(ctx, projectID, d.ID)
			if err != nil || p.Status != PendingState {
				return err
			}
			_, err = s.activate(ctx, st, p, redemption.OperationAutomatic)
			activated = err == nil
			return err
		})
		if err != nil {
			return n, err
		}
		if activated {
			n++
		}
	}
	return n, nil
}

// activatedExpiry is when the points of entry p, activated now, expire:
// by its earning rule's expiration_rules, counted from the activation;
// else (no rules, or the rule is gone) by its program's.
func (s *Service) activatedExpiry(ctx context.Context, st ServiceStore, p *PendingPoints) (redemption.Expiry, error) {
	if p.Details.EarningRule == nil {
		return redemption.Expiry{}, nil
	}
	r, err := st.GetEarningRule(ctx, p.ProjectID, p.Details.EarningRule.ID)
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		return redemption.Expiry{}, nil
	case err != nil:
		return redemption.Expiry{}, err
	case r.ExpirationRules == nil:
		return redemption.Expiry{}, nil
	}
	loc, err := s.location(ctx, st, p.ProjectID)
	if err != nil {
		return redemption.Expiry{}, err
	}
	return redemption.Expiry{On: ExpiresOn(r.ExpirationRules, s.env.Clock.Now().In(loc))}, nil
}
