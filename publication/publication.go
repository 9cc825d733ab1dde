package publication

import (
	"encoding/json"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Id prefixes of publications and wallet rows (redeemable holders).
const (
	PrefixPublication = "pub_"
	PrefixHolder      = "rh_"
)

// Result of a publication: the engine stores successful ones only.
const ResultSuccess = "SUCCESS"

// DefaultChannel is the channel of a publication that names none.
const DefaultChannel = "API"

// Publication is one publication (object "publication"): vouchers given to
// a customer. Voucher is the published voucher when there is one (a
// campaign publication of several vouchers answers their codes in
// Vouchers instead).
type Publication struct {
	ID         string             `json:"id"`
	Object     string             `json:"object"`
	CreatedAt  promotype.Time     `json:"created_at"`
	CustomerID string             `json:"customer_id"`
	TrackingID *string            `json:"tracking_id"` // the customer's source id
	Metadata   promotype.Metadata `json:"metadata"`
	Channel    string             `json:"channel"`
	SourceID   *string            `json:"source_id"`
	Result     string             `json:"result"`
	Customer   *Customer          `json:"customer"`
	// Voucher is the voucher as the create answers it; ListedVoucher the
	// short form a list shows. At most one is set.
	Voucher       *voucher.Voucher `json:"-"`
	ListedVoucher *ListedVoucher   `json:"-"`
	VouchersID    []string         `json:"vouchers_id"`
	Vouchers      []string         `json:"vouchers,omitempty"` // codes, when more than one was published

	ProjectID      string               `json:"-"`
	CampaignID     *string              `json:"-"`
	VoucherCodes   []string             `json:"-"` // the codes of VouchersID, in the same order
	VoucherType    campaign.VoucherType `json:"-"`
	IsReferralCode bool                 `json:"-"`
}

// Customer is the customer of a publication as the hosted service shows it.
type Customer struct {
	ID       string             `json:"id"`
	Name     *string            `json:"name,omitempty"`
	Email    *string            `json:"email,omitempty"`
	SourceID *string            `json:"source_id"`
	Metadata promotype.Metadata `json:"metadata"`
	Object   string             `json:"object"`
}

// ListedVoucher is a publication's voucher in a list.
type ListedVoucher struct {
	Code           string               `json:"code"`
	Object         string               `json:"object"`
	Campaign       *string              `json:"campaign"`
	Discount       *campaign.Discount   `json:"discount,omitempty"`
	Gift           *voucher.Gift        `json:"gift,omitempty"`
	LoyaltyCard    *voucher.LoyaltyCard `json:"loyalty_card,omitempty"`
	IsReferralCode bool                 `json:"is_referral_code"`
}

// Clone returns a deep copy of the stored fields (the presented ones,
// Customer and the vouchers, are not copied).
func (p *Publication) Clone() *Publication {
	c := *p
	c.TrackingID = promotype.ClonePtr(p.TrackingID)
	c.Metadata = p.Metadata.Clone()
	c.SourceID = promotype.ClonePtr(p.SourceID)
	c.CampaignID = promotype.ClonePtr(p.CampaignID)
	c.VouchersID = append([]string(nil), p.VouchersID...)
	c.VoucherCodes = append([]string(nil), p.VoucherCodes...)
	c.Customer, c.Voucher, c.ListedVoucher, c.Vouchers = nil, nil, nil, nil
	return &c
}

// VoucherCode is the code of the first published voucher ("" for none):
// the voucher_code order and the voucher filter of a list.
func (p *Publication) VoucherCode() string {
	if len(p.VoucherCodes) == 0 {
		return ""
	}
	return p.VoucherCodes[0]
}

// ListSpec is what GET /v1/publications accepts.
var ListSpec = promotype.ListSpec{
	Orders:       []string{"id", "voucher_code", "tracking_id", "customer_id", "created_at", "channel"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"id":               promotype.FieldString,
		"customer_id":      promotype.FieldString,
		"tracking_id":      promotype.FieldString,
		"campaign_id":      promotype.FieldString,
		"voucher_code":     promotype.FieldString,
		"voucher_type":     promotype.FieldString,
		"is_referral_code": promotype.FieldString,
		"channel":          promotype.FieldString,
		"source_id":        promotype.FieldString,
		"result":           promotype.FieldString,
		"created_at":       promotype.FieldTime,
	},
}

// Field returns the value of a filterable or orderable field of p, as lists
// see it (stores filtering in memory use it).
func (p *Publication) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: p.ID}
	case "customer_id":
		return promotype.Value{Str: p.CustomerID}
	case "tracking_id":
		return promotype.StringValue(p.TrackingID)
	case "campaign_id":
		return promotype.StringValue(p.CampaignID)
	case "voucher_code":
		return promotype.Value{Str: p.VoucherCode()}
	case "voucher_type":
		return promotype.Value{Str: string(p.VoucherType)}
	case "is_referral_code":
		if p.IsReferralCode {
			return promotype.Value{Str: "true"}
		}
		return promotype.Value{Str: "false"}
	case "channel":
		return promotype.Value{Str: p.Channel}
	case "source_id":
		return promotype.StringValue(p.SourceID)
	case "result":
		return promotype.Value{Str: p.Result}
	case "created_at":
		return promotype.Value{Time: p.CreatedAt}
	}
	return promotype.Value{Null: true}
}

// MarshalJSON writes the publication with its voucher under "voucher": the
// full voucher of a create, the short one of a list, omitted when neither.
func (p *Publication) MarshalJSON() ([]byte, error) {
	type plain Publication
	out := struct {
		*plain
		Voucher any `json:"voucher,omitempty"`
	}{plain: (*plain)(p)}
	switch {
	case p.Voucher != nil:
		out.Voucher = p.Voucher
	case p.ListedVoucher != nil:
		out.Voucher = p.ListedVoucher
	}
	return json.Marshal(out)
}
