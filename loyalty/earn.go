package loyalty

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// EventCustomerOrderPaid is the event an order.paid accrual names.
const EventCustomerOrderPaid = "customer.order.paid"

// OrderPaid earns, in st's transaction, the points of every active
// order.paid rule of the project for the order of event, the
// customer.order.paid activity of the write that made the order PAID (its
// Data is {"order": …}). Each rule whose program is active and which is
// open now (its own validity, else its program's, in the project's time
// zone) credits the customer's card of its program with a POINTS_ACCRUAL;
// a customer without a card joins a program that has auto_join, and earns
// nothing in one that has not. A rule earns once per order, whatever
// writes make the order PAID again or concurrently (ClaimEarning).
func (s *Service) OrderPaid(ctx context.Context, st ServiceStore, event *promotype.Event) error {
	rules, err := s.rules.get(ctx, event.ProjectID, func(ctx context.Context) ([]*EarningRule, error) {
		rs, _, err := st.ListEarningRules(ctx, event.ProjectID, promotype.Query{Limit: MaxEarningRules, OrderBy: "created_at",
			Must: []promotype.Condition{is("event", EventOrderPaid), is("active", "true")}})
		return rs, err
	})
	if err != nil || len(rules) == 0 {
		return err
	}
	var data struct {
		Order *order.Order `json:"order"`
	}
	if err := json.Unmarshal(event.Data, &data); err != nil {
		return err
	}
	o := data.Order
	if o == nil || o.CustomerID == nil {
		return nil
	}
	e := earning{s: s, st: st, projectID: event.ProjectID, customerID: *o.CustomerID, event: event, order: o,
		programs: map[string]*campaign.Campaign{}}
	for _, r := range rules {
		if err := e.earn(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// earning is the work of one paid order: what its rules read once.
type earning struct {
	s          *Service
	st         ServiceStore
	projectID  string
	customerID string
	event      *promotype.Event
	order      *order.Order
	customer   *customer.Customer // read when a rule needs it
	loc        *time.Location     // the project's time zone, read when a rule needs it
	programs   map[string]*campaign.Campaign
}

// earn gives the points of rule r, if it earns for this order.
func (e *earning) earn(ctx context.Context, r *EarningRule) error {
	c, err := e.program(ctx, r.CampaignID())
	if c == nil || err != nil {
		return err
	}
	open, err := e.open(ctx, r, c)
	if !open || err != nil {
		return err
	}
	facts := Facts{Order: e.order}
	if r.Loyalty.CalculationType == CustomerMetadata {
		cust, err := e.cust(ctx)
		if err != nil {
			return err
		}
		facts.CustomerMetadata = cust.Metadata
	}
	points := r.Points(facts)
	if points <= 0 {
		return nil
	}
	card, err := e.card(ctx, c)
	if card == nil || err != nil {
		return err
	}
	claimed, err := e.st.ClaimEarning(ctx, &Claim{ProjectID: e.projectID, EarningRuleID: r.ID, OrderID: e.order.ID,
		CustomerID: e.customerID, Points: points, CreatedAt: e.s.env.Clock.Now()})
	if !claimed || err != nil {
		return err
	}
	_, _, err = e.s.deps.Redemptions.Move(ctx, e.st, e.projectID, card.ID, redemption.Movement{
		Amount: points, Type: redemption.TxPointsAccrual, Operation: redemption.OperationAutomatic,
		Source: promotype.Ptr(redemption.SourceAutomation),
		Details: redemption.TransactionDetails{
			Order:       &redemption.TxOrder{ID: e.order.ID, SourceID: promotype.ClonePtr(e.order.SourceID)},
			Event:       &redemption.TxEvent{ID: e.event.ID, Type: EventCustomerOrderPaid},
			EarningRule: &redemption.TxEarningRule{ID: r.ID, Source: redemption.TxEarningSource{Banner: r.Source.Banner}},
		},
	})
	return err
}

// program returns the active program id, nil when it is missing or
// inactive.
func (e *earning) program(ctx context.Context, id string) (*campaign.Campaign, error) {
	c, seen := e.programs[id]
	if !seen {
		var err error
		c, err = e.st.GetCampaign(ctx, e.projectID, id)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			c = nil
		case err != nil:
			return nil, err
		}
		if c != nil && (!c.Active || c.CampaignType != campaign.LoyaltyProgram) {
			c = nil
		}
		e.programs[id] = c
	}
	return c, nil
}

// open reports whether rule r of program c earns now: inside the rule's
// validity when it has one, else inside the program's.
func (e *earning) open(ctx context.Context, r *EarningRule, c *campaign.Campaign) (bool, error) {
	v := r.Validity
	if v.IsZero() {
		v = c.Validity
	}
	if v.IsZero() {
		return true, nil
	}
	if e.loc == nil {
		loc, err := e.s.deps.TimeZone(ctx, e.projectID)
		if err != nil {
			return false, err
		}
		e.loc = loc
	}
	return v.OpenAt(e.s.env.Clock.Now().Time, e.loc), nil
}

// cust reads the order's customer once.
func (e *earning) cust(ctx context.Context) (*customer.Customer, error) {
	if e.customer == nil {
		c, err := e.st.GetCustomer(ctx, e.projectID, e.customerID)
		if err != nil {
			return nil, err
		}
		e.customer = c
	}
	return e.customer, nil
}

// card returns the customer's card of program c: the one they hold, or,
// when they hold none and c has auto_join, one published to them now;
// nil when they hold none and c has no auto_join.
func (e *earning) card(ctx context.Context, c *campaign.Campaign) (*voucher.Voucher, error) {
	cards, _, err := e.st.ListVouchers(ctx, e.projectID, promotype.Query{Limit: 1, OrderBy: "created_at",
		Must: []promotype.Condition{is("campaign_id", c.ID), is("holder_id", e.customerID)}})
	if err != nil || len(cards) > 0 {
		if len(cards) > 0 {
			return cards[0], err
		}
		return nil, err
	}
	if !c.AutoJoin {
		return nil, nil
	}
	p, err := e.s.deps.Publications.Publish(ctx, e.st, e.projectID, publication.CreateParams{
		Customer: &customer.Params{ID: &e.customerID}, Campaign: &publication.CampaignRef{ID: &c.ID}, JoinOnce: true, Generate: true})
	if err != nil {
		return nil, err
	}
	return e.st.GetVoucher(ctx, e.projectID, p.VouchersID[0])
}
