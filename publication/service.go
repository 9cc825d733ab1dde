package publication

import (
	"context"
	"errors"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// ServiceStore is the port the publication service consumes: publications
// and wallets, the vouchers and campaigns it publishes and the customers it
// publishes to.
type ServiceStore interface {
	Store
	voucher.ServiceStore
	customer.Store
}

// Service is the publication use cases.
type Service struct {
	store     ServiceStore
	tx        promotype.TxFunc[ServiceStore]
	env       promotype.Env
	campaigns *campaign.Service
	vouchers  *voucher.Service
}

// NewService returns a publication service reading through store and
// writing in transactions opened by tx; campaigns and vouchers resolve and
// present what it publishes.
func NewService(store ServiceStore, tx promotype.TxFunc[ServiceStore], env promotype.Env, campaigns *campaign.Service, vouchers *voucher.Service) *Service {
	return &Service{store: store, tx: tx, env: env, campaigns: campaigns, vouchers: vouchers}
}

// Create publishes vouchers to a customer (POST /v1/publications): the
// voucher in.Voucher names, or the next free vouchers of the campaign
// in.Campaign names. The customer is upserted as an order's customer is.
// A source id already used by a publication to the same customer answers
// that publication again (400 duplicate_source_id for another customer).
func (s *Service) Create(ctx context.Context, projectID string, in CreateParams) (*Publication, error) {
	n, err := in.check()
	if err != nil {
		return nil, err
	}
	if in.Customer.Metadata != nil {
		if err := s.env.CheckMeta(ctx, projectID, "customer", in.Customer.Metadata); err != nil {
			return nil, err
		}
	}
	if in.Metadata != nil {
		if err := s.env.CheckMeta(ctx, projectID, "publication", in.Metadata); err != nil {
			return nil, err
		}
	}
	var out *Publication
	err = promotype.RetryUpsert(ctx, func() error {
		return s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
			var err error
			out, err = s.create(ctx, st, projectID, in, n)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Publish is Create in st's transaction: the caller's own, which
// publishes a voucher as part of a larger change (a loyalty program
// giving a customer a card as it credits it). in is checked as Create
// checks it, metadata schemas aside.
func (s *Service) Publish(ctx context.Context, st ServiceStore, projectID string, in CreateParams) (*Publication, error) {
	n, err := in.check()
	if err != nil {
		return nil, err
	}
	return s.create(ctx, st, projectID, in, n)
}

// create is Create in st's transaction.
func (s *Service) create(ctx context.Context, st ServiceStore, projectID string, in CreateParams, n int) (*Publication, error) {
	now := s.env.Clock.Now()
	cust, err := customer.Upsert(ctx, st, s.env, projectID, *in.Customer)
	if err != nil {
		return nil, err
	}
	if in.SourceID != nil {
		p, err := st.FindPublicationBySourceID(ctx, projectID, *in.SourceID)
		switch {
		case err == nil:
			if p.CustomerID != cust.ID {
				return nil, promotype.BadRequest("duplicate_source_id", "Duplicate source_id",
					"Publication with source_id: '%s' already exists", *in.SourceID)
			}
			return s.presentCreated(ctx, st, p)
		case !errors.Is(err, promotype.ErrNotFound):
			return nil, err
		}
	}
	c, vs, joined, err := s.pick(ctx, st, projectID, in, n, cust.ID, now)
	if joined != nil || err != nil {
		return joined, err
	}
	p := &Publication{
		ID: s.env.IDs.NewID(PrefixPublication), ProjectID: projectID, CreatedAt: now,
		CustomerID: cust.ID, TrackingID: promotype.ClonePtr(cust.SourceID),
		Metadata: in.Metadata.Clone(), Channel: DefaultChannel, SourceID: promotype.ClonePtr(in.SourceID),
		Result: ResultSuccess, VoucherType: vs[0].Type, IsReferralCode: vs[0].IsReferralCode,
	}
	if p.Metadata == nil {
		p.Metadata = promotype.Metadata{}
	}
	if in.Channel != nil {
		p.Channel = *in.Channel
	}
	if c != nil {
		p.CampaignID = promotype.Ptr(c.ID)
	}
	for _, v := range vs {
		p.VouchersID = append(p.VouchersID, v.ID)
		p.VoucherCodes = append(p.VoucherCodes, v.Code)
	}
	if err := st.InsertPublication(ctx, p); err != nil {
		return nil, err
	}
	for _, v := range vs {
		h := &Holder{
			ID: s.env.IDs.NewID(PrefixHolder), ProjectID: projectID, CreatedAt: now,
			RedeemableID: v.ID, RedeemableObject: "voucher", CustomerID: cust.ID, HolderRole: RoleOwner,
			CampaignID: promotype.ClonePtr(v.CampaignID), VoucherType: v.Type,
		}
		if c != nil {
			h.CampaignType = promotype.Ptr(c.CampaignType)
		}
		if err := st.InsertHolder(ctx, h); err != nil {
			return nil, err
		}
	}
	// Present what this transaction holds already: the customer and vouchers.
	p.Object, p.Customer = "publication", shortCustomer(cust)
	if len(vs) == 1 {
		if p.Voucher, err = s.vouchers.Present(ctx, st, vs[0].Clone()); err != nil {
			return nil, err
		}
	} else {
		p.Vouchers = append([]string{}, p.VoucherCodes...)
	}
	return p, s.emit(ctx, st, p, c, vs)
}

// pick gives customerID the vouchers in names, in st's transaction: the
// named voucher, or the next n free vouchers of the named campaign. It
// returns the campaign (nil for a voucher without one) and the vouchers as
// updated, or the publication join_once answers again instead.
func (s *Service) pick(ctx context.Context, st ServiceStore, projectID string, in CreateParams, n int, customerID string, now promotype.Time,
) (c *campaign.Campaign, vs []*voucher.Voucher, joined *Publication, err error) {
	if in.Voucher != nil {
		v, err := s.vouchers.Resolve(ctx, st, projectID, *in.Voucher)
		if err != nil {
			return nil, nil, nil, err
		}
		if v.CampaignID != nil {
			if c, err = st.GetCampaign(ctx, projectID, *v.CampaignID); err != nil && !errors.Is(err, promotype.ErrNotFound) {
				return nil, nil, nil, err
			}
		}
		if p, err := s.joined(ctx, st, in, c, customerID); p != nil || err != nil {
			return nil, nil, p, err
		}
		pv, held, err := st.PublishVoucher(ctx, projectID, v.ID, customerID, now)
		if err != nil {
			return nil, nil, nil, err
		}
		if held {
			return nil, nil, nil, promotype.BadRequest("voucher_already_published", "Voucher already published",
				"Voucher '%s' has already been published", v.Code)
		}
		return c, []*voucher.Voucher{pv}, nil, nil
	}
	if c, err = s.campaigns.Resolve(ctx, st, projectID, in.Campaign.ref()); err != nil {
		return nil, nil, nil, err
	}
	if p, err := s.joined(ctx, st, in, c, customerID); p != nil || err != nil {
		return nil, nil, p, err
	}
	if vs, err = st.ClaimCampaignVouchers(ctx, projectID, c.ID, customerID, n, now); err != nil {
		return nil, nil, nil, err
	}
	for len(vs) < n && c.Type == campaign.AutoUpdate && c.Active {
		// An AUTO_UPDATE campaign makes the vouchers it lacks, as the
		// hosted service does.
		v, err := s.vouchers.AddGenerated(ctx, st, c)
		if err != nil {
			return nil, nil, nil, err
		}
		pv, _, err := st.PublishVoucher(ctx, projectID, v.ID, customerID, now)
		if err != nil {
			return nil, nil, nil, err
		}
		vs = append(vs, pv)
	}
	if len(vs) < n {
		// The transaction rolls back: the vouchers claimed stay free.
		return nil, nil, nil, promotype.BadRequest("no_voucher_suitable_for_publication", "No voucher suitable for publication",
			"Campaign %s has no voucher left to publish (%d asked, %d free)", c.Name, n, len(vs))
	}
	return c, vs, nil, nil
}

// joined is the publication join_once answers again: the customer's latest
// publication of campaign c, when in asks for join_once and there is one;
// nil otherwise.
func (s *Service) joined(ctx context.Context, st ServiceStore, in CreateParams, c *campaign.Campaign, customerID string) (*Publication, error) {
	if !in.JoinOnce || c == nil {
		return nil, nil
	}
	if err := st.LockCustomerPublications(ctx, c.ProjectID, customerID); err != nil {
		return nil, err
	}
	p, err := st.FindCampaignPublication(ctx, c.ProjectID, customerID, c.ID)
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return s.presentCreated(ctx, st, p)
}
