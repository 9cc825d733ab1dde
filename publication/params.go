package publication

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// CreateParams is the body of POST /v1/publications (JoinOnce is its query
// parameter join_once). Voucher names the voucher to publish by code;
// without it Campaign names the campaign whose next free vouchers are
// published.
type CreateParams struct {
	Voucher  *string            `json:"voucher"`
	Campaign *CampaignRef       `json:"campaign"`
	Customer *customer.Params   `json:"customer"`
	SourceID *string            `json:"source_id"`
	Channel  *string            `json:"channel"`
	Metadata promotype.Metadata `json:"metadata"`
	// JoinOnce answers a customer that already received a voucher of the
	// campaign with that publication instead of a new voucher.
	JoinOnce bool `json:"-"`
	// Generate is kept for the callers that set it: every publication of
	// an active AUTO_UPDATE campaign makes the vouchers it lacks instead
	// of answering no_voucher_suitable_for_publication, whether it is set
	// or not.
	Generate bool `json:"-"`
}

// CampaignRef names a campaign by name or id and how many of its vouchers
// to publish (1 to 50, default 1). The API also takes a bare string: the
// campaign's name or id.
type CampaignRef struct {
	Name  *string `json:"name"`
	ID    *string `json:"id"`
	Count *int    `json:"count"`
}

// UnmarshalJSON reads a campaign object or a bare campaign name.
func (c *CampaignRef) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var name string
		if err := json.Unmarshal(b, &name); err != nil {
			return err
		}
		*c = CampaignRef{Name: &name}
		return nil
	}
	type plain CampaignRef
	return json.Unmarshal(b, (*plain)(c))
}

// MaxCount is the most vouchers one publication gives.
const MaxCount = 50

// maxText bounds the free-text fields of a publication.
const maxText = 300

// check validates in and returns the number of vouchers it asks for.
func (in *CreateParams) check() (int, error) {
	if in.Customer == nil {
		return 0, promotype.BadRequest("missing_customer", "Missing customer", "Customer is required")
	}
	if err := in.Customer.Validate(".customer"); err != nil {
		return 0, err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"source_id", in.SourceID}, {"channel", in.Channel}, {"voucher", in.Voucher}} {
		if f.v == nil {
			continue
		}
		if *f.v == "" || utf8.RuneCountInString(*f.v) > maxText {
			return 0, promotype.InvalidPayload("Property .%s must have between 1 and %d characters", f.name, maxText)
		}
		if !utf8.ValidString(*f.v) || strings.ContainsRune(*f.v, 0) {
			return 0, promotype.InvalidPayload("Property .%s must be UTF-8 text without NUL characters", f.name)
		}
	}
	if in.Voucher != nil {
		return 1, nil
	}
	c := in.Campaign
	if c == nil || (c.Name == nil && c.ID == nil) {
		return 0, promotype.BadRequest("missing_vouchers", "Missing vouchers", "Either Campaign or Voucher is required")
	}
	n := 1
	if c.Count != nil {
		n = *c.Count
	}
	if n < 1 || n > MaxCount {
		return 0, promotype.InvalidPayload("Property .campaign.count must be between 1 and %d", MaxCount)
	}
	if n > 1 && in.SourceID != nil {
		return 0, promotype.BadRequest("invalid_publish_params", "Invalid publish params", "If source_id is provided only 1 voucher can be published per request")
	}
	return n, nil
}

// campaignRef is the name or id the campaign is named by.
func (c *CampaignRef) ref() string {
	if c.ID != nil {
		return *c.ID
	}
	return *c.Name
}

// ListParams are the parameters of GET /v1/publications: the common ones
// and its query filters.
type ListParams struct {
	promotype.ListParams
	Campaign       *string // a campaign name (or id)
	Customer       *string // a customer id
	Voucher        *string // a voucher code
	Result         *string // SUCCESS or FAILURE
	VoucherType    *string // discount or loyalty
	IsReferralCode *bool
	SourceID       *string
}

// WalletParams are the parameters of a customer's wallet: limit, order (id
// or -id), the filters and the cursor StartingAfterID.
type WalletParams struct {
	promotype.ListParams
	StartingAfterID string
}
