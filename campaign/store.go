package campaign

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// CampaignStore is the storage port of campaigns and categories, scoped by
// project. Get and Find return promotype.NotFound for a missing campaign and
// for one in the bin; Insert returns duplicate_found when a live campaign of
// the project holds the name already (categories: any category). Returned
// values are the caller's own.
type CampaignStore interface {
	InsertCampaign(ctx context.Context, c *Campaign) error
	// UpdateCampaign replaces every field of the live campaign c.ID but
	// VouchersCount, which changes only through AddCampaignVouchers.
	UpdateCampaign(ctx context.Context, c *Campaign) error
	GetCampaign(ctx context.Context, projectID, id string) (*Campaign, error)
	FindCampaignByName(ctx context.Context, projectID, name string) (*Campaign, error)
	ListCampaigns(ctx context.Context, projectID string, q promotype.Query) ([]*Campaign, int, error)
	// SetCampaignStatus sets creation_status and vouchers_generation_status
	// of the campaign (live or in the bin) to status, if revision is
	// negative or equals the campaign's Revision; it reports whether it did.
	SetCampaignStatus(ctx context.Context, projectID, id string, status Status, revision int) (bool, error)
	// AddCampaignVouchers adds delta (which may be negative) to the
	// vouchers_count of the campaign, live or in the bin.
	AddCampaignVouchers(ctx context.Context, projectID, id string, delta int64) error
	// BinCampaign moves a live campaign to the bin: it answers not found
	// and its name is free again. Its vouchers are not touched.
	BinCampaign(ctx context.Context, projectID, id string, at promotype.Time) error
	// DeleteCampaign removes a campaign (live or in the bin) for good. Its
	// vouchers are not touched.
	DeleteCampaign(ctx context.Context, projectID, id string) error

	InsertCategory(ctx context.Context, c *Category) error
	GetCategory(ctx context.Context, projectID, id string) (*Category, error)
	FindCategoryByName(ctx context.Context, projectID, name string) (*Category, error)
	ListCategories(ctx context.Context, projectID string, q promotype.Query) ([]*Category, int, error)
	// UpdateCategory replaces the name, hierarchy and updated_at of the
	// category c.ID; duplicate_found when another category holds the name.
	UpdateCategory(ctx context.Context, c *Category) error
	// DeleteCategory removes a category for good.
	DeleteCategory(ctx context.Context, projectID, id string) error
	// CategoryInUse reports whether a live campaign, voucher, promotion
	// tier or promotion stack of the project names the category.
	CategoryInUse(ctx context.Context, projectID, id string) (bool, error)
}

// ListSpec is what GET /v1/campaigns accepts. Boolean fields (active,
// is_referral_code) filter as the strings "true" and "false".
var ListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":                       promotype.FieldString,
		"campaign_type":              promotype.FieldString,
		"type":                       promotype.FieldString,
		"category_id":                promotype.FieldString,
		"creation_status":            promotype.FieldString,
		"vouchers_generation_status": promotype.FieldString,
		"voucher_type":               promotype.FieldString,
		"active":                     promotype.FieldString,
		"is_referral_code":           promotype.FieldString,
		"created_at":                 promotype.FieldTime,
		"updated_at":                 promotype.FieldTime,
		"start_date":                 promotype.FieldTime,
		"expiration_date":            promotype.FieldTime,
	},
}

// CategoryListSpec is what GET /v1/categories accepts.
var CategoryListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at", "name"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"name":       promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

// Field returns the value of a filterable field of c, as lists see it
// (stores filtering in memory use it).
func (c *Campaign) Field(name string) promotype.Value {
	str := func(s string) promotype.Value { return promotype.Value{Str: s} }
	switch name {
	case "name":
		return str(c.Name)
	case "campaign_type":
		return str(string(c.CampaignType))
	case "type":
		return str(string(c.Type))
	case "category_id":
		return promotype.StringValue(c.CategoryID)
	case "creation_status":
		return str(string(c.CreationStatus))
	case "vouchers_generation_status":
		return str(string(c.VouchersGenerationStatus))
	case "voucher_type":
		if c.Voucher == nil {
			return promotype.Value{Null: true}
		}
		return str(string(c.Voucher.Type))
	case "active":
		return str(boolString(c.Active))
	case "is_referral_code":
		return str(boolString(c.Voucher != nil && c.Voucher.IsReferralCode))
	case "created_at":
		return promotype.Value{Time: c.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(c.UpdatedAt)
	case "start_date":
		return promotype.TimeValue(c.StartDate)
	case "expiration_date":
		return promotype.TimeValue(c.ExpirationDate)
	}
	return promotype.Value{Null: true}
}

// Field returns the value of a filterable field of a category.
func (c *Category) Field(name string) promotype.Value {
	switch name {
	case "name":
		return promotype.Value{Str: c.Name}
	case "created_at":
		return promotype.Value{Time: c.CreatedAt}
	case "updated_at":
		if c.UpdatedAt == nil {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Time: *c.UpdatedAt}
	}
	return promotype.Value{Null: true}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
