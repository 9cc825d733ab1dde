package publication

import (
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Holder roles of a wallet row.
const RoleOwner = "OWNER"

// Holder is one row of a customer's wallet (GET
// /v1/customers/{customerId}/redeemables): a voucher the customer holds,
// written when a publication gives it to the customer.
type Holder struct {
	ID               string                 `json:"id"`
	CreatedAt        promotype.Time         `json:"created_at"`
	RedeemableID     string                 `json:"redeemable_id"`
	RedeemableObject string                 `json:"redeemable_object"`
	CustomerID       string                 `json:"customer_id"`
	HolderRole       string                 `json:"holder_role"`
	CampaignID       *string                `json:"campaign_id"`
	CampaignType     *campaign.CampaignType `json:"campaign_type"`
	VoucherType      campaign.VoucherType   `json:"voucher_type"`
	// Redeemable is the voucher as it is now, filled on read.
	Redeemable *Held `json:"redeemable"`

	ProjectID string `json:"-"`
}

// Held is the redeemable of a wallet row and its status at read time.
type Held struct {
	Type    string           `json:"type"`
	Voucher *voucher.Voucher `json:"voucher"`
	Status  string           `json:"status"`
}

// Statuses of a held voucher.
const (
	StatusActive       = "ACTIVE"
	StatusUsed         = "USED"
	StatusDisabled     = "DISABLED"
	StatusNotActiveYet = "NOT_ACTIVE_YET"
	StatusExpired      = "EXPIRED"
	StatusNoBalance    = "NO_BALANCE"
)

// Clone returns a deep copy of the stored fields.
func (h *Holder) Clone() *Holder {
	c := *h
	c.CampaignID = promotype.ClonePtr(h.CampaignID)
	c.CampaignType = promotype.ClonePtr(h.CampaignType)
	c.Redeemable = nil
	return &c
}

// WalletSpec is what the wallet list accepts.
var WalletSpec = promotype.ListSpec{
	Orders:       []string{"id"},
	DefaultOrder: "id",
	Fields: map[string]promotype.FieldKind{
		"id":                promotype.FieldString,
		"created_at":        promotype.FieldTime,
		"redeemable_id":     promotype.FieldString,
		"redeemable_object": promotype.FieldString,
		"holder_role":       promotype.FieldString,
		"campaign_id":       promotype.FieldString,
		"campaign_type":     promotype.FieldString,
		"voucher_type":      promotype.FieldString,
		"customer_id":       promotype.FieldString,
	},
}

// Field returns the value of a filterable field of h, as lists see it.
func (h *Holder) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: h.ID}
	case "created_at":
		return promotype.Value{Time: h.CreatedAt}
	case "redeemable_id":
		return promotype.Value{Str: h.RedeemableID}
	case "redeemable_object":
		return promotype.Value{Str: h.RedeemableObject}
	case "holder_role":
		return promotype.Value{Str: h.HolderRole}
	case "campaign_id":
		return promotype.StringValue(h.CampaignID)
	case "campaign_type":
		if h.CampaignType == nil {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Str: string(*h.CampaignType)}
	case "voucher_type":
		return promotype.Value{Str: string(h.VoucherType)}
	case "customer_id":
		return promotype.Value{Str: h.CustomerID}
	}
	return promotype.Value{Null: true}
}
