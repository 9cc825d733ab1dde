package memory

import (
	"context"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
)

// ruleData holds validation rules and their assignments.
type ruleData struct {
	rules       table[campaign.ValidationRule]
	assignments table[campaign.Assignment]
}

func newRuleData() ruleData {
	return ruleData{rules: newTable[campaign.ValidationRule](), assignments: newTable[campaign.Assignment]()}
}

func ruleField(r *campaign.ValidationRule, name string) promotype.Value {
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

func assignmentField(a *campaign.Assignment, name string) promotype.Value {
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

func ruleID(r *campaign.ValidationRule) string   { return r.ID }
func assignmentID(a *campaign.Assignment) string { return a.ID }
func cloneAssignment(a *campaign.Assignment) *campaign.Assignment {
	c := *a
	return &c
}

// InsertValidationRule implements campaign.RuleStore.
func (s *Store) InsertValidationRule(_ context.Context, r *campaign.ValidationRule) error {
	return s.write(func(d *data, u *undo) error {
		return insertNew(&d.rules.rules, u, r.ProjectID, r.ID, "validation_rules", r.Clone())
	})
}

// UpdateValidationRule implements campaign.RuleStore.
func (s *Store) UpdateValidationRule(_ context.Context, r *campaign.ValidationRule) error {
	return s.write(func(d *data, u *undo) error {
		return replace(&d.rules.rules, u, r.ProjectID, r.ID, "validation_rules", r.Clone())
	})
}

// GetValidationRule implements campaign.RuleStore.
func (s *Store) GetValidationRule(_ context.Context, projectID, id string) (out *campaign.ValidationRule, err error) {
	s.read(func(d *data) {
		out, err = getClone(&d.rules.rules, projectID, id, "validation_rules", (*campaign.ValidationRule).Clone)
	})
	return out, err
}

// ListValidationRules implements campaign.RuleStore.
func (s *Store) ListValidationRules(_ context.Context, projectID string, q promotype.Query) (out []*campaign.ValidationRule, total int, err error) {
	s.read(func(d *data) {
		out, total = list(d.rules.rules.rows[projectID], q, ruleField, ruleID, nil, (*campaign.ValidationRule).Clone)
	})
	return out, total, nil
}

// DeleteValidationRule implements campaign.RuleStore: the rule and its assignments.
func (s *Store) DeleteValidationRule(_ context.Context, projectID, id string) error {
	return s.write(func(d *data, u *undo) error {
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

// InsertAssignment implements campaign.RuleStore.
func (s *Store) InsertAssignment(_ context.Context, a *campaign.Assignment) error {
	return s.write(func(d *data, u *undo) error {
		for _, o := range d.rules.assignments.rows[a.ProjectID] {
			if o.ID == a.ID || (o.RuleID == a.RuleID && o.RelatedObjectType == a.RelatedObjectType && o.RelatedObjectID == a.RelatedObjectID) {
				return promotype.Duplicate("validation_rules_assignment", "Duplicated validation_rules_assignment exists with id %s", o.ID)
			}
		}
		d.rules.assignments.put(u, a.ProjectID, a.ID, cloneAssignment(a))
		return nil
	})
}

// GetAssignment implements campaign.RuleStore.
func (s *Store) GetAssignment(_ context.Context, projectID, id string) (out *campaign.Assignment, err error) {
	s.read(func(d *data) {
		out, err = getClone(&d.rules.assignments, projectID, id, "validation_rules_assignment", cloneAssignment)
	})
	return out, err
}

// DeleteAssignment implements campaign.RuleStore.
func (s *Store) DeleteAssignment(_ context.Context, projectID, id string) error {
	return s.write(func(d *data, u *undo) error {
		return remove(&d.rules.assignments, u, projectID, id, "validation_rules_assignment")
	})
}

// ListAssignments implements campaign.RuleStore.
func (s *Store) ListAssignments(_ context.Context, projectID string, q promotype.Query) (out []*campaign.Assignment, total int, err error) {
	s.read(func(d *data) {
		out, total = list(d.rules.assignments.rows[projectID], q, assignmentField, assignmentID, nil, cloneAssignment)
	})
	return out, total, nil
}
