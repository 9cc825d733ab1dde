package campaign

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// RewardType is the kind of a reward.
type RewardType string

// Reward types.
const (
	RewardCampaign RewardType = "CAMPAIGN"
	RewardCoin     RewardType = "COIN"
	RewardMaterial RewardType = "MATERIAL"
)

// Reward is something a customer can get for loyalty points (object "reward").
type Reward struct {
	ID         string             `json:"id"`
	Name       string             `json:"name"`
	Type       RewardType         `json:"type"`
	Stock      *int64             `json:"stock"`
	Redeemed   *int64             `json:"redeemed"`
	Metadata   promotype.Metadata `json:"metadata"`
	Attributes *RewardAttributes  `json:"attributes,omitempty"`
	Parameters RewardParameters   `json:"parameters"`
	CreatedAt  promotype.Time     `json:"created_at"`
	UpdatedAt  *promotype.Time    `json:"updated_at"`
	Object     string             `json:"object"`

	ProjectID string `json:"-"`
}

// RewardAttributes describe a material reward.
type RewardAttributes struct {
	ImageURL    *string `json:"image_url,omitempty" validate:"omitempty,imageurl"`
	Description *string `json:"description,omitempty" validate:"omitempty,max=1000"`
}

// RewardParameters holds exactly one of the three shapes, matching Type.
type RewardParameters struct {
	Campaign *RewardCampaignParams `json:"campaign,omitempty"`
	Coin     *RewardCoinParams     `json:"coin,omitempty"`
	Product  *RewardProductParams  `json:"product,omitempty"`
}

// RewardCampaignParams: points added to a loyalty card or an amount added to a gift card.
type RewardCampaignParams struct {
	ID      string `json:"id" validate:"required"`
	Type    string `json:"type" validate:"required,oneof=DISCOUNT_COUPONS GIFT_VOUCHERS LOYALTY_PROGRAM"`
	Balance *int64 `json:"balance,omitempty"`
}

// RewardCoinParams maps PointsRatio points to the cash amount ExchangeRatio.
type RewardCoinParams struct {
	ExchangeRatio promotype.Decimal `json:"exchange_ratio"`
	PointsRatio   *int64            `json:"points_ratio,omitempty" validate:"omitempty,gt=0"`
}

// RewardProductParams names the product (and optionally SKU) given as the reward.
type RewardProductParams struct {
	ID    string  `json:"id" validate:"required"`
	SKUID *string `json:"sku_id"`
}

// Clone returns a deep copy.
func (r *Reward) Clone() *Reward {
	c := *r
	c.Stock = promotype.ClonePtr(r.Stock)
	c.Redeemed = promotype.ClonePtr(r.Redeemed)
	c.UpdatedAt = promotype.ClonePtr(r.UpdatedAt)
	c.Metadata = r.Metadata.Clone()
	if r.Attributes != nil {
		a := RewardAttributes{ImageURL: promotype.ClonePtr(r.Attributes.ImageURL), Description: promotype.ClonePtr(r.Attributes.Description)}
		c.Attributes = &a
	}
	if p := r.Parameters.Campaign; p != nil {
		cp := *p
		cp.Balance = promotype.ClonePtr(p.Balance)
		c.Parameters.Campaign = &cp
	}
	if p := r.Parameters.Coin; p != nil {
		cp := *p
		cp.PointsRatio = promotype.ClonePtr(p.PointsRatio)
		c.Parameters.Coin = &cp
	}
	if p := r.Parameters.Product; p != nil {
		cp := *p
		cp.SKUID = promotype.ClonePtr(p.SKUID)
		c.Parameters.Product = &cp
	}
	return &c
}

func (r *Reward) normalize() *Reward {
	r.Object = "reward"
	if r.Metadata == nil {
		r.Metadata = promotype.Metadata{}
	}
	return r
}

// Store is the storage port of the campaign package, scoped by project:
// rewards, and campaigns and categories (CampaignStore).
type Store interface {
	CampaignStore
	InsertReward(ctx context.Context, r *Reward) error
	UpdateReward(ctx context.Context, r *Reward) error
	GetReward(ctx context.Context, projectID, id string) (*Reward, error)
	ListRewards(ctx context.Context, projectID string, q promotype.Query) ([]*Reward, int, error)
	DeleteReward(ctx context.Context, projectID, id string) error
}

// RewardListSpec is what GET /v1/rewards accepts.
var RewardListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":       promotype.FieldString,
		"type":       promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}
