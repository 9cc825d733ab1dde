package rule

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/promotype"
)

// RelatedResolver checks that an assignment's object exists in the project
// and returns it: its canonical id (a voucher may be named by its code) and
// the object as the API shows it, for the assignment events. The engine
// wires it over the campaign, tier and voucher services.
type RelatedResolver func(ctx context.Context, projectID, objectType, objectID string) (Related, error)

// Related is the object an assignment ties a rule to: its type and id and,
// for the data of the assignment events, the object as the API shows it
// (nil when unknown).
type Related struct {
	Type   string
	ID     string
	Object any
}

// Service is the validation rule and assignment use cases.
type Service struct {
	store   Store
	tx      promotype.TxFunc[Store]
	env     promotype.Env
	related RelatedResolver
}

// NewService returns a validation rule service.
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env, related RelatedResolver) *Service {
	return &Service{store: store, tx: tx, env: env, related: related}
}

// Create checks (compiles) and stores a validation rule.
func (s *Service) Create(ctx context.Context, projectID string, in Params) (*ValidationRule, error) {
	if in.Name == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	r := &ValidationRule{ID: s.env.IDs.NewID(PrefixValidationRule), ProjectID: projectID, CreatedAt: s.env.Clock.Now(), Type: "expression", ContextType: "global"}
	if err := in.apply(r); err != nil {
		return nil, err
	}
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		if err := checkNamed(ctx, st, r); err != nil {
			return err
		}
		if err := st.InsertValidationRule(ctx, r); err != nil {
			return err
		}
		return s.emitRule(ctx, st, EventRuleCreated, r, "created_at", r.CreatedAt)
	})
	if err != nil {
		return nil, err
	}
	return r.normalize(), nil
}

// emitRule appends an event about rule r through st: data {rule, atKey: at}.
func (s *Service) emitRule(ctx context.Context, st Store, typ string, r *ValidationRule, atKey string, at promotype.Time) error {
	return promotype.AppendEvent(ctx, st, s.env, r.ProjectID, typ, r.ID, map[string]any{"rule": r.Clone().normalize(), atKey: at})
}

// Get returns a validation rule by id.
func (s *Service) Get(ctx context.Context, projectID, id string) (*ValidationRule, error) {
	r, err := s.store.GetValidationRule(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return r.normalize(), nil
}

// List lists validation rules.
func (s *Service) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*ValidationRule], error) {
	return promotype.ListWith(ctx, s.store.ListValidationRules, projectID, params, ListSpec, s.env.Clock.Now(), (*ValidationRule).normalize)
}

// Update changes the fields given.
func (s *Service) Update(ctx context.Context, projectID, id string, in Params) (*ValidationRule, error) {
	var out *ValidationRule
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		r, err := st.GetValidationRule(ctx, projectID, id)
		if err != nil {
			return err
		}
		if err := in.apply(r); err != nil {
			return err
		}
		if in.Rules != nil || in.ApplicableTo != nil { // a rule naming a collection deleted since keeps its other fields changeable
			if err := checkNamed(ctx, st, r); err != nil {
				return err
			}
		}
		r.UpdatedAt = s.env.Clock.Now().Ptr()
		out = r
		if err := st.UpdateValidationRule(ctx, r); err != nil {
			return err
		}
		return s.emitRule(ctx, st, EventRuleUpdated, r, "updated_at", *r.UpdatedAt)
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(projectID)
	return out.normalize(), nil
}

// Delete removes a rule and its assignments.
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	defer s.env.Change(projectID)
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		r, err := st.GetValidationRule(ctx, projectID, id)
		if err != nil {
			return err
		}
		if err := st.DeleteValidationRule(ctx, projectID, id); err != nil {
			return err
		}
		return s.emitRule(ctx, st, EventRuleDeleted, r, "deleted_at", s.env.Clock.Now())
	})
}

// Assign ties a rule to an object (a voucher by default). A second
// assignment of the rule to the same object is 409 duplicate_found, unless
// force replaces it.
func (s *Service) Assign(ctx context.Context, projectID, ruleID string, in AssignmentParams, force bool) (*Assignment, error) {
	if err := validate.Struct(in); err != nil {
		return nil, err
	}
	typ, id, err := in.target()
	if err != nil {
		return nil, err
	}
	if typ == "" {
		typ = RelatedVoucher
	}
	switch typ {
	case RelatedCampaign, RelatedPromotionTier, RelatedVoucher:
	case "earning_rule", "distribution", "reward_assignment":
		return nil, promotype.InvalidPayload("Property .related_object_type %s is not supported by this engine yet", typ)
	default:
		return nil, promotype.InvalidPayload("Property .related_object_type must be equal to one of the allowed values: voucher, campaign, promotion_tier, earning_rule, distribution, reward_assignment")
	}
	// The object is resolved before the transaction: the resolver reads
	// through the engine's store, which a transaction may hold (memory).
	if _, err := s.store.GetValidationRule(ctx, projectID, ruleID); err != nil {
		return nil, err // the rule's 404 first
	}
	to, err := s.related(ctx, projectID, typ, id)
	if err != nil {
		return nil, err
	}
	var out *Assignment
	err = s.tx(ctx, func(ctx context.Context, st Store) error {
		var err error
		out, err = s.AssignIn(ctx, st, projectID, ruleID, to, force)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.env.Change(projectID)
	return out.normalize(), nil
}

// AssignIn ties rule ruleID to an object of the project that the caller
// checked (to.ID is its id), through st: the caller's transaction (a
// campaign or voucher create assigns its validation_rules so). A second
// assignment of the rule to the object is 409 duplicate_found, unless force
// replaces it.
func (s *Service) AssignIn(ctx context.Context, st Store, projectID, ruleID string, to Related, force bool) (*Assignment, error) {
	r, err := st.GetValidationRule(ctx, projectID, ruleID)
	if err != nil {
		return nil, err
	}
	existing, err := s.find(ctx, st, projectID, r.ID, to.Type, to.ID)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		if !force {
			return nil, promotype.Duplicate("validation_rules_assignment", "Duplicated validation_rules_assignment exists with id %s", existing.ID)
		}
		if err := s.unassign(ctx, st, r, existing.ID, to.Object); err != nil {
			return nil, err
		}
		r.AssignmentsCount-- // unassign stored it; keep the copy in step
	}
	a := &Assignment{ID: s.env.IDs.NewID(PrefixAssignment), ProjectID: projectID, RuleID: r.ID,
		RelatedObjectID: to.ID, RelatedObjectType: to.Type, CreatedAt: s.env.Clock.Now()}
	if err := st.InsertAssignment(ctx, a); err != nil {
		return nil, err
	}
	r.AssignmentsCount++
	if err := st.UpdateValidationRule(ctx, r); err != nil {
		return nil, err
	}
	if err := s.emitAssignment(ctx, st, EventAssignmentCreated, r, a, to.Object); err != nil {
		return nil, err
	}
	return a.normalize(), nil
}

// emitAssignment appends an assignment event through st: data {rule,
// assignment} and the related object under its type (campaign, voucher,
// promotion_tier) when known.
func (s *Service) emitAssignment(ctx context.Context, st Store, typ string, r *ValidationRule, a *Assignment, related any) error {
	data := map[string]any{"rule": r.Clone().normalize(), "assignment": a.normalize()}
	if related != nil {
		data[a.RelatedObjectType] = related
	}
	return promotype.AppendEvent(ctx, st, s.env, r.ProjectID, typ, a.ID, data)
}

// UnassignObject deletes every assignment of an object, through st (the
// transaction deleting the object).
func (s *Service) UnassignObject(ctx context.Context, st Store, projectID string, of Related) error {
	q := promotype.Query{Limit: 1000, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "related_object_type", Op: promotype.OpIs, Values: []string{of.Type}},
		{Field: "related_object_id", Op: promotype.OpIs, Values: []string{of.ID}},
	}}
	items, _, err := st.ListAssignments(ctx, projectID, q)
	if err != nil {
		return err
	}
	for _, a := range items {
		r, err := st.GetValidationRule(ctx, projectID, a.RuleID)
		if err != nil {
			return err
		}
		if err := s.unassign(ctx, st, r, a.ID, of.Object); err != nil {
			return err
		}
	}
	return nil
}

// Unassign deletes an assignment of a rule.
func (s *Service) Unassign(ctx context.Context, projectID, ruleID, assignmentID string) error {
	defer s.env.Change(projectID)
	// The related object (for the event) is read before the transaction:
	// the resolver reads through the engine's store.
	var related any
	if a, err := s.store.GetAssignment(ctx, projectID, assignmentID); err == nil && s.related != nil {
		if to, err := s.related(ctx, projectID, a.RelatedObjectType, a.RelatedObjectID); err == nil {
			related = to.Object
		}
	}
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		r, err := st.GetValidationRule(ctx, projectID, ruleID)
		if err != nil {
			return err
		}
		return s.unassign(ctx, st, r, assignmentID, related)
	})
}

// unassign deletes assignment assignmentID of rule r through st, and
// records its event (related is the assigned object, or nil).
func (s *Service) unassign(ctx context.Context, st Store, r *ValidationRule, assignmentID string, related any) error {
	a, err := st.GetAssignment(ctx, r.ProjectID, assignmentID)
	if err != nil {
		return err
	}
	if a.RuleID != r.ID {
		return promotype.NotFound("validation_rules_assignment", assignmentID)
	}
	if err := st.DeleteAssignment(ctx, r.ProjectID, a.ID); err != nil {
		return err
	}
	c := r.Clone()
	c.AssignmentsCount--
	if err := st.UpdateValidationRule(ctx, c); err != nil {
		return err
	}
	return s.emitAssignment(ctx, st, EventAssignmentDeleted, c, a, related)
}

// ListAssignments lists assignments; ruleID, objectID and objectType narrow
// them when not empty.
func (s *Service) ListAssignments(ctx context.Context, projectID, ruleID, objectID, objectType string, params promotype.ListParams) (*promotype.List[*Assignment], error) {
	q, err := params.Query(AssignmentListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	if ruleID != "" {
		if _, err := s.store.GetValidationRule(ctx, projectID, ruleID); err != nil {
			return nil, err
		}
	}
	for field, v := range map[string]string{"rule_id": ruleID, "related_object_id": objectID, "related_object_type": objectType} {
		if v != "" {
			q.Must = append(q.Must, promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}})
		}
	}
	items, total, err := s.store.ListAssignments(ctx, projectID, q)
	if err != nil {
		return nil, err
	}
	for _, a := range items {
		a.normalize()
	}
	return promotype.NewList(items, total, q), nil
}

// AssignmentsOf returns every assignment of the objects (of one type).
func (s *Service) AssignmentsOf(ctx context.Context, projectID, objectType string, objectIDs ...string) ([]*Assignment, error) {
	items, err := s.store.AssignmentsOf(ctx, projectID, objectType, objectIDs)
	for _, a := range items {
		a.normalize()
	}
	return items, err
}

func (s *Service) find(ctx context.Context, st Store, projectID, ruleID, objectType, objectID string) (*Assignment, error) {
	q := promotype.Query{Limit: 1, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "rule_id", Op: promotype.OpIs, Values: []string{ruleID}},
		{Field: "related_object_type", Op: promotype.OpIs, Values: []string{objectType}},
		{Field: "related_object_id", Op: promotype.OpIs, Values: []string{objectID}},
	}}
	items, _, err := st.ListAssignments(ctx, projectID, q)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	return items[0], nil
}

// apply checks `in` and copies it onto r: the rules must compile.
func (in Params) apply(r *ValidationRule) error {
	if err := validate.Struct(in); err != nil {
		return err
	}
	if b := bytes.TrimSpace(in.BundleRules); len(b) > 0 && !bytes.Equal(b, []byte("null")) && !bytes.Equal(b, []byte("{}")) {
		return promotype.InvalidPayload("Property .bundle_rules is not supported by this engine yet")
	}
	if in.ContextType != nil && !slices.Contains(contextTypes, *in.ContextType) {
		return promotype.InvalidPayload("Property .context_type must be one of the documented context types (for example global)")
	}
	next := r.Clone()
	if in.Name != nil {
		next.Name = *in.Name
	}
	if in.Rules != nil {
		next.Rules = in.Rules.Clone()
		if strings.TrimSpace(next.Rules.Logic) == "" && len(next.Rules.Rules) > 0 {
			// As the hosted service: rules without logic must all hold.
			next.Rules.Logic = strings.Join(next.Rules.Keys(), " and ")
		}
	}
	if in.Error != nil {
		e := *in.Error
		next.Error = &e
	}
	if in.ApplicableTo != nil {
		a := cloneApplicability(*in.ApplicableTo)
		if err := checkApplicability(&a); err != nil {
			return err
		}
		next.ApplicableTo = a
	}
	if in.Type != nil {
		next.Type = *in.Type
	}
	if in.ContextType != nil {
		next.ContextType = *in.ContextType
	}
	if _, err := next.Program(); err != nil {
		return err
	}
	*r = *next
	return nil
}

// AssignmentLister is what AssignmentsByObject reads (a Store).
type AssignmentLister interface {
	// AssignmentsOf returns every assignment of the objects of type
	// objectType with ids, oldest first (created_at, then id): the read
	// of every validation.
	AssignmentsOf(ctx context.Context, projectID, objectType string, ids []string) ([]*Assignment, error)
}

// AssignmentsByObject returns the validation rule assignments of objects of
// one type, by object id, oldest first.
func AssignmentsByObject(ctx context.Context, st AssignmentLister, projectID, objectType string, ids []string) (map[string][]*Assignment, error) {
	items, err := st.AssignmentsOf(ctx, projectID, objectType, ids)
	if err != nil {
		return nil, err
	}
	out := map[string][]*Assignment{}
	for _, a := range items {
		out[a.RelatedObjectID] = append(out[a.RelatedObjectID], a.normalize())
	}
	return out, nil
}
