package promo_test

import (
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/voucher"
)

// TestCampaignJobsQueueBehindGeneration: with four runner workers free to
// take any action at once, an import, more vouchers and an update asked
// for while a campaign's vouchers are generated each start only once the
// action asked for before it has ended (campaign.SerialKey), and the
// campaign ends with every voucher, each carrying the update's discount.
func TestCampaignJobsQueueBehindGeneration(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			eng := must[*promo.Engine](t)(promo.New(newStore(t)))
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			defer eng.Close()
			const generated, added = 3000, 200
			c := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p.ID, discountCampaign("Queued", generated)))
			must[struct{}](t)(struct{}{}, eng.StartAsyncRunner(context.Background(), async.Config{Workers: 4, ChunkSize: 250}))
			must[*async.Ref](t)(eng.Vouchers().ImportToCampaign(ctx, p.ID, c.ID,
				[]voucher.ImportItem{{Code: promo.Ptr("QUEUED-IMPORTED-1")}, {Code: promo.Ptr("QUEUED-IMPORTED-2")}}))
			must[*async.Ref](t)(eng.Vouchers().GenerateInCampaign(ctx, p.ID, c.ID, voucher.CampaignParams{VouchersCount: promo.Ptr[int64](added)}))
			must[*campaign.Campaign](t)(eng.Campaigns().Update(ctx, p.ID, c.ID, campaign.UpdateParams{Discount: percentOff("30")}))

			var actions []*async.Action
			for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
				l := must[*promo.List[*async.Action]](t)(eng.AsyncActions().List(ctx, p.ID, promo.ListParams{Order: "created_at"}))
				ended := 0
				for _, a := range l.Data {
					if a.Ended() {
						ended++
					}
				}
				if ended == 4 && len(l.Data) == 4 {
					actions = l.Data
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d actions ended after 2 minutes", ended, len(l.Data))
				}
			}
			for i, a := range actions {
				actions[i] = must[*async.Action](t)(eng.AsyncActions().Get(ctx, p.ID, a.ID))
			}
			// In the order they were enqueued (created_at may tie).
			slices.SortFunc(actions, func(a, b *async.Action) int { return cmp.Compare(a.Seq, b.Seq) })
			for i, a := range actions {
				if a.Status != async.StatusDone {
					t.Errorf("%s %s ended %s: %s", a.ID, a.Type, a.Status, a.Result)
				}
				if i > 0 && a.StartedAt.Before(actions[i-1].UpdatedAt.Time) {
					t.Errorf("%s %s started at %v, before %s %s ended at %v", a.ID, a.Type, a.StartedAt, actions[i-1].ID, actions[i-1].Type, actions[i-1].UpdatedAt)
				}
			}
			got := must[*campaign.Campaign](t)(eng.Campaigns().Get(ctx, p.ID, c.ID))
			if got.CreationStatus != campaign.StatusDone || got.VouchersCount != generated+added+2 {
				t.Errorf("campaign %s with %d vouchers, want DONE with %d", got.CreationStatus, got.VouchersCount, generated+added+2)
			}
			seen := 0
			for page := 1; ; page++ {
				l := must[*promo.List[*voucher.Voucher]](t)(eng.Vouchers().List(ctx, p.ID, voucher.ListParams{CampaignID: &c.ID,
					ListParams: promo.ListParams{Limit: 100, Page: page}}))
				for _, v := range l.Data {
					if v.Discount == nil || v.Discount.PercentOff == nil || v.Discount.PercentOff.String() != "30" {
						t.Fatalf("voucher %s has discount %+v: the update did not reach it", v.Code, v.Discount)
					}
				}
				seen += len(l.Data)
				if !l.HasMore {
					break
				}
			}
			if seen != generated+added+2 {
				t.Errorf("%d vouchers listed, want %d", seen, generated+added+2)
			}
		})
	}
}
