package campaign

import "encoding/json"

// The async action types of a campaign's vouchers (the kinds of their
// jobs; package voucher has the workers).
const (
	ActionVouchersGenerate = "CAMPAIGN.VOUCHERS_GENERATE"
	ActionVouchersImport   = "CAMPAIGN.VOUCHERS_IMPORT"
	ActionVouchersUpdate   = "CAMPAIGN.VOUCHERS_UPDATE"
	ActionVouchersDelete   = "CAMPAIGN.VOUCHERS_DELETE"
)

// The arguments of the jobs a campaign enqueues. They are declared here,
// by the package that enqueues them, so the campaign API can start them;
// voucher registers their workers. Their JSON is the action's payload.

// GenerateVouchers makes Count vouchers in a campaign
// (CAMPAIGN.VOUCHERS_GENERATE).
type GenerateVouchers struct {
	CampaignID string `json:"campaign_id"`
	Count      int64  `json:"count"`
	// Params are the voucher.CampaignParams of vouchers added to an
	// existing campaign (raw: campaign is below voucher), absent for a
	// campaign's first vouchers.
	Params json.RawMessage `json:"params,omitempty"`
}

// Kind implements async.Args.
func (GenerateVouchers) Kind() string { return ActionVouchersGenerate }

// UpdateVouchers copies the voucher settings of revision Revision of a
// campaign to its vouchers (CAMPAIGN.VOUCHERS_UPDATE).
type UpdateVouchers struct {
	CampaignID string `json:"campaign_id"`
	Revision   int    `json:"revision"`
	Count      int64  `json:"count"`
}

// Kind implements async.Args.
func (UpdateVouchers) Kind() string { return ActionVouchersUpdate }

// DeleteVouchers moves the vouchers of a deleted campaign to the bin (with
// Force: removes them, and then the campaign) (CAMPAIGN.VOUCHERS_DELETE).
type DeleteVouchers struct {
	CampaignID string `json:"campaign_id"`
	Force      bool   `json:"force"`
	Count      int64  `json:"count"`
}

// Kind implements async.Args.
func (DeleteVouchers) Kind() string { return ActionVouchersDelete }
