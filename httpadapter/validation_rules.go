package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// ruleRoutes are the validation rule and assignment endpoints (scopes
// validation-rules and validation-rules-assignments).
func (s *server) ruleRoutes() []route {
	vr := s.engine.ValidationRules()
	assignments := func(c *call, ruleID string) (*promotype.List[*rule.Assignment], error) {
		p, err := c.listParams()
		if err != nil {
			return nil, err
		}
		q := c.r.URL.Query()
		if ruleID == "" { // the global list narrows by ?rule=
			ruleID = q.Get("rule")
		}
		return vr.ListAssignments(c.ctx(), c.projectID, ruleID, q.Get("related_object_id"), "", p)
	}
	return []route{
		{http.MethodPost, "/v1/validation-rules", appKey, withBody(func(c *call, in rule.Params) (*rule.Created, error) {
			r, err := vr.Create(c.ctx(), c.projectID, in)
			if err != nil {
				return nil, err
			}
			return rule.NewCreated(r, in), nil
		})},
		{http.MethodGet, "/v1/validation-rules", appKey, listOf(vr.List)},
		{http.MethodGet, "/v1/validation-rules/{ruleId}", appKey, withoutBody(func(c *call) (*rule.ValidationRule, error) {
			return vr.Get(c.ctx(), c.projectID, c.path("ruleId"))
		})},
		{http.MethodPut, "/v1/validation-rules/{ruleId}", appKey, withBody(func(c *call, in rule.Params) (*rule.ValidationRule, error) {
			return vr.Update(c.ctx(), c.projectID, c.path("ruleId"), in)
		})},
		{http.MethodDelete, "/v1/validation-rules/{ruleId}", appKey, noContent(func(c *call) error {
			return vr.Delete(c.ctx(), c.projectID, c.path("ruleId"))
		})},
		{http.MethodGet, "/v1/validation-rules-assignments", appKey, withoutBody(func(c *call) (*promotype.List[*rule.Assignment], error) {
			return assignments(c, "")
		})},
		{http.MethodGet, "/v1/validation-rules/{ruleId}/assignments", appKey, withoutBody(func(c *call) (*promotype.List[*rule.Assignment], error) {
			return assignments(c, c.path("ruleId"))
		})},
		{http.MethodPost, "/v1/validation-rules/{ruleId}/assignments", appKey, withBody(func(c *call, in rule.AssignmentParams) (*rule.Assignment, error) {
			force, err := c.force()
			if err != nil {
				return nil, err
			}
			return vr.Assign(c.ctx(), c.projectID, c.path("ruleId"), in, force)
		})},
		{http.MethodDelete, "/v1/validation-rules/{ruleId}/assignments/{assignmentId}", appKey, noContent(func(c *call) error {
			return vr.Unassign(c.ctx(), c.projectID, c.path("ruleId"), c.path("assignmentId"))
		})},
	}
}
