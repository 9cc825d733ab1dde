package reward

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/internal/validate"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// Params is the body of a reward create or update. On create, name and
// parameters are required; Type, when given, must match the parameters' shape.
type Params struct {
	Name       *string            `json:"name" validate:"omitempty,min=1,max=300"`
	Type       *Type              `json:"type" validate:"omitempty,oneof=CAMPAIGN COIN MATERIAL"`
	Parameters *Parameters        `json:"parameters"`
	Stock      *int64             `json:"stock" validate:"omitempty,gte=0"`
	Attributes *Attributes        `json:"attributes"`
	Metadata   promotype.Metadata `json:"metadata"`
}

// CatalogReader is what rewards read of the catalog: the product (and SKU) a
// material reward gives must exist.
type CatalogReader interface {
	GetProduct(ctx context.Context, projectID, id string) (*catalog.Product, error)
	FindProductBySourceID(ctx context.Context, projectID, sourceID string) (*catalog.Product, error)
	GetSKU(ctx context.Context, projectID, id string) (*catalog.SKU, error)
	FindSKUBySourceID(ctx context.Context, projectID, sourceID string) (*catalog.SKU, error)
}

// Store is the storage port of rewards: their rows, the catalog a material
// reward names and the campaigns a CAMPAIGN reward names.
type Store interface {
	rowStore
	AssignmentStore
	CatalogReader
	campaign.CampaignStore
}

// Service is the reward use cases.
type Service struct {
	store Store
	tx    promotype.TxFunc[Store]
	env   promotype.Env
}

// NewService returns a reward service.
func NewService(store Store, tx promotype.TxFunc[Store], env promotype.Env) *Service {
	return &Service{store: store, tx: tx, env: env}
}

// Create validates and stores a reward.
func (s *Service) Create(ctx context.Context, projectID string, in Params) (*Reward, error) {
	if in.Name == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'name'")
	}
	if in.Parameters == nil {
		return nil, promotype.InvalidPayload("Payload must have required property 'parameters'")
	}
	if err := s.env.CheckMeta(ctx, projectID, "reward", in.Metadata); err != nil {
		return nil, err
	}
	r := &Reward{
		ID:        s.env.IDs.NewID(promotype.PrefixReward),
		ProjectID: projectID,
		CreatedAt: s.env.Clock.Now(),
		Redeemed:  promotype.Ptr[int64](0),
	}
	var out *Reward
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		if err := s.apply(ctx, st, projectID, r, in, true); err != nil {
			return err
		}
		out = r
		return st.InsertReward(ctx, r)
	})
	if err != nil {
		return nil, err
	}
	return out.Clone().normalize(), nil
}

// Get returns a reward by id.
func (s *Service) Get(ctx context.Context, projectID, id string) (*Reward, error) {
	r, err := s.store.GetReward(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	return r.normalize(), nil
}

// List lists rewards.
func (s *Service) List(ctx context.Context, projectID string, params promotype.ListParams) (*promotype.List[*Reward], error) {
	return promotype.ListWith(ctx, s.store.ListRewards, projectID, params, ListSpec, s.env.Clock.Now(), (*Reward).normalize)
}

// Update changes the fields given. The reward's type cannot change.
func (s *Service) Update(ctx context.Context, projectID, id string, in Params) (*Reward, error) {
	if in.Metadata != nil {
		if err := s.env.CheckMeta(ctx, projectID, "reward", in.Metadata); err != nil {
			return nil, err
		}
	}
	var out *Reward
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		r, err := st.GetReward(ctx, projectID, id)
		if err != nil {
			return err
		}
		if err := s.apply(ctx, st, projectID, r, in, false); err != nil {
			return err
		}
		r.UpdatedAt = s.env.Clock.Now().Ptr()
		out = r
		return st.UpdateReward(ctx, r)
	})
	if err != nil {
		return nil, err
	}
	return out.normalize(), nil
}

// Delete removes a reward; an assigned reward is 400 resource_in_use
// (unassign it first).
func (s *Service) Delete(ctx context.Context, projectID, id string) error {
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		if _, err := st.GetReward(ctx, projectID, id); err != nil {
			return err
		}
		_, n, err := st.ListRewardAssignments(ctx, projectID, promotype.Query{Limit: 1, OrderBy: "created_at",
			Must: []promotype.Condition{{Field: "reward_id", Op: promotype.OpIs, Values: []string{id}}}})
		if err != nil {
			return err
		}
		if n > 0 {
			return promotype.BadRequest("resource_in_use", "Resource in use", "Resource reward with id %s is in use and cannot be deleted", id)
		}
		return st.DeleteReward(ctx, projectID, id)
	})
}

// apply checks `in` and copies it onto r.
func (s *Service) apply(ctx context.Context, st Store, projectID string, r *Reward, in Params, create bool) error {
	if err := validate.Struct(in); err != nil {
		return err
	}
	if in.Parameters != nil {
		params := in.Parameters.clone() // checks resolve ids in place: never in the caller's value
		t, err := params.typeOf()
		if err != nil {
			return err
		}
		if !create && t != r.Type {
			return promotype.InvalidPayload("Property .parameters must keep the reward type %s", r.Type)
		}
		if in.Type != nil && *in.Type != t {
			return promotype.InvalidPayload("Property .type must match the parameters given (%s)", t)
		}
		if err := s.checkParameters(ctx, st, projectID, &params); err != nil {
			return err
		}
		r.Type = t
		r.Parameters = params
	} else if in.Type != nil && *in.Type != r.Type {
		return promotype.InvalidPayload("Property .type must match the parameters given (%s)", r.Type)
	}
	if in.Name != nil {
		r.Name = *in.Name
	}
	if in.Stock != nil {
		if r.Type != TypeMaterial {
			return promotype.InvalidPayload("Property .stock is allowed only for MATERIAL rewards")
		}
		r.Stock = promotype.ClonePtr(in.Stock)
	}
	if in.Attributes != nil {
		if r.Type != TypeMaterial {
			return promotype.InvalidPayload("Property .attributes is allowed only for MATERIAL rewards")
		}
		r.Attributes = &Attributes{ImageURL: promotype.ClonePtr(in.Attributes.ImageURL), Description: promotype.ClonePtr(in.Attributes.Description)}
	}
	if in.Metadata != nil {
		r.Metadata = in.Metadata.Clone()
	}
	return nil
}

// typeOf returns the reward type that the one shape given stands for.
func (p *Parameters) typeOf() (Type, error) {
	n, t := 0, Type("")
	if p.Campaign != nil {
		n, t = n+1, TypeCampaign
	}
	if p.Coin != nil {
		n, t = n+1, TypeCoin
	}
	if p.Product != nil {
		n, t = n+1, TypeMaterial
	}
	if n != 1 {
		return "", promotype.InvalidPayload("Property .parameters must have exactly one of the properties 'campaign', 'coin', 'product'")
	}
	return t, nil
}

func (p *Parameters) clone() Parameters {
	return (&Reward{Parameters: *p}).Clone().Parameters
}

func (s *Service) checkParameters(ctx context.Context, st Store, projectID string, p *Parameters) error {
	switch {
	case p.Campaign != nil:
		c := p.Campaign
		if c.Type == "" {
			camp, err := promotype.Resolve(ctx, "campaign", c.ID, projectID, st.GetCampaign, st.FindCampaignByName)
			if err != nil {
				return err
			}
			switch camp.CampaignType {
			case campaign.DiscountCoupons, campaign.GiftVouchers, campaign.LoyaltyProgram:
				c.ID, c.Type = camp.ID, string(camp.CampaignType)
			default:
				return promotype.InvalidPayload("Property .parameters.campaign.id names a %s campaign: a CAMPAIGN reward takes a DISCOUNT_COUPONS, GIFT_VOUCHERS or LOYALTY_PROGRAM campaign", camp.CampaignType)
			}
		}
		switch c.Type {
		case "DISCOUNT_COUPONS":
			if c.Balance != nil {
				return promotype.InvalidPayload("Property .parameters.campaign.balance is not allowed for campaign type: DISCOUNT_COUPONS")
			}
		case "GIFT_VOUCHERS", "LOYALTY_PROGRAM":
			if c.Balance == nil || *c.Balance <= 0 {
				return promotype.BadRequest("invalid_balance", "Invalid balance", "Property 'parameters.campaign.balance' must be greater than zero for campaign type: %s", c.Type)
			}
		}
	case p.Coin != nil:
		if !p.Coin.ExchangeRatio.IsPositive() {
			return promotype.InvalidPayload("Property .parameters.coin.exchange_ratio must be > 0")
		}
		// A cash amount: no more than any order amount can be.
		if p.Coin.ExchangeRatio.GreaterThan(decimal.NewFromInt(order.MaxAmount)) {
			return promotype.InvalidPayload("Property .parameters.coin.exchange_ratio must be <= %d", order.MaxAmount)
		}
		if p.Coin.PointsRatio != nil && *p.Coin.PointsRatio > order.MaxAmount {
			return promotype.InvalidPayload("Property .parameters.coin.points_ratio must be <= %d", order.MaxAmount)
		}
		if p.Coin.PointsRatio == nil {
			p.Coin.PointsRatio = promotype.Ptr[int64](1)
		}
	case p.Product != nil:
		prod, err := promotype.Resolve(ctx, "product", p.Product.ID, projectID, st.GetProduct, st.FindProductBySourceID)
		if err != nil {
			return err
		}
		p.Product.ID = prod.ID
		if p.Product.SKUID != nil {
			sku, err := promotype.Resolve(ctx, "sku", *p.Product.SKUID, projectID, st.GetSKU, st.FindSKUBySourceID)
			if err != nil {
				return err
			}
			if sku.ProductID != prod.ID {
				return promotype.InvalidPayload("Property .parameters.product.sku_id names a SKU of another product (%s)", sku.ProductID)
			}
			p.Product.SKUID = &sku.ID
		}
	}
	return nil
}
