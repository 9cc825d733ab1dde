package promo_test

import (
	"testing"

	"github.com/promoengine/promo/async"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/voucher"
)

// schema creates the project's metadata schema of relatedObject with one
// string key that must be "a" or "b" (required unless optional).
func schema(t *testing.T, f fixture, relatedObject, key string, optional bool) {
	t.Helper()
	must[*project.MetadataSchema](t)(f.eng.MetadataSchemas().Create(ctx, f.project, project.MetadataSchemaParams{
		RelatedObject: relatedObject,
		Properties:    map[string]project.Definition{key: {Type: project.TypeString, Optional: optional, Eq: []any{"a", "b"}}},
	}))
}

// wantMetaErr checks that err is a 400 metadata_validation_failed whose
// details are details.
func wantMetaErr(t *testing.T, err error, details string) {
	t.Helper()
	if e := wantErr(t, err, 400, "metadata_validation_failed"); e.Details != details {
		t.Errorf("details %q, want %q", e.Details, details)
	}
}

// Campaign creates and updates check the campaign metadata schema; an
// update checks the metadata it leaves (merged, without the unset keys).
func TestCampaignMetadataSchema(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		schema(t, f, "campaign", "region", false)
		cs := f.eng.Campaigns()
		in := discountCampaign("Spring", 0)
		_, err := cs.Create(ctx, f.project, in)
		wantMetaErr(t, err, "region: is required")
		in.Metadata = promo.Metadata{"region": "c"}
		_, err = cs.Create(ctx, f.project, in)
		wantMetaErr(t, err, "region: must be a string, must be equal to one of a,b (actual value is 'c')")
		_, err = cs.Get(ctx, f.project, "Spring")
		wantErr(t, err, 404, "not_found")

		in.Metadata = promo.Metadata{"region": "a"}
		c := createCampaign(t, f, in)
		runPending(t, f)
		_, err = cs.Update(ctx, f.project, c.ID, campaign.UpdateParams{Metadata: promo.Metadata{"region": 1.0}})
		wantMetaErr(t, err, "region: must be a string (actual value is '1')")
		_, err = cs.Update(ctx, f.project, c.ID, campaign.UpdateParams{UnsetMetadataFields: []string{"region"}})
		wantMetaErr(t, err, "region: is required")
		diff(t, "metadata after refused updates", promo.Metadata{"region": "a"}, getCampaign(t, f, c.ID).Metadata)
		got := must[*campaign.Campaign](t)(cs.Update(ctx, f.project, c.ID, campaign.UpdateParams{Metadata: promo.Metadata{"other": "x"}}))
		diff(t, "metadata merged", promo.Metadata{"region": "a", "other": "x"}, got.Metadata)
	})
}

// Tier creates (also inside a campaign create) and updates check the
// promotion_tier metadata schema.
func TestPromotionTierMetadataSchema(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		schema(t, f, "promotion_tier", "level", false)
		_, err := f.eng.Campaigns().Create(ctx, f.project, decode[campaign.Params](t,
			`{"name":"Promos","campaign_type":"PROMOTION","promotion":{"tiers":[{"name":"A","metadata":{"level":"z"}}]}}`))
		wantMetaErr(t, err, "level: must be a string, must be equal to one of a,b (actual value is 'z')")
		_, err = f.eng.Campaigns().Get(ctx, f.project, "Promos")
		wantErr(t, err, 404, "not_found")

		c := promotionCampaign(t, f, "Promos")
		tiers := f.eng.PromotionTiers()
		_, err = tiers.Create(ctx, f.project, c.ID, campaign.TierParams{Name: promo.Ptr("A")})
		wantMetaErr(t, err, "level: is required")
		tier := must[*campaign.PromotionTier](t)(tiers.Create(ctx, f.project, c.ID, campaign.TierParams{Name: promo.Ptr("A"), Metadata: promo.Metadata{"level": "a"}}))
		_, err = tiers.Update(ctx, f.project, tier.ID, campaign.TierParams{Metadata: promo.Metadata{"level": "q"}})
		wantMetaErr(t, err, "level: must be a string, must be equal to one of a,b (actual value is 'q')")
		must[*campaign.PromotionTier](t)(tiers.Update(ctx, f.project, tier.ID, campaign.TierParams{Name: promo.Ptr("A2")}))
		if l := must[*promoList](t)(tiers.List(ctx, f.project, c.ID, campaign.TierListParams{})); l.Total != 1 || l.Data[0].Metadata["level"] != "a" {
			t.Errorf("tiers after refused writes: %d, %v", l.Total, l.Data[0].Metadata)
		}
	})
}

// Vouchers added to a campaign with metadata (one, many, imported) check
// the voucher metadata schema.
func TestCampaignVouchersMetadataSchema(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := createCampaign(t, f, discountCampaign("Spring", 1))
		runPending(t, f)
		schema(t, f, "voucher", "batch", true)
		vs := f.eng.Vouchers()
		bad := voucher.Common{Metadata: promo.Metadata{"batch": "c"}}
		const details = "batch: must be a string, must be equal to one of a,b (actual value is 'c')"
		_, err := vs.CreateInCampaign(ctx, f.project, c.ID, voucher.CampaignParams{Common: bad}, promo.Ptr("ONE"))
		wantMetaErr(t, err, details)
		_, err = vs.GenerateInCampaign(ctx, f.project, c.ID, voucher.CampaignParams{VouchersCount: promo.Ptr[int64](5), Common: bad})
		wantMetaErr(t, err, details)
		if n := runPending(t, f); n != 0 {
			t.Errorf("%d actions after refused adds", n)
		}
		ref := must[*async.Ref](t)(vs.ImportToCampaign(ctx, f.project, c.ID, []voucher.ImportItem{
			{Code: promo.Ptr("GOOD"), Common: voucher.Common{Metadata: promo.Metadata{"batch": "a"}}},
			{Code: promo.Ptr("BAD"), Common: bad},
		}))
		runPending(t, f)
		var res async.ImportResult
		if err := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID)).DecodeResult(&res); err != nil {
			t.Fatal(err)
		}
		diff(t, "import result", []async.ImportFailure{{Code: "BAD", Reason: details}}, res.Failed)
		if got := getCampaign(t, f, c.ID); got.VouchersCount != 2 || got.CreationStatus != campaign.StatusDone {
			t.Errorf("campaign after the refused adds and the import: %d vouchers, %s", got.VouchersCount, got.CreationStatus)
		}
	})
}
