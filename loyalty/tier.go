package loyalty

import (
	"maps"

	"github.com/shopspring/decimal"

	"github.com/promoengine/promo/promotype"
)

// PrefixTier is the id prefix of loyalty tiers.
const PrefixTier = "ltr_"

// Mapping types: a tier multiplies what a rule gives or a reward costs, or
// replaces it with a number of its own.
const (
	MappingMultiply = "MULTIPLY"
	MappingCustom   = "CUSTOM"
)

// Tier is a level of a loyalty program (object "loyalty_tier"): a member
// whose balance is within Points holds it, and earns and pays as its
// mappings say instead of what the rules and rewards say.
type Tier struct {
	ID           string             `json:"id"`
	Name         string             `json:"name"`
	CampaignID   string             `json:"campaign_id"`
	Points       TierPoints         `json:"points"`
	Config       TierConfig         `json:"config"`
	EarningRules map[string]Mapping `json:"earning_rules"`
	Rewards      map[string]Mapping `json:"rewards"`
	Metadata     promotype.Metadata `json:"metadata"`
	CreatedAt    promotype.Time     `json:"created_at"`
	UpdatedAt    *promotype.Time    `json:"updated_at"`
	// Expiration is the member's hold of the tier, in a member's tiers
	// only.
	Expiration *TierExpiration `json:"expiration,omitempty"`
	Object     string          `json:"object"`

	ProjectID string `json:"-"`
}

// TierPoints is a tier's range of balances, both ends included; To nil
// means no upper end.
type TierPoints struct {
	From *int64 `json:"from"`
	To   *int64 `json:"to"`
}

// TierConfig repeats the tier's range, as the hosted service answers it.
type TierConfig struct {
	Points TierPoints `json:"points"`
}

// Mapping is what a tier makes of a rule's points or a reward's cost:
// round(points × Multiplier) (MULTIPLY) or Points (CUSTOM).
type Mapping struct {
	Type       string             `json:"type"`
	Multiplier *promotype.Decimal `json:"multiplier,omitempty"`
	Points     *int64             `json:"points,omitempty"`
}

// TierExpiration is when a member holds a tier: from StartDate until
// ExpirationDate (null: as long as the balance stays in the range).
type TierExpiration struct {
	CustomerID     string          `json:"customer_id"`
	CampaignID     string          `json:"campaign_id"`
	TierID         string          `json:"tier_id"`
	StartDate      *string         `json:"start_date"`
	ExpirationDate *string         `json:"expiration_date"`
	CreatedAt      promotype.Time  `json:"created_at"`
	UpdatedAt      *promotype.Time `json:"updated_at"`
}

// apply is what mapping m makes of points.
func (m Mapping) apply(points int64) int64 {
	switch {
	case m.Type == MappingCustom && m.Points != nil:
		return *m.Points
	case m.Type == MappingMultiply && m.Multiplier != nil:
		return m.Multiplier.Mul(decimal.NewFromInt(points)).Round(0).IntPart()
	}
	return points
}

// holds reports whether balance is in the tier's range.
func (t *Tier) holds(balance int64) bool {
	return (t.Points.From == nil || balance >= *t.Points.From) && (t.Points.To == nil || balance <= *t.Points.To)
}

// Clone returns a deep copy.
func (t *Tier) Clone() *Tier {
	c := *t
	c.Points = t.Points.clone()
	c.Config = TierConfig{Points: t.Config.Points.clone()}
	c.EarningRules = maps.Clone(t.EarningRules)
	c.Rewards = maps.Clone(t.Rewards)
	c.Metadata = t.Metadata.Clone()
	c.UpdatedAt = promotype.ClonePtr(t.UpdatedAt)
	c.Expiration = promotype.ClonePtr(t.Expiration)
	return &c
}

func (p TierPoints) clone() TierPoints {
	return TierPoints{From: promotype.ClonePtr(p.From), To: promotype.ClonePtr(p.To)}
}

func (t *Tier) normalize() *Tier {
	t.Object = "loyalty_tier"
	t.Config = TierConfig{Points: t.Points.clone()}
	if t.EarningRules == nil {
		t.EarningRules = map[string]Mapping{}
	}
	if t.Rewards == nil {
		t.Rewards = map[string]Mapping{}
	}
	if t.Metadata == nil {
		t.Metadata = promotype.Metadata{}
	}
	return t
}
