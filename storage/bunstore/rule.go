package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/uptrace/bun"
)

type validationRuleRow struct {
	bun.BaseModel `bun:"table:promo_validation_rules,alias:v"`

	ProjectID        string          `bun:"project_id,pk"`
	ID               string          `bun:"id,pk"`
	Name             string          `bun:"name"`
	Rules            json.RawMessage `bun:"rules"`
	Error            json.RawMessage `bun:"error"`
	ApplicableTo     json.RawMessage `bun:"applicable_to"`
	Type             string          `bun:"type"`
	ContextType      string          `bun:"context_type"`
	AssignmentsCount int             `bun:"assignments_count"`
	CreatedAt        time.Time       `bun:"created_at"`
	UpdatedAt        *time.Time      `bun:"updated_at"`

	Total int `bun:"total,scanonly"`
}

func (r *validationRuleRow) listTotal() int { return r.Total }

var validationRuleColumns = columns{
	"id":         {"id", promotype.FieldString},
	"name":       {"name", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

func newValidationRuleRow(r *rule.ValidationRule) (*validationRuleRow, error) {
	if err := checkText("validation_rules", str("id", r.ID), str("project_id", r.ProjectID), str("name", r.Name)); err != nil {
		return nil, err
	}
	row := &validationRuleRow{ProjectID: r.ProjectID, ID: r.ID, Name: r.Name, Type: r.Type, ContextType: r.ContextType,
		AssignmentsCount: r.AssignmentsCount, CreatedAt: sqlTime(r.CreatedAt), UpdatedAt: sqlTimePtr(r.UpdatedAt)}
	var err error
	if row.Rules, err = encodeJSON(r.Rules); err != nil {
		return nil, err
	}
	if r.Error != nil {
		if row.Error, err = encodeJSON(r.Error); err != nil {
			return nil, err
		}
	}
	if row.ApplicableTo, err = encodeJSON(r.ApplicableTo); err != nil {
		return nil, err
	}
	return row, nil
}

func (r *validationRuleRow) domain() (*rule.ValidationRule, error) {
	out := &rule.ValidationRule{ID: r.ID, ProjectID: r.ProjectID, Name: r.Name, Type: r.Type, ContextType: r.ContextType,
		AssignmentsCount: r.AssignmentsCount, CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt)}
	if err := decodeJSON(r.Rules, &out.Rules); err != nil {
		return nil, err
	}
	if err := decodeJSON(r.Error, &out.Error); err != nil {
		return nil, err
	}
	if err := decodeJSON(r.ApplicableTo, &out.ApplicableTo); err != nil {
		return nil, err
	}
	return out, nil
}

func ruleNotFound(id string) func() error {
	return func() error { return promotype.NotFound("validation_rules", id) }
}

// InsertValidationRule implements rule.Store.
func (s *Store) InsertValidationRule(ctx context.Context, r *rule.ValidationRule) error {
	row, err := newValidationRuleRow(r)
	if err != nil {
		return err
	}
	return insertNew(ctx, s.db, "insert validation rule", row, func() error {
		return promotype.Duplicate("validation_rules", "Duplicated validation_rules exists with id %s", r.ID)
	})
}

// UpdateValidationRule implements rule.Store.
func (s *Store) UpdateValidationRule(ctx context.Context, r *rule.ValidationRule) error {
	row, err := newValidationRuleRow(r)
	if err != nil {
		return rowErr(err, r.ProjectID, r.ID, ruleNotFound(r.ID))
	}
	return replaceRow(ctx, s.db, "update validation rule", row, ruleNotFound(r.ID))
}

// GetValidationRule implements rule.Store.
func (s *Store) GetValidationRule(ctx context.Context, projectID, id string) (*rule.ValidationRule, error) {
	return getByID[validationRuleRow, *validationRuleRow, *rule.ValidationRule](ctx, s.db, "get validation rule", "v", projectID, id, ruleNotFound(id))
}

// ListValidationRules implements rule.Store.
func (s *Store) ListValidationRules(ctx context.Context, projectID string, q promotype.Query) ([]*rule.ValidationRule, int, error) {
	return listProject[validationRuleRow, *validationRuleRow, *rule.ValidationRule](ctx, s.db, validationRuleColumns, "v", "", projectID, q)
}

// DeleteValidationRule implements rule.Store: the rule and its
// assignments, in one statement.
func (s *Store) DeleteValidationRule(ctx context.Context, projectID, id string) error {
	if !storableKeys(projectID, id) {
		return ruleNotFound(id)()
	}
	var deleted []string
	err := s.db.NewRaw(`WITH r AS (DELETE FROM promo_validation_rules WHERE project_id = ? AND id = ? RETURNING id),
		a AS (DELETE FROM promo_rule_assignments WHERE project_id = ? AND rule_id IN (SELECT id FROM r))
		SELECT id FROM r`, projectID, id, projectID).Scan(ctx, &deleted)
	if err != nil {
		return fail("delete validation rule", err, nil)
	}
	if len(deleted) == 0 {
		return ruleNotFound(id)()
	}
	return nil
}

type assignmentRow struct {
	bun.BaseModel `bun:"table:promo_rule_assignments,alias:a"`

	ProjectID         string    `bun:"project_id,pk"`
	ID                string    `bun:"id,pk"`
	RuleID            string    `bun:"rule_id"`
	RelatedObjectID   string    `bun:"related_object_id"`
	RelatedObjectType string    `bun:"related_object_type"`
	CreatedAt         time.Time `bun:"created_at"`

	Total int `bun:"total,scanonly"`
}

func (r *assignmentRow) listTotal() int { return r.Total }

func (r *assignmentRow) domain() (*rule.Assignment, error) {
	return &rule.Assignment{ID: r.ID, ProjectID: r.ProjectID, RuleID: r.RuleID, RelatedObjectID: r.RelatedObjectID,
		RelatedObjectType: r.RelatedObjectType, CreatedAt: domainTime(r.CreatedAt)}, nil
}

var assignmentColumns = columns{
	"rule_id":             {"rule_id", promotype.FieldString},
	"related_object_id":   {"related_object_id", promotype.FieldString},
	"related_object_type": {"related_object_type", promotype.FieldString},
	"created_at":          {"created_at", promotype.FieldTime},
}

func assignmentNotFound(id string) func() error {
	return func() error { return promotype.NotFound("validation_rules_assignment", id) }
}

// InsertAssignment implements rule.Store.
func (s *Store) InsertAssignment(ctx context.Context, a *rule.Assignment) error {
	if err := checkText("validation_rules_assignment", str("id", a.ID), str("project_id", a.ProjectID), str("rule_id", a.RuleID),
		str("related_object_id", a.RelatedObjectID), str("related_object_type", a.RelatedObjectType)); err != nil {
		return err
	}
	row := &assignmentRow{ProjectID: a.ProjectID, ID: a.ID, RuleID: a.RuleID, RelatedObjectID: a.RelatedObjectID,
		RelatedObjectType: a.RelatedObjectType, CreatedAt: sqlTime(a.CreatedAt)}
	dup := func() error {
		var existing string
		_ = s.db.NewSelect().Model((*assignmentRow)(nil)).Column("id").
			Where("project_id = ? AND ((rule_id = ? AND related_object_type = ? AND related_object_id = ?) OR id = ?)",
				a.ProjectID, a.RuleID, a.RelatedObjectType, a.RelatedObjectID, a.ID).Limit(1).Scan(ctx, &existing)
		return promotype.Duplicate("validation_rules_assignment", "Duplicated validation_rules_assignment exists with id %s", existing)
	}
	return insertNew(ctx, s.db, "insert assignment", row, dup)
}

// GetAssignment implements rule.Store.
func (s *Store) GetAssignment(ctx context.Context, projectID, id string) (*rule.Assignment, error) {
	return getByID[assignmentRow, *assignmentRow, *rule.Assignment](ctx, s.db, "get assignment", "a", projectID, id, assignmentNotFound(id))
}

// DeleteAssignment implements rule.Store.
func (s *Store) DeleteAssignment(ctx context.Context, projectID, id string) error {
	return deleteByID[assignmentRow](ctx, s.db, "delete assignment", "a", projectID, id, assignmentNotFound(id))
}

// ListAssignments implements rule.Store.
func (s *Store) ListAssignments(ctx context.Context, projectID string, q promotype.Query) ([]*rule.Assignment, int, error) {
	return listProject[assignmentRow, *assignmentRow, *rule.Assignment](ctx, s.db, assignmentColumns, "a", "", projectID, q)
}

// AssignmentsOf implements rule.Store with one prepared statement (the
// read of every validation).
func (s *Store) AssignmentsOf(ctx context.Context, projectID, typ string, ids []string) ([]*rule.Assignment, error) {
	if !storableKeys(append([]string{projectID, typ}, ids...)...) {
		return []*rule.Assignment{}, nil
	}
	var rows []assignmentRow
	if err := selectPrepared(ctx, s.db, assignmentsOfStatement, &rows, projectID, typ, ids); err != nil {
		return nil, fail("list assignments", err, nil)
	}
	return domains[assignmentRow, *assignmentRow](rows)
}

var assignmentsOfStatement = newPrepared("promo_rule_assignments", func(db bun.IDB) string {
	return db.NewSelect().Model((*assignmentRow)(nil)).
		Where("a.project_id = ? AND a.related_object_type = ? AND a.related_object_id = ANY(?::text[])",
			placeholder(1), placeholder(2), placeholder(3)).
		OrderExpr("a.created_at, a.id").String()
})
