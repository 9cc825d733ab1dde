package rule

import (
	"context"
	"github.com/promoengine/promo/segment"
	"slices"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
)

// ValidationRule is a named set of rules with the products a discount may
// touch (object "validation_rules"). Rules are compiled when saved.
type ValidationRule struct {
	ID               string                  `json:"id"`
	Name             string                  `json:"name"`
	Rules            RuleSet                 `json:"rules"`
	Error            *promotype.ErrorMessage `json:"error,omitempty"`
	ApplicableTo     discount.Applicability  `json:"applicable_to"`
	Type             string                  `json:"type"`
	ContextType      string                  `json:"context_type"`
	CreatedAt        promotype.Time          `json:"created_at"`
	UpdatedAt        *promotype.Time         `json:"updated_at"`
	AssignmentsCount int                     `json:"assignments_count"`
	Object           string                  `json:"object"`

	ProjectID string `json:"-"`
}

// Assignment ties a validation rule to a campaign, promotion tier or
// voucher (object "validation_rules_assignment").
type Assignment struct {
	ID                string         `json:"id"`
	RuleID            string         `json:"rule_id"`
	RelatedObjectID   string         `json:"related_object_id"`
	RelatedObjectType string         `json:"related_object_type"`
	CreatedAt         promotype.Time `json:"created_at"`
	Object            string         `json:"object"`

	ProjectID string `json:"-"`
}

// Related object types an assignment may name.
const (
	RelatedCampaign      = "campaign"
	RelatedPromotionTier = "promotion_tier"
	RelatedVoucher       = "voucher"
)

// Id prefixes of rules and assignments.
const (
	PrefixValidationRule = "val_"
	PrefixAssignment     = "asgm_"
)

// Program compiles the rule's rules (they were checked when saved).
func (r *ValidationRule) Program() (*Program, error) {
	msg := ""
	if r.Error != nil {
		msg = r.Error.Message
	}
	p, err := Compile(r.Rules, msg)
	if p != nil {
		p.RuleID = r.ID
	}
	return p, err
}

// Clone returns a deep copy.
func (r *ValidationRule) Clone() *ValidationRule {
	c := *r
	c.Rules = r.Rules.Clone()
	c.UpdatedAt = promotype.ClonePtr(r.UpdatedAt)
	if r.Error != nil {
		e := *r.Error
		c.Error = &e
	}
	c.ApplicableTo = cloneApplicability(r.ApplicableTo)
	return &c
}

func cloneApplicability(a discount.Applicability) discount.Applicability {
	out := discount.Applicability{IncludedAll: a.IncludedAll}
	out.Included = cloneTargets(a.Included)
	out.Excluded = cloneTargets(a.Excluded)
	return out
}

func cloneTargets(ts []discount.Target) []discount.Target {
	if ts == nil {
		return nil
	}
	out := slices.Clone(ts)
	for i := range out {
		t := &out[i]
		t.SourceID, t.ProductID, t.ProductSourceID = promotype.ClonePtr(t.SourceID), promotype.ClonePtr(t.ProductID), promotype.ClonePtr(t.ProductSourceID)
		t.Price, t.PriceFormula = promotype.ClonePtr(t.Price), promotype.ClonePtr(t.PriceFormula)
		t.QuantityLimit, t.AggregatedQuantityLimit = promotype.ClonePtr(t.QuantityLimit), promotype.ClonePtr(t.AggregatedQuantityLimit)
		t.AmountLimit, t.AggregatedAmountLimit = promotype.ClonePtr(t.AmountLimit), promotype.ClonePtr(t.AggregatedAmountLimit)
		t.Repeat, t.SkipInitially = promotype.ClonePtr(t.Repeat), promotype.ClonePtr(t.SkipInitially)
	}
	return out
}

func (r *ValidationRule) normalize() *ValidationRule {
	r.Object = "validation_rules"
	if r.ApplicableTo.Included == nil {
		r.ApplicableTo.Included = []discount.Target{}
	}
	if r.ApplicableTo.Excluded == nil {
		r.ApplicableTo.Excluded = []discount.Target{}
	}
	if r.Rules.Rules == nil {
		r.Rules.Rules = map[string]Rule{}
	}
	return r
}

func (a *Assignment) normalize() *Assignment {
	a.Object = "validation_rules_assignment"
	return a
}

// Store is the storage port of validation rules and their assignments,
// scoped by project. Deleting a rule deletes its assignments; a second
// assignment of one rule to one object is duplicate_found. Bound to a
// transaction, it also takes the events of the changes made in it (the
// outbox), which every service port of this package embeds through it.
type Store interface {
	promotype.EventStore
	CollectionReader
	segment.Getter

	InsertValidationRule(ctx context.Context, r *ValidationRule) error
	UpdateValidationRule(ctx context.Context, r *ValidationRule) error
	GetValidationRule(ctx context.Context, projectID, id string) (*ValidationRule, error)
	ListValidationRules(ctx context.Context, projectID string, q promotype.Query) ([]*ValidationRule, int, error)
	DeleteValidationRule(ctx context.Context, projectID, id string) error

	InsertAssignment(ctx context.Context, a *Assignment) error
	GetAssignment(ctx context.Context, projectID, id string) (*Assignment, error)
	DeleteAssignment(ctx context.Context, projectID, id string) error
	// ListAssignments filters on rule_id, related_object_id,
	// related_object_type and created_at.
	ListAssignments(ctx context.Context, projectID string, q promotype.Query) ([]*Assignment, int, error)
	AssignmentLister
}

// ListSpec is what GET /v1/validation-rules accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at", "name"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":       promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

// AssignmentListSpec is what the assignment lists accept.
var AssignmentListSpec = promotype.ListSpec{
	Orders:       []string{"created_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"rule_id":             promotype.FieldString,
		"related_object_id":   promotype.FieldString,
		"related_object_type": promotype.FieldString,
		"created_at":          promotype.FieldTime,
	},
}

// The webhook events of validation rules and assignments, spelled as
// webhook.Events spells them.
const (
	EventRuleCreated       = "business_validation_rule.created"
	EventRuleUpdated       = "business_validation_rule.updated"
	EventRuleDeleted       = "business_validation_rule.deleted"
	EventAssignmentCreated = "business_validation_rule.assignment.created"
	EventAssignmentDeleted = "business_validation_rule.assignment.deleted"
)
