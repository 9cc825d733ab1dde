package promo_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/campaign"
)

// TestCampaignTemplatesGoAPI walks the Go API of issue 29's new
// operations on both stores: a template made of a campaign, a campaign made
// of the template (its vouchers generated), the bin of a deleted voucher
// and the campaign's summary.
func TestCampaignTemplatesGoAPI(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		src := createCampaign(t, f, discountCampaign("Source", 0))
		tpl := must[*campaign.Template](t)(f.eng.CampaignTemplates().CreateTemplate(ctx, f.project,
			campaign.TemplateParams{CampaignID: src.ID, Name: "Ten off"}))
		setup := must[*campaign.CampaignSetup](t)(f.eng.CampaignTemplates().CreateCampaign(ctx, f.project, tpl.ID,
			campaign.TemplateCampaignParams{Name: "Made", VouchersCount: promo.Ptr(int64(5))}))
		runPending(t, f)
		made := getCampaign(t, f, setup.Campaign.ID)
		if made.VouchersCount != 5 || made.CreationStatus != campaign.StatusDone {
			t.Errorf("campaign made of the template: %d vouchers, %s; want 5, DONE", made.VouchersCount, made.CreationStatus)
		}
		if diff := cmp.Diff(src.Voucher.Discount, made.Voucher.Discount); diff != "" {
			t.Errorf("discount of the campaign made of the template (-source +made):\n%s", diff)
		}

		codes := allCodes(t, f, made.ID)
		if err := f.eng.Vouchers().Delete(ctx, f.project, codes[0], false); err != nil {
			t.Fatal(err)
		}
		l := must[*bin.List](t)(f.eng.Bin().List(ctx, f.project, bin.ListParams{}))
		if len(l.Data) != 1 || l.Data[0].ResourceName != codes[0] || l.Data[0].ResourceType != bin.TypeVoucher {
			t.Fatalf("bin after deleting voucher %s: %+v", codes[0], l.Data)
		}
		if err := f.eng.Bin().Delete(ctx, f.project, l.Data[0].ID); err != nil {
			t.Fatal(err)
		}
		if l = must[*bin.List](t)(f.eng.Bin().List(ctx, f.project, bin.ListParams{})); len(l.Data) != 0 {
			t.Errorf("bin after the permanent delete: %+v", l.Data)
		}

		sum := must[*campaign.Summary](t)(f.eng.Campaigns().Summary(ctx, f.project, "Made", campaign.SummaryParams{}))
		if sum.Campaign.ID != made.ID || sum.Redemptions != 0 || sum.Object != "campaign_summary" {
			t.Errorf("summary of a campaign never redeemed: %+v", sum)
		}
	})
}
