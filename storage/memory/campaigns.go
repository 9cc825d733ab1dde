package memory

// campaignData holds campaigns, categories, vouchers and async actions.
type campaignData struct{}

func newCampaignData() campaignData { return campaignData{} }
