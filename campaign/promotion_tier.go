package campaign

import (
	"context"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// PrefixPromotionTier is the id prefix of promotion tiers.
const PrefixPromotionTier = "promo_"

// PromotionTier is a tier of a PROMOTION campaign (object
// "promotion_tier"): a discount with its own activity, validity and
// validation rules. Campaign, PromotionID, Summary, the assignments list and
// Categories are filled on read.
type PromotionTier struct {
	ID          string             `json:"id"`
	CreatedAt   promotype.Time     `json:"created_at"`
	UpdatedAt   *promotype.Time    `json:"updated_at"`
	Name        string             `json:"name"`
	Banner      *string            `json:"banner"`
	Action      TierAction         `json:"action"`
	Metadata    promotype.Metadata `json:"metadata"`
	Hierarchy   int                `json:"hierarchy"`
	PromotionID string             `json:"promotion_id"`
	Campaign    *TierCampaign      `json:"campaign"`
	CampaignID  string             `json:"campaign_id"`
	Active      bool               `json:"active"`
	Validity
	Summary                   TierSummary                       `json:"summary"`
	Object                    string                            `json:"object"`
	ValidationRuleAssignments *promotype.List[*rule.Assignment] `json:"validation_rule_assignments"`
	CategoryID                *string                           `json:"category_id"`
	Categories                []*Category                       `json:"categories"`

	ProjectID string `json:"-"`
}

// TierAction is what a tier does: its discount.
type TierAction struct {
	Discount *Discount `json:"discount,omitempty"` // omitted when unset, as the hosted service
}

// TierCampaign is the part of its campaign a tier shows.
type TierCampaign struct {
	ID string `json:"id"`
	Validity
	Active     bool    `json:"active"`
	CategoryID *string `json:"category_id"`
	Object     string  `json:"object"`
}

// TierSummary counts a tier's redemptions and orders (zeros until
// redemptions land).
type TierSummary struct {
	Redemptions struct {
		TotalRedeemed int64 `json:"total_redeemed"`
	} `json:"redemptions"`
	Orders struct {
		TotalAmount         int64 `json:"total_amount"`
		TotalDiscountAmount int64 `json:"total_discount_amount"`
	} `json:"orders"`
}

// TierStore is the storage port of promotion tiers, scoped by project. Get
// returns promotype.NotFound for a missing tier; values are the caller's own.
type TierStore interface {
	InsertPromotionTier(ctx context.Context, t *PromotionTier) error
	// UpdatePromotionTier replaces every stored field of tier t.ID.
	UpdatePromotionTier(ctx context.Context, t *PromotionTier) error
	GetPromotionTier(ctx context.Context, projectID, id string) (*PromotionTier, error)
	ListPromotionTiers(ctx context.Context, projectID string, q promotype.Query) ([]*PromotionTier, int, error)
	DeletePromotionTier(ctx context.Context, projectID, id string) error
}

// TierListSpec is what the tier lists accept (campaign_id and active are
// set by the service).
var TierListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "created_at",
	Fields: map[string]promotype.FieldKind{
		"campaign_id":     promotype.FieldString,
		"active":          promotype.FieldString,
		"created_at":      promotype.FieldTime,
		"updated_at":      promotype.FieldTime,
		"expiration_date": promotype.FieldTime,
	},
}

// Field returns the value of a filterable field of t.
func (t *PromotionTier) Field(name string) promotype.Value {
	switch name {
	case "campaign_id":
		return promotype.Value{Str: t.CampaignID}
	case "active":
		return promotype.Value{Str: boolString(t.Active)}
	case "created_at":
		return promotype.Value{Time: t.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(t.UpdatedAt)
	case "expiration_date":
		return promotype.TimeValue(t.ExpirationDate)
	}
	return promotype.Value{Null: true}
}

// Clone returns a deep copy of the stored fields (derived ones are dropped).
func (t *PromotionTier) Clone() *PromotionTier {
	out := *t
	out.UpdatedAt = promotype.ClonePtr(t.UpdatedAt)
	out.Banner = promotype.ClonePtr(t.Banner)
	out.Action.Discount = t.Action.Discount.Clone()
	out.Metadata = t.Metadata.Clone()
	out.Validity = t.Validity.Clone()
	out.CategoryID = promotype.ClonePtr(t.CategoryID)
	out.PromotionID, out.Campaign, out.Object, out.ValidationRuleAssignments, out.Categories = "", nil, "", nil, nil
	out.Summary = TierSummary{}
	return &out
}

func (t *PromotionTier) normalize() *PromotionTier {
	t.Object = "promotion_tier"
	t.PromotionID = t.CampaignID
	if t.Metadata == nil {
		t.Metadata = promotype.Metadata{}
	}
	if t.Categories == nil {
		t.Categories = []*Category{}
	}
	if t.ValidationRuleAssignments == nil {
		t.ValidationRuleAssignments = EmptyAssignments()
	}
	return t
}
