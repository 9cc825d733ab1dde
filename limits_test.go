package promo_test

import (
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Voucher generation is bounded per request and per project (vouchers and
// generations waiting); a request past a limit is 400
// voucher_limit_exceeded and stores nothing; finished generations free the
// project's budget.
func TestGenerationLimits(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			eng := must[*promo.Engine](t)(promo.New(newStore(t), promo.WithClock(promotype.NewManualClock(t0)),
				promo.WithLimits(promo.Limits{VouchersPerRequest: 100, PendingVouchersPerProject: 250, PendingGenerationsPerProject: 3})))
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			f := fixture{eng: eng, project: p.ID}
			counts := func() (int, int) {
				cs := must[*promo.List[*campaign.Campaign]](t)(eng.Campaigns().List(ctx, p.ID, campaign.ListParams{}))
				as := must[*promo.List[*async.Action]](t)(eng.AsyncActions().List(ctx, p.ID, promo.ListParams{}))
				return cs.Total, as.Total
			}
			refused := func(err error, details string) {
				t.Helper()
				if e := wantErr(t, err, 400, "voucher_limit_exceeded"); e.Details != details || e.Message != "Voucher limit exceeded" {
					t.Errorf("%s: %s\nwant %s", e.Message, e.Details, details)
				}
			}
			_, err := eng.Campaigns().Create(ctx, p.ID, discountCampaign("Big", 101))
			refused(err, "A request may generate at most 100 vouchers, not 101: split it into several requests")
			if c, a := counts(); c != 0 || a != 0 {
				t.Fatalf("a refused create stored %d campaigns and %d actions", c, a)
			}

			first := createCampaign(t, f, discountCampaign("One", 100))
			runPending(t, f)
			createCampaign(t, f, discountCampaign("Two", 100))
			createCampaign(t, f, discountCampaign("Three", 100))
			add := func(n int64) error {
				_, err := eng.Vouchers().GenerateInCampaign(ctx, p.ID, first.ID, voucher.CampaignParams{VouchersCount: promo.Ptr(n)})
				return err
			}
			refused(add(60), "The project may have at most 250 vouchers waiting to be generated; with this request it would have 260: wait until its generations end")
			if err := add(50); err != nil {
				t.Fatal(err)
			}
			_, err = eng.Campaigns().Create(ctx, p.ID, discountCampaign("Four", 1))
			refused(err, "The project has 3 voucher generations queued or running, the most it may have: wait until one ends")
			if c, a := counts(); c != 3 || a != 4 {
				t.Fatalf("refused requests stored something: %d campaigns and %d actions", c, a)
			}
			// A campaign without vouchers generates nothing and is not limited.
			createCampaign(t, f, discountCampaign("Empty", 0))

			runPending(t, f)
			createCampaign(t, f, discountCampaign("Four", 100))
			runPending(t, f)
			if got := must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, p.ID, first.ID)); got.VouchersCount != 150 {
				t.Errorf("first campaign has %d vouchers, want 150", got.VouchersCount)
			}
		})
	}
}

// Without WithLimits a request may generate voucher.DefaultVouchersPerRequest.
func TestGenerationLimitsDefault(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		_, err := f.eng.Campaigns().Create(ctx, f.project, discountCampaign("Huge", voucher.DefaultVouchersPerRequest+1))
		if e := wantErr(t, err, 400, "voucher_limit_exceeded"); e.Details != "A request may generate at most 1000000 vouchers, not 1000001: split it into several requests" {
			t.Errorf("details %q", e.Details)
		}
	})
}
