package loyalty

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/voucher"
)

// MemberParams is the body of POST /v1/loyalties/{campaignId}/members: the
// customer who joins, and the card to give them (by code; without it the
// program's next free card, a new one in an AUTO_UPDATE program).
type MemberParams struct {
	Customer MemberCustomer     `json:"customer"`
	Voucher  *string            `json:"voucher"`
	SourceID *string            `json:"source_id"`
	Channel  *string            `json:"channel"`
	Metadata promotype.Metadata `json:"metadata"`
}

// MemberCustomer is the customer of a member add: a customer object, or
// as the hosted service's examples send it, a bare id ("cust_…") or
// source id.
type MemberCustomer struct {
	customer.Params
}

// UnmarshalJSON reads a customer object or a bare id or source id.
func (m *MemberCustomer) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		var ref string
		if err := json.Unmarshal(b, &ref); err != nil {
			return err
		}
		if strings.HasPrefix(ref, promotype.PrefixCustomer) {
			m.Params = customer.Params{ID: &ref}
		} else {
			m.Params = customer.Params{SourceID: &ref}
		}
		return nil
	}
	return json.Unmarshal(b, &m.Params)
}

// AddMember gives a customer a card of the program ref (POST
// /v1/loyalties/{campaignId}/members) and returns the card. A customer who
// holds a card of the program already gets that card again (join_once).
func (s *Service) AddMember(ctx context.Context, projectID, ref string, in MemberParams) (*voucher.Voucher, error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	p := publication.CreateParams{Customer: &in.Customer.Params, SourceID: in.SourceID, Channel: in.Channel,
		Metadata: in.Metadata, JoinOnce: true, Generate: true}
	if p.Customer.ID == nil && p.Customer.SourceID == nil && p.Customer.Email == nil && p.Customer.Name == nil {
		p.Customer = nil // refused as a missing customer
	}
	if in.Voucher != nil {
		card, err := s.card(ctx, projectID, c.ID, *in.Voucher)
		if err != nil {
			return nil, err
		}
		p.Voucher = &card.Code
	} else {
		p.Campaign = &publication.CampaignRef{ID: &c.ID}
	}
	pub, err := s.deps.Publications.Create(ctx, projectID, p)
	if err != nil {
		return nil, err
	}
	code := ""
	if len(pub.VoucherCodes) > 0 {
		code = pub.VoucherCodes[0]
	}
	return s.deps.Vouchers.Get(ctx, projectID, code)
}

// ListMembers lists the cards of the program ref (GET
// /v1/loyalties/{campaignId}/members), newest first unless p orders
// otherwise.
func (s *Service) ListMembers(ctx context.Context, projectID, ref string, p voucher.ListParams) (*promotype.List[*voucher.Voucher], error) {
	c, err := s.Program(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	p.CampaignID, p.Campaign = &c.ID, nil
	return s.deps.Vouchers.List(ctx, projectID, p)
}

// Member returns the card with code or id member. With a program ref
// (id or name; "" for any program) the card must be one of its cards.
func (s *Service) Member(ctx context.Context, projectID, ref, member string) (*voucher.Voucher, error) {
	card, err := s.memberCard(ctx, projectID, ref, member)
	if err != nil {
		return nil, err
	}
	return s.deps.Vouchers.Get(ctx, projectID, card.ID)
}

// memberCard resolves the card member (code or id) of the program ref
// ("" for any program), as stored: a card of another program is as
// missing as an unknown one.
func (s *Service) memberCard(ctx context.Context, projectID, ref, member string) (*voucher.Voucher, error) {
	campaignID, err := s.programID(ctx, projectID, ref)
	if err != nil {
		return nil, err
	}
	return s.card(ctx, projectID, campaignID, member)
}

// card resolves the loyalty card member (code or id) read through the
// service's store; with campaignID, a card of another campaign is as
// missing as an unknown one.
func (s *Service) card(ctx context.Context, projectID, campaignID, member string) (*voucher.Voucher, error) {
	return cardIn(ctx, s.deps.Vouchers, s.store, projectID, campaignID, member)
}

// cardIn is card read through st (the caller's transaction).
func cardIn(ctx context.Context, vouchers *voucher.Service, st voucher.Store, projectID, campaignID, member string) (*voucher.Voucher, error) {
	v, err := vouchers.Resolve(ctx, st, projectID, member)
	if err != nil {
		return nil, err
	}
	if v.Type != campaign.LoyaltyCard || (campaignID != "" && deref(v.CampaignID) != campaignID) {
		return nil, promotype.NotFound("voucher", member)
	}
	return v, nil
}
