package loyalty

import (
	"context"
	"errors"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/segment"
)

// MaxEarningRules is how many earning rules a project may have.
const MaxEarningRules = 100

// Events of earning rule changes.
const (
	EventRuleCreated  = "campaign.earning_rule.assigned" // the hosted API's name for a new rule
	EventRuleUpdated  = "campaign.earning_rule.updated"
	EventRuleDeleted  = "campaign.earning_rule.deleted"
	EventRuleEnabled  = "campaign.earning_rule.enabled"
	EventRuleDisabled = "campaign.earning_rule.disabled"
)

// EarningRuleListSpec is what earning rule lists accept.
var EarningRuleListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

func is(field, v string) promotype.Condition {
	return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
}

// CreateEarningRules creates rules in the program ref, all or none (POST
// /v1/loyalties/{campaignId}/earning-rules), and returns them in order. A
// project holds at most MaxEarningRules rules.
func (s *Service) CreateEarningRules(ctx context.Context, projectID, ref string, in []EarningRuleParams) ([]*EarningRule, error) {
	if len(in) == 0 {
		return nil, promotype.InvalidPayload("Payload must be a non-empty array of earning rules")
	}
	if len(in) > MaxEarningRules {
		return nil, earningRulesLimit()
	}
	for i := range in {
		if err := in[i].check(); err != nil {
			return nil, err
		}
	}
	var out []*EarningRule
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		c, err := s.programIn(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		if err := st.LockEarningRules(ctx, projectID); err != nil {
			return err
		}
		_, n, err := st.ListEarningRules(ctx, projectID, promotype.Query{})
		if err != nil {
			return err
		}
		if n+len(in) > MaxEarningRules {
			return earningRulesLimit()
		}
		now := s.env.Clock.Now()
		out = make([]*EarningRule, len(in))
		for i, p := range in {
			r := &EarningRule{ID: s.env.IDs.NewID(PrefixEarningRule), ProjectID: projectID, CreatedAt: now, Event: p.Event,
				Loyalty: p.Loyalty.clone(), ValidationRuleID: promotype.ClonePtr(p.ValidationRuleID), Active: p.Active == nil || *p.Active,
				Source: Source{ObjectID: c.ID, ObjectType: "campaign"}, Metadata: p.Metadata.Clone(), AutomationID: s.env.IDs.NewID(PrefixAutomation)}
			if p.Source != nil {
				r.Source.Banner = p.Source.Banner
			}
			r.PendingPoints = promotype.ClonePtr(p.PendingPoints)
			r.ExpirationRules = promotype.ClonePtr(p.ExpirationRules)
			if p.CustomEvent != nil && p.Event != EventOrderPaid {
				r.CustomEvent = &SchemaRef{SchemaID: p.CustomEvent.SchemaID}
			}
			if p.Segment != nil {
				if _, err := st.GetSegment(ctx, projectID, p.Segment.ID); err != nil {
					return err
				}
				r.Segment = &SegmentRef{ID: p.Segment.ID}
			}
			if p.ValidationRuleID != nil {
				if _, err := st.GetValidationRule(ctx, projectID, *p.ValidationRuleID); err != nil {
					return err
				}
			}
			if p.LoyaltyTier != nil {
				if p.LoyaltyTier.ID != AnyTier {
					if _, err := st.GetTier(ctx, projectID, p.LoyaltyTier.ID); err != nil {
						return err
					}
				}
				r.LoyaltyTier = &TierRef{ID: p.LoyaltyTier.ID}
			}
			p.ValidityParams.Apply(&r.Validity)
			out[i] = r.normalize()
		}
		if err := st.InsertEarningRules(ctx, out...); err != nil {
			return err
		}
		return s.ruleEvents(ctx, st, EventRuleCreated, c, out...)
	})
	if err != nil {
		return nil, err
	}
	s.rules.changed(projectID)
	return out, nil
}

func earningRulesLimit() error {
	return promotype.InvalidPayload("Earning rules limit exceeded: a project may have at most %d earning rules", MaxEarningRules)
}

// check validates a rule of a create.
func (p *EarningRuleParams) check() error {
	if err := checkEvent(p.Event); err != nil {
		return err
	}
	switch tier := TierEvent(p.Event); {
	case tier && (p.LoyaltyTier == nil || p.LoyaltyTier.ID == ""):
		return promotype.InvalidPayload("Property .loyalty_tier.id is required for an earning rule on %s: a tier id or %s", p.Event, AnyTier)
	case !tier && p.LoyaltyTier != nil:
		return promotype.InvalidPayload("Property .loyalty_tier is allowed only with a customer.loyalty.tier event")
	}
	if p.ExpirationRules != nil {
		if err := p.ExpirationRules.Check(".expiration_rules"); err != nil {
			return err
		}
	}
	switch {
	case p.Event == segment.EventEntered && (p.Segment == nil || p.Segment.ID == ""):
		return promotype.InvalidPayload("Property .segment.id is required for an earning rule on customer.segment.entered")
	case p.Event != segment.EventEntered && p.Segment != nil:
		return promotype.InvalidPayload("Property .segment is allowed only with event customer.segment.entered")
	}
	if p.PendingPoints != nil {
		if p.Event != EventOrderPaid {
			return promotype.InvalidPayload("Property .pending_points is allowed only with event order.paid")
		}
		if err := p.PendingPoints.check(); err != nil {
			return err
		}
	}
	if err := p.Loyalty.check(p.Event); err != nil {
		return err
	}
	if err := checkBanner(p.Source); err != nil {
		return err
	}
	return p.ValidityParams.Check()
}

// EarningRule returns the rule id of the program ref.
func (s *Service) EarningRule(ctx context.Context, projectID, ref, id string) (*EarningRule, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	return ruleOf(ctx, s.store, c, id)
}

// ruleOf reads the rule id of program c through st; a rule of another
// program is as missing as an unknown one.
func ruleOf(ctx context.Context, st Store, c *campaign.Campaign, id string) (*EarningRule, error) {
	r, err := st.GetEarningRule(ctx, c.ProjectID, id)
	if err != nil {
		return nil, err
	}
	if r.CampaignID() != c.ID {
		return nil, promotype.NotFound("earning_rule", id)
	}
	return r.normalize(), nil
}

// ListEarningRules lists the rules of the program ref.
func (s *Service) ListEarningRules(ctx context.Context, projectID, ref string, p promotype.ListParams) (*promotype.List[*EarningRule], error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	read := func(ctx context.Context, projectID string, q promotype.Query) ([]*EarningRule, int, error) {
		q.Must = append(q.Must, is("campaign_id", c.ID))
		return s.store.ListEarningRules(ctx, projectID, q)
	}
	return promotype.ListWith(ctx, read, projectID, p, EarningRuleListSpec, s.env.Clock.Now(), (*EarningRule).normalize)
}

// UpdateEarningRule changes the rule id of the program ref with what in
// gives (PUT .../earning-rules/{earningRuleId}); updated_at is set.
func (s *Service) UpdateEarningRule(ctx context.Context, projectID, ref, id string, in EarningRuleUpdate) (*EarningRule, error) {
	if in.ExpirationRules != nil {
		if err := in.ExpirationRules.Check(".expiration_rules"); err != nil {
			return nil, err
		}
	}
	if in.PendingPoints != nil {
		if err := in.PendingPoints.check(); err != nil {
			return nil, err
		}
	}
	if err := checkBanner(in.Source); err != nil {
		return nil, err
	}
	if err := in.ValidityParams.Check(); err != nil {
		return nil, err
	}
	if in.ValidationRuleID != nil && *in.ValidationRuleID != "" {
		if _, err := s.store.GetValidationRule(ctx, projectID, *in.ValidationRuleID); err != nil {
			return nil, err
		}
	}
	return s.changeRule(ctx, projectID, ref, id, EventRuleUpdated, func(r *EarningRule) error {
		if in.Loyalty != nil {
			if err := in.Loyalty.check(r.Event); err != nil {
				return err
			}
			r.Loyalty = in.Loyalty.clone()
		}
		if in.Source != nil {
			r.Source.Banner = in.Source.Banner
		}
		if in.Active != nil {
			r.Active = *in.Active
		}
		if in.Metadata != nil {
			r.Metadata = in.Metadata.Clone()
		}
		if in.PendingPoints != nil {
			if r.Event != EventOrderPaid {
				return promotype.InvalidPayload("Property .pending_points is allowed only with event order.paid")
			}
			r.PendingPoints = promotype.ClonePtr(in.PendingPoints)
		}
		if in.ExpirationRules != nil {
			r.ExpirationRules = promotype.ClonePtr(in.ExpirationRules)
		}
		switch {
		case in.ValidationRuleID == nil:
		case *in.ValidationRuleID == "":
			r.ValidationRuleID = nil
		default:
			r.ValidationRuleID = promotype.ClonePtr(in.ValidationRuleID)
		}
		in.ValidityParams.Apply(&r.Validity)
		return nil
	})
}

// EnableEarningRule activates the rule id of the program ref.
func (s *Service) EnableEarningRule(ctx context.Context, projectID, ref, id string) (*EarningRule, error) {
	return s.changeRule(ctx, projectID, ref, id, EventRuleEnabled, func(r *EarningRule) error { r.Active = true; return nil })
}

// DisableEarningRule deactivates the rule id of the program ref: it earns
// nothing until enabled again.
func (s *Service) DisableEarningRule(ctx context.Context, projectID, ref, id string) (*EarningRule, error) {
	return s.changeRule(ctx, projectID, ref, id, EventRuleDisabled, func(r *EarningRule) error { r.Active = false; return nil })
}

// changeRule applies change to the rule id of the program ref in one
// transaction and appends the event typ.
func (s *Service) changeRule(ctx context.Context, projectID, ref, id, typ string, change func(*EarningRule) error) (*EarningRule, error) {
	var out *EarningRule
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		c, err := s.programIn(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		r, err := ruleOf(ctx, st, c, id)
		if err != nil {
			return err
		}
		if err := change(r); err != nil {
			return err
		}
		r.UpdatedAt = s.env.Clock.Now().Ptr()
		if err := st.UpdateEarningRule(ctx, r); err != nil {
			return err
		}
		out = r
		return s.ruleEvents(ctx, st, typ, c, r)
	})
	if err != nil {
		return nil, err
	}
	s.rules.changed(projectID)
	return out, nil
}

// DeleteEarningRule deletes the rule id of the program ref. Points it gave
// stay on the cards.
func (s *Service) DeleteEarningRule(ctx context.Context, projectID, ref, id string) error {
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		c, err := s.programIn(ctx, st, projectID, ref)
		if err != nil {
			return err
		}
		r, err := ruleOf(ctx, st, c, id)
		if err != nil {
			return err
		}
		if err := st.DeleteEarningRule(ctx, projectID, id); err != nil {
			return err
		}
		return s.ruleEvents(ctx, st, EventRuleDeleted, c, r)
	})
	if err != nil {
		return err
	}
	s.rules.changed(projectID)
	return nil
}

// programIn is Program read through st (the caller's transaction).
func (s *Service) programIn(ctx context.Context, st ServiceStore, projectID, ref string) (*campaign.Campaign, error) {
	c, err := s.deps.Campaigns.Resolve(ctx, st, projectID, ref)
	if errors.Is(err, promotype.ErrNotFound) || (err == nil && c.CampaignType != campaign.LoyaltyProgram) {
		return nil, promotype.NotFound("campaign", ref)
	}
	return c, err
}

// ruleEvents appends the event typ of each rule: {campaign, earning_rule}.
func (s *Service) ruleEvents(ctx context.Context, st ServiceStore, typ string, c *campaign.Campaign, rules ...*EarningRule) error {
	for _, r := range rules {
		if err := promotype.AppendEvent(ctx, st, s.env, c.ProjectID, typ, r.ID, map[string]any{"campaign": c, "earning_rule": r}); err != nil {
			return err
		}
	}
	return nil
}
