package loyalty

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/voucher"
)

// EventCustomerOrderPaid is the event an order.paid accrual names.
const EventCustomerOrderPaid = "customer.order.paid"

// Triggered earns, in st's transaction, the points of the project's
// active rules that answer t (promotype.Env.Triggered): the order.paid
// rules for an order that became PAID, the rules on a custom event's name
// for that custom event. Each rule whose program is active and which is
// open now (its own validity, else its program's, in the project's time
// zone) credits the customer's card of its program with a POINTS_ACCRUAL;
// a customer without a card joins a program that has auto_join, and earns
// nothing in one that has not. A custom event that names a card
// (loyalty.code) credits only that card, with the rules of its program. A
// rule earns once per order or custom event, whatever writes make an order
// PAID again or concurrently (ClaimEarning).
func (s *Service) Triggered(ctx context.Context, st ServiceStore, t promotype.Trigger) error {
	if t.Event == nil || t.Event.Activity == nil {
		return nil
	}
	var event string
	switch t.Event.Activity.Type {
	case customer.ActivityOrderPaid:
		event = EventOrderPaid
	case customer.ActivityCustomEvent:
		event = customer.ActivityCustomEvent // the rules' event is the custom event's name, read below
	case segment.EventEntered:
		event = segment.EventEntered
	default:
		return nil
	}
	pr, err := s.projectRules(ctx, st, t.Event.ProjectID)
	if err != nil || len(pr.rules) == 0 {
		return err
	}
	e := earning{s: s, st: st, projectID: t.Event.ProjectID, customerID: t.Event.Activity.CustomerID, event: t.Event,
		programs: pr.programs, tiers: pr.tiers}
	var segmentID string
	switch {
	case event == segment.EventEntered:
		// Once per entry: a customer who leaves and enters again earns again.
		id, err := segment.SegmentOf(t.Event)
		if err != nil {
			return err
		}
		segmentID, e.sourceID, e.eventType = id, t.Event.ID, segment.EventEntered
	case event == EventOrderPaid:
		var data struct {
			Order *order.Order `json:"order"`
		}
		if err := json.Unmarshal(t.Event.Data, &data); err != nil {
			return err
		}
		if o := data.Order; o == nil || (o.Amount == 0 && len(o.Items) == 0) {
			// No order, or the empty one a redemption records when its
			// request names none (a reward bought with points): nothing
			// was bought, nothing is earned.
			return nil
		}
		e.order, e.sourceID, e.eventType = data.Order, data.Order.ID, EventCustomerOrderPaid
	default:
		var data struct {
			Event struct {
				ID       string             `json:"id"`
				Type     string             `json:"type"`
				Metadata promotype.Metadata `json:"metadata"`
			} `json:"event"`
		}
		if err := json.Unmarshal(t.Event.Data, &data); err != nil {
			return err
		}
		event, e.sourceID, e.eventType, e.eventMetadata = data.Event.Type, data.Event.ID, data.Event.Type, data.Event.Metadata
		e.customEvent = &redemption.TxEvent{ID: data.Event.ID, Type: data.Event.Type}
		if t.LoyaltyCode != "" {
			card, err := cardIn(ctx, s.deps.Vouchers, st, e.projectID, "", t.LoyaltyCode)
			if err != nil {
				return err
			}
			if deref(card.HolderID) != e.customerID {
				return promotype.BadRequest("invalid_customer", "Invalid customer", "The loyalty card %s is not the event customer's.", card.Code)
			}
			e.named = card
		}
	}
	for _, r := range pr.rules {
		if r.Event != event || (e.named != nil && r.CampaignID() != deref(e.named.CampaignID)) ||
			(segmentID != "" && (r.Segment == nil || r.Segment.ID != segmentID)) {
			continue
		}
		if err := e.earn(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// projectRules returns the project's rules, programs and tiers as the
// cache keeps them, read in st's transaction when they must be read now.
func (s *Service) projectRules(ctx context.Context, st ServiceStore, projectID string) (*projectRules, error) {
	return s.rules.get(ctx, projectID, func(ctx context.Context) (*projectRules, error) {
		return loadRules(ctx, st, projectID)
	}, func(ctx context.Context) (*projectRules, error) {
		return loadRules(ctx, s.store, projectID)
	}, s.logger)
}

// loadRules reads a project's active earning rules, their programs, and
// the tiers of its programs with how members hold them.
func loadRules(ctx context.Context, st ServiceStore, projectID string) (*projectRules, error) {
	rules, _, err := st.ListEarningRules(ctx, projectID, promotype.Query{Limit: MaxEarningRules, OrderBy: "created_at",
		Must: []promotype.Condition{is("active", "true")}})
	if err != nil {
		return nil, err
	}
	pr := &projectRules{rules: rules, programs: map[string]*campaign.Campaign{}, tiers: map[string][]*Tier{},
		tierRules: map[string]*TiersExpiration{}}
	for _, r := range rules {
		id := r.CampaignID()
		if _, seen := pr.programs[id]; seen {
			continue
		}
		c, err := st.GetCampaign(ctx, projectID, id)
		switch {
		case errors.Is(err, promotype.ErrNotFound):
			c = nil
		case err != nil:
			return nil, err
		}
		if c != nil && (!c.Active || c.CampaignType != campaign.LoyaltyProgram) {
			c = nil
		}
		pr.programs[id] = c
	}
	for q := (promotype.Query{Limit: maxTiers, OrderBy: "created_at"}); ; q.Offset += maxTiers {
		tiers, total, err := st.ListTiers(ctx, projectID, q)
		if err != nil {
			return nil, err
		}
		for _, t := range tiers {
			pr.tiers[t.CampaignID] = append(pr.tiers[t.CampaignID], t)
		}
		if len(tiers) == 0 || q.Offset+len(tiers) >= total {
			break
		}
	}
	for id := range pr.tiers {
		c, err := st.GetCampaign(ctx, projectID, id)
		if err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return nil, err
		}
		x := &TiersExpiration{QualificationType: QualifyBalance, StartDate: TierStart{Type: TierStartImmediate},
			ExpirationDate: TierExpirations{Type: TierBalanceDrop}}
		if c != nil {
			if parsed, err := ParseTiersExpiration(c.LoyaltyTiersExpiration); err == nil {
				x = parsed
			}
		}
		pr.tierRules[id] = x
	}
	return pr, nil
}

// earning is the work of one paid order: what its rules read once.
type earning struct {
	s          *Service
	st         ServiceStore
	projectID  string
	customerID string
	event      *promotype.Event
	sourceID   string // the order or custom event the rules earn for, once each
	eventType  string // what the accruals name: customer.order.paid, or the custom event's name

	order         *order.Order        // for order.paid
	eventMetadata promotype.Metadata  // for a custom event
	customEvent   *redemption.TxEvent // for a custom event
	named         *voucher.Voucher    // the card a custom event names (nil: none)
	customer      *customer.Customer  // read when a rule needs it
	loc           *time.Location      // the project's time zone, read when a rule needs it
	programs      map[string]*campaign.Campaign
	tiers         map[string][]*Tier // the programs' tiers, by campaign id
}

// earn gives the points of rule r, if it earns for this order.
func (e *earning) earn(ctx context.Context, r *EarningRule) error {
	c := e.program(r.CampaignID())
	if c == nil {
		return nil
	}
	open, err := e.open(ctx, r, c)
	if !open || err != nil {
		return err
	}
	if r.ValidationRuleID != nil {
		if ok, err := e.passes(ctx, *r.ValidationRuleID); !ok || err != nil {
			return err
		}
	}
	facts := Facts{Order: e.order, EventMetadata: e.eventMetadata}
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
	t, err := e.s.heldTier(ctx, e.st, e.tiers[c.ID], card)
	if err != nil {
		return err
	}
	if t != nil {
		if m, ok := t.EarningRules[r.ID]; ok {
			if points = m.apply(points); points <= 0 {
				return nil
			}
		}
	}
	claimed, err := e.st.ClaimEarning(ctx, &Claim{ProjectID: e.projectID, EarningRuleID: r.ID, OrderID: e.sourceID,
		CustomerID: e.customerID, Points: points, CreatedAt: e.s.env.Clock.Now()})
	if !claimed || err != nil {
		return err
	}
	if r.PendingPoints != nil && e.order != nil {
		return e.pend(ctx, r, card, points)
	}
	expiry, err := e.expiry(ctx, r, c)
	if err != nil {
		return err
	}
	v, bal, err := e.s.deps.Redemptions.Move(ctx, e.st, e.projectID, card.ID, redemption.Movement{
		Amount: points, Type: redemption.TxPointsAccrual, Operation: redemption.OperationAutomatic,
		Source:  promotype.Ptr(redemption.SourceAutomation),
		Details: e.details(r), Expiry: expiry,
	})
	if err != nil {
		return err
	}
	bal.Points, bal.Amount = bal.Amount, nil
	ev, err := promotype.NewEvent(e.s.env, e.projectID, customer.ActivityRewardedPoints, v.ID, map[string]any{
		"customer": map[string]any{"id": e.customerID, "object": "customer"}, "voucher": v, "balance": bal,
		"earning_rule": r, "event": e.details(r).Event, "order": e.details(r).Order})
	if err != nil {
		return err
	}
	return e.st.AppendEvents(ctx, ev.For(e.customerID, customer.ActivityRewardedPoints).InCampaign(c.ID, string(campaign.LoyaltyProgram)))
}

// expiry is when points rule r of program c gives now expire: by the
// rule's expiration rules, else the program's, else never.
func (e *earning) expiry(ctx context.Context, r *EarningRule, c *campaign.Campaign) (redemption.Expiry, error) {
	rules := r.ExpirationRules
	if rules == nil {
		rules = programRules(c)
	}
	if rules == nil {
		return redemption.Expiry{Never: true}, nil
	}
	loc, err := e.location(ctx)
	if err != nil {
		return redemption.Expiry{}, err
	}
	return redemption.Expiry{On: ExpiresOn(rules, e.s.env.Clock.Now().In(loc))}, nil
}

// details are what an accrual of rule r names: the order or custom event,
// the event and the rule.
func (e *earning) details(r *EarningRule) redemption.TransactionDetails {
	d := redemption.TransactionDetails{
		Event:       &redemption.TxEvent{ID: e.event.ID, Type: e.eventType},
		EarningRule: &redemption.TxEarningRule{ID: r.ID, Source: redemption.TxEarningSource{Banner: r.Source.Banner}},
		CustomEvent: e.customEvent,
	}
	if e.order != nil {
		d.Order = &redemption.TxOrder{ID: e.order.ID, SourceID: promotype.ClonePtr(e.order.SourceID)}
	}
	return d
}

// program returns the active program id, nil when it is missing or
// inactive (as the project's cached rules read it).
func (e *earning) program(id string) *campaign.Campaign { return e.programs[id] }

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
	loc, err := e.location(ctx)
	if err != nil {
		return false, err
	}
	return v.OpenAt(e.s.env.Clock.Now().Time, loc), nil
}

// location reads the project's time zone once.
func (e *earning) location(ctx context.Context) (*time.Location, error) {
	if e.loc == nil {
		p, err := e.st.GetProject(ctx, e.projectID)
		if err != nil {
			return nil, err
		}
		e.loc = p.Location()
	}
	return e.loc, nil
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
	if e.named != nil {
		return e.named, nil
	}
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

// passes reports whether the validation rule id, which gates an earning
// rule, holds for this earning: its order (none for other events), its
// customer's metadata and segments, and a custom event's metadata as the
// request's. A rule deleted since gates nothing.
func (e *earning) passes(ctx context.Context, id string) (bool, error) {
	vr, err := e.st.GetValidationRule(ctx, e.projectID, id)
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		return true, nil
	case err != nil:
		return false, err
	}
	prog, err := vr.Program()
	if err != nil {
		return false, err
	}
	cust, err := e.cust(ctx)
	if err != nil {
		return false, err
	}
	segments, err := e.st.CustomerSegmentIDs(ctx, e.projectID, e.customerID)
	if err != nil {
		return false, err
	}
	o := e.order
	if o == nil {
		o = &order.Order{}
	}
	in := promotion.RuleInputIn(o, cust.Metadata, e.eventMetadata, segments, nil)
	ok, _ := prog.Eval(in)
	promotion.ReleaseInput(in)
	return ok, nil
}
