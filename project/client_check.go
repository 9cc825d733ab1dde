package project

import (
	"context"
	"errors"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// ClientRequest is what a client-side request would do that the project's
// client settings gate.
type ClientRequest struct {
	Redeem bool // a redemption (client_redeem_enabled)
	// LoyaltyEvent: a custom event carrying loyalty or referral data
	// (client_loyalty_events_enabled).
	LoyaltyEvent bool
	// Customer is the customer the request upserts: one not stored yet
	// would be created (client_create_customer_enabled).
	Customer *customer.Params
}

// CheckClient refuses (ClientDisabled, 403) a client-side request of
// project id that its client settings disable. The Go API and the
// server-side API are not gated: the settings are the client-side API's.
func (s *Service) CheckClient(ctx context.Context, id string, r ClientRequest) error {
	p, err := s.store.GetProject(ctx, id)
	if err != nil {
		return err
	}
	cs := p.ClientSettings
	switch {
	case r.Redeem && !cs.RedeemEnabled:
		return ClientDisabled("client_redeem_enabled", "Client-side redemption")
	case r.LoyaltyEvent && !cs.LoyaltyEventsEnabled:
		return ClientDisabled("client_loyalty_events_enabled", "Client-side events for loyalty and referral programs")
	case r.Customer == nil || cs.CreateCustomerEnabled:
		return nil
	}
	creates, err := s.createsCustomer(ctx, id, r.Customer)
	if err != nil || !creates {
		return err
	}
	return ClientDisabled("client_create_customer_enabled", "Client-side creation of customers")
}

// createsCustomer reports whether upserting c would create a customer: it
// names none by id or source id, or a source id not stored (an unknown id
// is a 404 of the request itself).
func (s *Service) createsCustomer(ctx context.Context, projectID string, c *customer.Params) (bool, error) {
	switch {
	case c.ID != nil && *c.ID != "":
		return false, nil
	case c.SourceID == nil || *c.SourceID == "":
		return true, nil
	}
	_, err := customer.Resolve(ctx, s.store, projectID, *c.SourceID)
	if errors.Is(err, promotype.ErrNotFound) {
		return true, nil
	}
	return false, err
}
