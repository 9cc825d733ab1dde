package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/webhook"
)

// webhookSendoutRoutes are the delivery log of a webhook configuration (an
// extension of the management API): the sendouts made for it, newest
// first, with their tries. It takes the list parameters (limit, page,
// order=created_at|-created_at, filters on created_at and status).
func (s *server) webhookSendoutRoutes() []route {
	return []route{
		{http.MethodGet, "/management/v1/projects/{projectId}/webhooks/{webhookId}/sendouts", managementKey,
			withoutBody(func(c *call) (*promotype.List[*webhook.Sendout], error) {
				p, err := c.listParams()
				if err != nil {
					return nil, err
				}
				return s.engine.Webhooks().Sendouts(c.ctx(), c.projectID, c.path("webhookId"), p)
			})},
	}
}
