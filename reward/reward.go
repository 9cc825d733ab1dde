package reward

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Type is the kind of a reward.
type Type string

// Reward types.
const (
	TypeCampaign Type = "CAMPAIGN"
	TypeCoin     Type = "COIN"
	TypeMaterial Type = "MATERIAL"
)

// Reward is something a customer can get for loyalty points (object "reward").
type Reward struct {
	ID         string             `json:"id"`
	Name       string             `json:"name"`
	Type       Type               `json:"type"`
	Stock      *int64             `json:"stock"`
	Redeemed   *int64             `json:"redeemed"`
	Metadata   promotype.Metadata `json:"metadata"`
	Attributes *Attributes        `json:"attributes,omitempty"`
	Parameters Parameters         `json:"parameters"`
	CreatedAt  promotype.Time     `json:"created_at"`
	UpdatedAt  *promotype.Time    `json:"updated_at"`
	Object     string             `json:"object"`

	ProjectID string `json:"-"`
}

// Attributes describe a material reward.
type Attributes struct {
	ImageURL    *string `json:"image_url,omitempty" validate:"omitempty,imageurl"`
	Description *string `json:"description,omitempty" validate:"omitempty,max=1000"`
}

// Parameters holds exactly one of the three shapes, matching Type.
type Parameters struct {
	Campaign *CampaignParams `json:"campaign,omitempty"`
	Coin     *CoinParams     `json:"coin,omitempty"`
	Product  *ProductParams  `json:"product,omitempty"`
}

// CampaignParams: points added to a loyalty card or an amount added to a gift card.
type CampaignParams struct {
	ID      string `json:"id" validate:"required"`
	Type    string `json:"type" validate:"required,oneof=DISCOUNT_COUPONS GIFT_VOUCHERS LOYALTY_PROGRAM"`
	Balance *int64 `json:"balance,omitempty"`
}

// CoinParams maps PointsRatio points to the cash amount ExchangeRatio.
type CoinParams struct {
	ExchangeRatio promotype.Decimal `json:"exchange_ratio"`
	PointsRatio   *int64            `json:"points_ratio,omitempty" validate:"omitempty,gt=0"`
}

// ProductParams names the product (and optionally SKU) given as the reward.
type ProductParams struct {
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
		a := Attributes{ImageURL: promotype.ClonePtr(r.Attributes.ImageURL), Description: promotype.ClonePtr(r.Attributes.Description)}
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

// rowStore is the reward rows of Store, scoped by project.
type rowStore interface {
	InsertReward(ctx context.Context, r *Reward) error
	UpdateReward(ctx context.Context, r *Reward) error
	GetReward(ctx context.Context, projectID, id string) (*Reward, error)
	ListRewards(ctx context.Context, projectID string, q promotype.Query) ([]*Reward, int, error)
	DeleteReward(ctx context.Context, projectID, id string) error
}

// ListSpec is what GET /v1/rewards accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":       promotype.FieldString,
		"type":       promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}
