package storagetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

func validationRule(t *testing.T, projectID string, n int) *rule.ValidationRule {
	t.Helper()
	var rs rule.RuleSet
	js := fmt.Sprintf(`{"logic":"1 and 2","1":{"name":"order.amount","conditions":{"$more_than":[%d]},"error":{"message":"too small"}},`+
		`"2":{"name":"order.items.any","conditions":{"$is":[{"id":"prod_1","object":"product","source_id":"src"}]},`+
		`"rules":{"1":{"name":"order.items.quantity","conditions":{"$more_than_or_equal":[2]}}}}}`, n)
	must(t, json.Unmarshal([]byte(js), &rs))
	return &rule.ValidationRule{
		ID: fmt.Sprintf("val_%03d", n), ProjectID: projectID, Name: fmt.Sprintf("Rule %03d", n), Rules: rs,
		Error: &promotype.ErrorMessage{Message: "nope"}, Type: "expression", ContextType: "global",
		ApplicableTo: discount.Applicability{Included: []discount.Target{{Object: "product", ID: "prod_1", Effect: "APPLY_TO_EVERY",
			Price: ptr(int64(800)), QuantityLimit: ptr(int64(3))}}, Excluded: []discount.Target{}},
		CreatedAt: at(n),
	}
}

func assignment(projectID, ruleID string, n int, objType, objID string) *rule.Assignment {
	return &rule.Assignment{ID: fmt.Sprintf("asgm_%03d", n), ProjectID: projectID, RuleID: ruleID,
		RelatedObjectType: objType, RelatedObjectID: objID, CreatedAt: at(n)}
}

func testValidationRules(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	want := validationRule(t, p, 1)
	must(t, s.InsertValidationRule(ctx, want))
	got, err := s.GetValidationRule(ctx, p, want.ID)
	must(t, err)
	diff(t, "get", want, got)
	if _, err := got.Program(); err != nil {
		t.Errorf("the stored rules no longer compile: %v", err)
	}
	wantErr(t, "duplicate", s.InsertValidationRule(ctx, validationRule(t, p, 1)), promotype.ErrDuplicateFound)

	want.Name = "Renamed"
	want.Error = nil
	want.AssignmentsCount = 2
	want.UpdatedAt = at(9).Ptr()
	must(t, s.UpdateValidationRule(ctx, want))
	got, err = s.GetValidationRule(ctx, p, want.ID)
	must(t, err)
	diff(t, "after update", want, got)
	wantErr(t, "update missing", s.UpdateValidationRule(ctx, validationRule(t, p, 5)), promotype.ErrNotFound)

	must(t, s.InsertValidationRule(ctx, validationRule(t, p, 2)))
	items, total, err := s.ListValidationRules(ctx, p, promotype.Query{Limit: 10, OrderBy: "name"})
	must(t, err)
	if total != 2 || items[0].Name != "Renamed" || items[1].Name != "Rule 002" {
		t.Errorf("list by name: total %d, %v", total, ids(items, func(r *rule.ValidationRule) string { return r.Name }))
	}
	must(t, s.InsertValidationRule(ctx, validationRule(t, p, 3)))
	items, _, err = s.ListValidationRules(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "id", Op: promotype.OpIn, Values: []string{"val_003", "val_001", "val_none"}}}})
	must(t, err)
	diff(t, "list by ids", []string{"val_001", "val_003"}, ids(items, func(r *rule.ValidationRule) string { return r.ID }))
}

func testAssignments(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	must(t, s.InsertValidationRule(ctx, validationRule(t, p, 1)))
	must(t, s.InsertValidationRule(ctx, validationRule(t, p, 2)))
	a1 := assignment(p, "val_001", 1, "promotion_tier", "promo_1")
	must(t, s.InsertAssignment(ctx, a1))
	must(t, s.InsertAssignment(ctx, assignment(p, "val_001", 2, "campaign", "camp_1")))
	must(t, s.InsertAssignment(ctx, assignment(p, "val_002", 3, "promotion_tier", "promo_1")))
	got, err := s.GetAssignment(ctx, p, a1.ID)
	must(t, err)
	diff(t, "get", a1, got)

	// One rule, one object: a second assignment is a duplicate naming the first.
	err = s.InsertAssignment(ctx, assignment(p, "val_001", 4, "promotion_tier", "promo_1"))
	wantErr(t, "same rule and object", err, promotype.ErrDuplicateFound)
	if e := promotype.AsError(err); e.Details != "Duplicated validation_rules_assignment exists with id asgm_001" {
		t.Errorf("details %q", e.Details)
	}

	q := func(conds ...promotype.Condition) promotype.Query {
		return promotype.Query{Limit: 10, OrderBy: "created_at", Must: conds}
	}
	is := func(field, v string) promotype.Condition {
		return promotype.Condition{Field: field, Op: promotype.OpIs, Values: []string{v}}
	}
	listIDs := func(q promotype.Query) []string {
		items, _, err := s.ListAssignments(ctx, p, q)
		must(t, err)
		return ids(items, func(a *rule.Assignment) string { return a.ID })
	}
	diff(t, "of rule 1", []string{"asgm_001", "asgm_002"}, listIDs(q(is("rule_id", "val_001"))))
	diff(t, "of tier promo_1", []string{"asgm_001", "asgm_003"}, listIDs(q(is("related_object_type", "promotion_tier"), is("related_object_id", "promo_1"))))
	diff(t, "of several objects", []string{"asgm_001", "asgm_002", "asgm_003"}, listIDs(q(promotype.Condition{Field: "related_object_id", Op: promotype.OpIn, Values: []string{"promo_1", "camp_1"}})))
	of := func(projectID, typ string, objects ...string) []string {
		items, err := s.AssignmentsOf(ctx, projectID, typ, objects)
		must(t, err)
		return ids(items, func(a *rule.Assignment) string { return a.ID })
	}
	diff(t, "AssignmentsOf tiers", []string{"asgm_001", "asgm_003"}, of(p, "promotion_tier", "promo_1", "camp_1", "promo_none"))
	diff(t, "AssignmentsOf a campaign", []string{"asgm_002"}, of(p, "campaign", "camp_1"))
	diff(t, "AssignmentsOf in another project", []string{}, of("proj_b", "promotion_tier", "promo_1"))

	must(t, s.DeleteAssignment(ctx, p, "asgm_003"))
	wantErr(t, "deleted assignment", second(s.GetAssignment(ctx, p, "asgm_003")), promotype.ErrNotFound)
	wantErr(t, "delete twice", s.DeleteAssignment(ctx, p, "asgm_003"), promotype.ErrNotFound)

	// Deleting a rule deletes its assignments.
	must(t, s.DeleteValidationRule(ctx, p, "val_001"))
	wantErr(t, "deleted rule", second(s.GetValidationRule(ctx, p, "val_001")), promotype.ErrNotFound)
	diff(t, "assignments left", []string{}, listIDs(q()))
	wantErr(t, "delete rule twice", s.DeleteValidationRule(ctx, p, "val_001"), promotype.ErrNotFound)

	// Another project sees none of it.
	b := newProject(t, s, "proj_b")
	wantErr(t, "other project's rule", second(s.GetValidationRule(ctx, b, "val_002")), promotype.ErrNotFound)
	items, total, err := s.ListValidationRules(ctx, b, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 0 || len(items) != 0 {
		t.Errorf("project b lists %d rules", total)
	}
}
