package httpadapter

import (
	"net/http"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
)

// clientKeyPair is a client key pair as the management API shows it: its
// token only in the answer that creates it (only its hash is stored).
type clientKeyPair struct {
	Object    string         `json:"object"`
	AppID     string         `json:"app_id"`
	AppToken  string         `json:"app_token,omitempty"`
	Origins   []string       `json:"origins"`
	CreatedAt promotype.Time `json:"created_at"`
}

func newClientKey(k *auth.ClientKey, token string) *clientKeyPair {
	return &clientKeyPair{Object: "client_key", AppID: k.AppID, AppToken: token, Origins: k.Origins, CreatedAt: k.CreatedAt}
}

// clientKeyParams is the body that creates a client key pair: the origins
// it may be used from (scheme://host[:port], at least one). Its id and
// token are generated.
type clientKeyParams struct {
	Origins []string `json:"origins"`
}

// clientKeyRoutes manage a project's client key pairs (an extension of the
// management API: the hosted service makes them in its dashboard). They let
// a standalone server hand out, list and revoke the keys of /client/v1.
func (s *server) clientKeyRoutes() []route {
	keys := "/management/v1/projects/{projectId}/client-keys"
	return []route{
		{http.MethodPost, keys, managementKey, withBody(s.createClientKey)},
		{http.MethodGet, keys, managementKey, s.hostedList("client_keys", withoutBody(func(c *call) (*promotype.List[*clientKeyPair], error) {
			ks, err := s.engine.Auth().ListClientKeys(c.ctx(), c.projectID)
			if err != nil {
				return nil, err
			}
			out := make([]*clientKeyPair, len(ks))
			for i, k := range ks {
				out[i] = newClientKey(k, "")
			}
			return promotype.NewList(out, len(out), promotype.Query{}), nil
		}))},
		{http.MethodDelete, keys + "/{appId}", managementKey, noContent(func(c *call) error {
			return s.engine.Auth().DeleteClientKey(c.ctx(), c.projectID, c.path("appId"))
		})},
	}
}

// createClientKey makes a client key pair for the project and answers it
// with its token.
func (s *server) createClientKey(c *call, in clientKeyParams) (*clientKeyPair, error) {
	k, creds, err := s.engine.Auth().CreateClientKey(c.ctx(), c.projectID, auth.ClientKeyParams{Origins: in.Origins})
	if err != nil {
		return nil, err
	}
	return newClientKey(k, creds.Secret), nil
}
