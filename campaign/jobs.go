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

// SerialKey is the async.Serial key of the voucher jobs of a campaign: they
// run one at a time, in the order they were asked for, so that what is asked
// for while the campaign's vouchers are generated (an import, an update, a
// delete, more vouchers) waits for the generation and then applies to what
// it generated, as if it had been asked for after it.
func SerialKey(campaignID string) string { return "campaign:" + campaignID }

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
	// Revision is the campaign's Revision when the generation was asked
	// for: its end sets the campaign DONE (or FAILED) only if no update
	// came since (the update's own action does). Nil (an action recorded
	// before this field): unconditionally.
	Revision *int `json:"revision,omitempty"`
}

// Kind implements async.Args.
func (GenerateVouchers) Kind() string { return ActionVouchersGenerate }

// SerialKey implements async.Serial.
func (a GenerateVouchers) SerialKey() string { return SerialKey(a.CampaignID) }

// StatusRevision is the revision the generation's end sets the status at
// (campaign.Store.SetCampaignStatus): -1 for any.
func (a GenerateVouchers) StatusRevision() int {
	if a.Revision == nil {
		return -1
	}
	return *a.Revision
}

// UpdateVouchers copies the voucher settings of revision Revision of a
// campaign to its vouchers (CAMPAIGN.VOUCHERS_UPDATE).
type UpdateVouchers struct {
	CampaignID string `json:"campaign_id"`
	Revision   int    `json:"revision"`
	Count      int64  `json:"count"`
}

// Kind implements async.Args.
func (UpdateVouchers) Kind() string { return ActionVouchersUpdate }

// SerialKey implements async.Serial.
func (a UpdateVouchers) SerialKey() string { return SerialKey(a.CampaignID) }

// DeleteVouchers moves the vouchers of a deleted campaign to the bin (with
// Force: removes them, and then the campaign) (CAMPAIGN.VOUCHERS_DELETE).
type DeleteVouchers struct {
	CampaignID string `json:"campaign_id"`
	Force      bool   `json:"force"`
	Count      int64  `json:"count"`
}

// Kind implements async.Args.
func (DeleteVouchers) Kind() string { return ActionVouchersDelete }

// SerialKey implements async.Serial.
func (a DeleteVouchers) SerialKey() string { return SerialKey(a.CampaignID) }
