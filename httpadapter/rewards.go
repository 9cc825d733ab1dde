package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/reward"
)

// rewardRoutes are the rewards endpoints (scope rewards).
func (s *server) rewardRoutes() []route {
	rw := s.engine.Rewards()
	return []route{
		{http.MethodPost, "/v1/rewards", appKey, withBody(func(c *call, in reward.Params) (*reward.Reward, error) {
			return rw.Create(c.ctx(), c.projectID, in)
		})},
		{http.MethodGet, "/v1/rewards", appKey, withoutBody(func(c *call) (*promotype.List[*reward.Reward], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			q, err := parseQuery(c.r.URL.RawQuery)
			if err != nil {
				return nil, err
			}
			if id := stringParam(q, "assignment_id"); id != nil && *id != "" {
				return rw.ListForAssignment(c.ctx(), c.projectID, *id, p)
			}
			return rw.List(c.ctx(), c.projectID, p)
		})},
		{http.MethodGet, "/v1/rewards/{rewardId}", appKey, withoutBody(func(c *call) (*reward.Reward, error) {
			return rw.Get(c.ctx(), c.projectID, c.path("rewardId"))
		})},
		{http.MethodPut, "/v1/rewards/{rewardId}", appKey, withBody(func(c *call, in reward.Params) (*reward.Reward, error) {
			return rw.Update(c.ctx(), c.projectID, c.path("rewardId"), in)
		})},
		{http.MethodDelete, "/v1/rewards/{rewardId}", appKey, noContent(func(c *call) error {
			return rw.Delete(c.ctx(), c.projectID, c.path("rewardId"))
		})},
		{http.MethodPost, "/v1/rewards/{rewardId}/assignments", appKey, withBody(func(c *call, in reward.AssignmentParams) (*reward.Assignment, error) {
			return rw.CreateAssignment(c.ctx(), c.projectID, c.path("rewardId"), in)
		})},
		{http.MethodGet, "/v1/rewards/{rewardId}/assignments", appKey, withoutBody(func(c *call) (*promotype.List[*reward.Assignment], error) {
			p, err := c.listParams()
			if err != nil {
				return nil, err
			}
			return rw.ListAssignments(c.ctx(), c.projectID, c.path("rewardId"), p)
		})},
		{http.MethodGet, "/v1/rewards/{rewardId}/assignments/{assignmentId}", appKey, withoutBody(func(c *call) (*reward.Assignment, error) {
			return rw.GetAssignment(c.ctx(), c.projectID, c.path("rewardId"), c.path("assignmentId"))
		})},
		{http.MethodPut, "/v1/rewards/{rewardId}/assignments/{assignmentId}", appKey, withBody(func(c *call, in reward.AssignmentParams) (*reward.Assignment, error) {
			return rw.UpdateAssignment(c.ctx(), c.projectID, c.path("rewardId"), c.path("assignmentId"), in)
		})},
		{http.MethodDelete, "/v1/rewards/{rewardId}/assignments/{assignmentId}", appKey, noContent(func(c *call) error {
			return rw.DeleteAssignment(c.ctx(), c.projectID, c.path("rewardId"), c.path("assignmentId"))
		})},
	}
}
