package referral

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// Deps are the services a referral Service composes.
type Deps struct {
	Campaigns    *campaign.Service
	Vouchers     *voucher.Service
	Publications *publication.Service
	Redemptions  *redemption.RedemptionService
}

// Service runs referral programs: conversions and their rewards, the
// customers' referral summaries and the holders of referral codes.
type Service struct {
	store ServiceStore
	tx    promotype.TxFunc[ServiceStore]
	env   promotype.Env
	deps  Deps
}

// NewService returns the referral service.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env, deps Deps) *Service {
	return &Service{store: store, tx: tx, env: env, deps: deps}
}

// refereesKey is the counter of the referees referrerID converted in
// campaignID: added to by each conversion, in its transaction.
func refereesKey(campaignID, referrerID string) string {
	return "referral:" + campaignID + ":referrer:" + referrerID
}

// Redeemed converts, in the redemption's transaction st, the referee of
// redemption row when row redeemed a referral code of an active program
// that converts on redemptions (redemption.ConversionEffect). The
// ConversionEffect is Redeemed as the redemption service calls it
// (redemption.ConversionEffect): tx, the redemption's transaction, must
// have the referral ports.
func (s *Service) ConversionEffect(ctx context.Context, tx redemption.RedeemStore, row *redemption.Redemption) error {
	st, err := promotype.PortOf[ServiceStore](tx, "a referral redemption")
	if err != nil {
		return err
	}
	return s.Redeemed(ctx, st, row)
}

// redemption's evaluation has refused the code to its referrer already.
func (s *Service) Redeemed(ctx context.Context, st ServiceStore, row *redemption.Redemption) error {
	v := row.Voucher
	if v == nil || !v.IsReferralCode || row.CustomerID == nil || v.CampaignID == nil {
		return nil
	}
	camp, err := st.GetCampaign(ctx, row.Ledger.ProjectID, *v.CampaignID)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !camp.Active || camp.CampaignType != campaign.ReferralProgram || camp.ReferralProgram.Converts() != campaign.ConversionRedemption {
		return nil
	}
	return s.convert(ctx, st, conversion{camp: camp, code: v, refereeID: *row.CustomerID,
		relatedType: RelatedRedemption, relatedID: row.ID, redemption: row})
}

// Triggered converts, in the custom event's transaction st, the event's
// customer when the event names a referral code (t.ReferralCode) of an
// active program converting on custom events of the event's name. An
// unknown code is a 404, a code that is no referral code or a referrer
// that is not the code's a 400, and a referrer naming itself a 400
// referrer_not_permitted_to_redeem: the event is not recorded either.
func (s *Service) Triggered(ctx context.Context, st ServiceStore, t promotype.Trigger) error {
	if t.ReferralCode == "" || t.Event == nil || t.Event.Activity == nil || t.Event.Activity.Type != customer.ActivityCustomEvent {
		return nil
	}
	projectID, refereeID := t.Event.ProjectID, t.Event.Activity.CustomerID
	var data struct {
		Event struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		} `json:"event"`
	}
	if err := json.Unmarshal(t.Event.Data, &data); err != nil {
		return err
	}
	v, err := s.deps.Vouchers.Resolve(ctx, st, projectID, t.ReferralCode)
	if err != nil {
		return err
	}
	if !v.IsReferralCode || v.CampaignID == nil {
		return promotype.BadRequest("invalid_voucher", "Invalid voucher", "Voucher %s is not a referral code", v.Code)
	}
	referrer := referrerOf(v)
	if t.ReferrerID != "" && t.ReferrerID != referrer {
		return promotype.InvalidPayload("Property .referral.referrer_id must be the referrer of the referral code %s", v.Code)
	}
	if referrer == "" {
		return promotype.BadRequest("not_published", "Voucher is not published", "%s", v.Code)
	}
	if referrer == refereeID {
		return promotype.BadRequest("referrer_not_permitted_to_redeem", "voucher cannot be redeemed by referrer", "%s", v.Code)
	}
	camp, err := st.GetCampaign(ctx, projectID, *v.CampaignID)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	rp := camp.ReferralProgram
	if !camp.Active || camp.CampaignType != campaign.ReferralProgram || rp.Converts() != campaign.ConversionCustomEvent {
		return nil
	}
	if rp.CustomEvent != nil && rp.CustomEvent.Name != nil && *rp.CustomEvent.Name != data.Event.Type {
		return nil
	}
	return s.convert(ctx, st, conversion{camp: camp, code: v, refereeID: refereeID,
		relatedType: RelatedCustomEvent, relatedID: data.Event.ID,
		customEvent: &redemption.TxEvent{ID: data.Event.ID, Type: data.Event.Type}})
}

// referrerOf is the referrer of referral code v: its referrer_id, else
// its holder (a referral code is published to its referrer).
func referrerOf(v *voucher.Voucher) string {
	if v.ReferrerID != nil && *v.ReferrerID != "" {
		return *v.ReferrerID
	}
	if v.HolderID != nil {
		return *v.HolderID
	}
	return ""
}

// conversion is one referee converting with a referral code.
type conversion struct {
	camp        *campaign.Campaign
	code        *voucher.Voucher
	refereeID   string
	relatedType string
	relatedID   string
	redemption  *redemption.Redemption // the converting redemption (nil: a custom event)
	customEvent *redemption.TxEvent    // the converting custom event (nil: a redemption)
}

// convert records conversion c once per program and referee, and gives
// the referee reward and the referral tiers' rewards it earns.
func (s *Service) convert(ctx context.Context, st ServiceStore, c conversion) error {
	projectID := c.camp.ProjectID
	referrer := referrerOf(c.code)
	if referrer == "" || referrer == c.refereeID {
		return nil
	}
	claimed, err := st.ClaimConversion(ctx, &Conversion{ProjectID: projectID, CampaignID: c.camp.ID, RefereeID: c.refereeID,
		ReferrerID: referrer, VoucherID: c.code.ID, RelatedObjectType: c.relatedType, RelatedObjectID: c.relatedID,
		CreatedAt: s.env.Clock.Now()})
	if !claimed || err != nil {
		return err
	}
	key := refereesKey(c.camp.ID, referrer)
	counts, err := st.AddCountersRead(ctx, projectID, []string{key}, redemption.CounterDelta{Key: key, Delta: 1})
	if err != nil {
		return err
	}
	referees := counts[key]
	rp := c.camp.ReferralProgram
	if rp != nil && rp.RefereeReward != nil {
		if err := s.give(ctx, st, c, c.refereeID, *rp.RefereeReward, nil); err != nil {
			return err
		}
	}
	if rp == nil {
		return nil
	}
	for i := range rp.ReferralTiers {
		t := &rp.ReferralTiers[i]
		crit := t.Parameters.Criteria
		if crit.Type == campaign.TierEachReferee || (crit.Type == campaign.TierMinimumReferee && referees == crit.Referees) {
			if err := s.give(ctx, st, c, referrer, t.Parameters.Reward, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// give gives reward r of conversion c to customerID (the referee, or the
// referrer for tier): points or credits on the customer's card of the
// reward's campaign (published first when it has none), or a coupon of
// it; then it writes customer.rewarded. A reward whose campaign is gone
// gives nothing.
func (s *Service) give(ctx context.Context, st ServiceStore, c conversion, customerID string, r campaign.RefereeReward, tier *campaign.ReferralTier) error {
	projectID := c.camp.ProjectID
	typ := ""
	if r.Type != nil {
		typ = *r.Type
	}
	from, err := s.deps.Campaigns.Resolve(ctx, st, projectID, *r.RelatedObjectParent.ID)
	if errors.Is(err, promotype.ErrNotFound) {
		return nil // deleted since the program named it: nothing to give
	}
	if err != nil {
		return err
	}
	if from.CampaignType != campaign.RewardCampaignType(typ) {
		return nil // checked when the program was written; changed since
	}
	var card *voucher.Voucher
	var bal *redemption.Balance
	switch typ {
	case campaign.RewardDiscountVoucher:
		p, err := s.deps.Publications.Publish(ctx, st, projectID, publication.CreateParams{
			Customer: &customer.Params{ID: &customerID}, Campaign: &publication.CampaignRef{ID: &from.ID}, Generate: true})
		if err != nil {
			return err
		}
		if card, err = st.GetVoucher(ctx, projectID, p.VouchersID[0]); err != nil {
			return err
		}
	default:
		if card, err = s.card(ctx, st, from, customerID); err != nil {
			return err
		}
		reason := fmt.Sprintf("Referral program %s", c.camp.Name)
		m := redemption.Movement{Amount: *r.Amount, Operation: redemption.OperationAutomatic,
			Source: promotype.Ptr(redemption.SourceAutomation), Reason: &reason,
			Details: redemption.TransactionDetails{CustomEvent: c.customEvent}}
		if typ == campaign.RewardLoyaltyCard {
			m.Type = redemption.TxPointsAddition
		}
		if card, bal, err = s.deps.Redemptions.Move(ctx, st, projectID, card.ID, m); err != nil {
			return err
		}
	}
	shown, err := s.deps.Campaigns.PresentFull(ctx, st, c.camp.Clone())
	if err != nil {
		return err
	}
	data := map[string]any{
		"customer": map[string]any{"id": customerID, "object": "customer"},
		"holder":   map[string]any{"id": referrerOf(c.code), "object": "customer"},
		"voucher":  card, "campaign": shown, "reward": r, "balance": bal,
		"referral_tier": nil, "redemption": nil, "custom_event": nil,
	}
	if tier != nil {
		data["referral_tier"] = tier.Simple(c.camp.ID)
	}
	if c.redemption != nil {
		data["redemption"] = map[string]any{"id": c.redemption.ID, "object": "redemption"}
	}
	if c.customEvent != nil {
		data["custom_event"] = c.customEvent
	}
	ev, err := promotype.NewEvent(s.env, projectID, customer.ActivityRewarded, card.ID, data)
	if err != nil {
		return err
	}
	return st.AppendEvents(ctx, ev.For(customerID, customer.ActivityRewarded).InCampaign(c.camp.ID, string(campaign.ReferralProgram)))
}

// card returns customerID's card of campaign from (a gift or loyalty
// card), publishing one to it when it holds none.
func (s *Service) card(ctx context.Context, st ServiceStore, from *campaign.Campaign, customerID string) (*voucher.Voucher, error) {
	is := func(field, v string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
	}
	cards, _, err := st.ListVouchers(ctx, from.ProjectID, promotype.Query{Limit: 1, OrderBy: "created_at",
		Must: []promotype.Condition{is("campaign_id", from.ID), is("holder_id", customerID)}})
	if err != nil {
		return nil, err
	}
	if len(cards) > 0 {
		return cards[0], nil
	}
	p, err := s.deps.Publications.Publish(ctx, st, from.ProjectID, publication.CreateParams{
		Customer: &customer.Params{ID: &customerID}, Campaign: &publication.CampaignRef{ID: &from.ID}, JoinOnce: true, Generate: true})
	if err != nil {
		return nil, err
	}
	return st.GetVoucher(ctx, from.ProjectID, p.VouchersID[0])
}
