package memory

import (
	"context"
	"math"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// ruleData holds validation rules and their assignments.
type ruleData struct {
	rules       table[rule.ValidationRule]
	assignments table[rule.Assignment]
}

func newRuleData() ruleData {
	return ruleData{rules: newTable[rule.ValidationRule](), assignments: newTable[rule.Assignment]()}
}

func ruleField(r *rule.ValidationRule, name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: r.ID}
	case "name":
		return promotype.Value{Str: r.Name}
	case "created_at":
		return tm(r.CreatedAt)
	case "updated_at":
		return tmPtr(r.UpdatedAt)
	}
	return promotype.Value{Null: true}
}

func assignmentField(a *rule.Assignment, name string) promotype.Value {
	switch name {
	case "rule_id":
		return promotype.Value{Str: a.RuleID}
	case "related_object_id":
		return promotype.Value{Str: a.RelatedObjectID}
	case "related_object_type":
		return promotype.Value{Str: a.RelatedObjectType}
	case "created_at":
		return tm(a.CreatedAt)
	}
	return promotype.Value{Null: true}
}

func ruleID(r *rule.ValidationRule) string { return r.ID }

func assignmentID(a *rule.Assignment) string { return a.ID }

func cloneAssignment(a *rule.Assignment) *rule.Assignment {
	c := *a
	return &c
}

// InsertValidationRule implements rule.Store.
func (s *Store) InsertValidationRule(ctx context.Context, r *rule.ValidationRule) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.rules.rules, u, r.ProjectID, r.ID, "validation_rules", r.Clone())
	})
}

// UpdateValidationRule implements rule.Store.
func (s *Store) UpdateValidationRule(ctx context.Context, r *rule.ValidationRule) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.rules.rules, u, r.ProjectID, r.ID, "validation_rules", r.Clone())
	})
}

// GetValidationRule implements rule.Store.
func (s *Store) GetValidationRule(ctx context.Context, projectID, id string) (out *rule.ValidationRule, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.rules.rules, projectID, id, "validation_rules", (*rule.ValidationRule).Clone)
	})
	return out, err
}

// ListValidationRules implements rule.Store.
func (s *Store) ListValidationRules(ctx context.Context, projectID string, q promotype.Query) (out []*rule.ValidationRule, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.rules.rules.rows[projectID], q, ruleField, ruleID, nil, (*rule.ValidationRule).Clone)
	})
	return out, total, nil
}

// DeleteValidationRule implements rule.Store: the rule and its assignments.
func (s *Store) DeleteValidationRule(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		if _, ok := d.rules.rules.get(projectID, id); !ok {
			return promotype.NotFound("validation_rules", id)
		}
		for aid, a := range d.rules.assignments.rows[projectID] {
			if a.RuleID == id {
				d.rules.assignments.del(u, projectID, aid)
			}
		}
		d.rules.rules.del(u, projectID, id)
		return nil
	})
}

// InsertAssignment implements rule.Store.
func (s *Store) InsertAssignment(ctx context.Context, a *rule.Assignment) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, o := range d.rules.assignments.rows[a.ProjectID] {
			if o.ID == a.ID || (o.RuleID == a.RuleID && o.RelatedObjectType == a.RelatedObjectType && o.RelatedObjectID == a.RelatedObjectID) {
				return promotype.Duplicate("validation_rules_assignment", "Duplicated validation_rules_assignment exists with id %s", o.ID)
			}
		}
		d.rules.assignments.put(u, a.ProjectID, a.ID, cloneAssignment(a))
		return nil
	})
}

// GetAssignment implements rule.Store.
func (s *Store) GetAssignment(ctx context.Context, projectID, id string) (out *rule.Assignment, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.rules.assignments, projectID, id, "validation_rules_assignment", cloneAssignment)
	})
	return out, err
}

// DeleteAssignment implements rule.Store.
func (s *Store) DeleteAssignment(ctx context.Context, projectID, id string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return remove(&d.rules.assignments, u, projectID, id, "validation_rules_assignment")
	})
}

// AssignmentsOf implements rule.Store.
func (s *Store) AssignmentsOf(ctx context.Context, projectID, typ string, ids []string) (out []*rule.Assignment, err error) {
	out, _, err = s.ListAssignments(ctx, projectID, promotype.Query{Limit: math.MaxInt32, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "related_object_type", Op: promotype.OpIs, Values: []string{typ}},
		{Field: "related_object_id", Op: promotype.OpIn, Values: ids},
	}})
	return out, err
}

// ListAssignments implements rule.Store.
func (s *Store) ListAssignments(ctx context.Context, projectID string, q promotype.Query) (out []*rule.Assignment, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.rules.assignments.rows[projectID], q, assignmentField, assignmentID, nil, cloneAssignment)
	})
	return out, total, nil
}
