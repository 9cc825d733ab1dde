package httpadapter_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemRewardHTTP is POST /v1/loyalties/members/{memberId}/redemption
// over loopback TCP with 32 concurrent clients, each buying a reward with
// the points of its own card (distinct cards), on the memory store and on
// PostgreSQL (when PROMO_TEST_POSTGRES_DSN is set). The rewards: "bonus"
// gives 1 point on the same card (a CAMPAIGN reward: the card is credited
// in the redemption's transaction), "material" takes a unit of one
// MATERIAL reward without stock limit (every client updates that reward's
// row: the figure shows the contention on it).
func BenchmarkRedeemRewardHTTP(b *testing.B) {
	const clients = 32
	for _, st := range benchStores() {
		for _, kind := range []string{"bonus", "material"} {
			b.Run(st.name+"/"+kind, func(b *testing.B) {
				eng, rewardID := rewardEngine(b, st.new(b), clients, kind)
				srv := newLoadServer(b, eng, clients)
				body := fmt.Sprintf(`{"reward":{"id":%q}}`, rewardID)
				cpu0 := cpuTime()
				lat := runClients(b, clients, func(n int64) (time.Duration, error) {
					status, took, err := srv.postDrain(fmt.Sprintf("/v1/loyalties/members/CARD-%02d/redemption", (n-1)%clients), body)
					if err == nil && status != http.StatusOK {
						err = fmt.Errorf("status %d", status)
					}
					return took, err
				})
				reportCPU(b, cpuTime()-cpu0)
				reportLatency(b, lat)
			})
		}
	}
}

// rewardEngine is an engine over store with a loyalty program, n cards
// CARD-00 … CARD-<n-1> of a billion points each held by their own
// customer, and a reward of kind ("bonus" or "material") costing 1 point;
// it returns the engine and the reward's id.
func rewardEngine(b *testing.B, store storage.Store, n int, kind string) (*promo.Engine, string) {
	b.Helper()
	ctx := context.Background()
	eng, projectID := benchEngine(b, store)
	l := eng.Loyalties()
	club, err := l.CreateProgram(ctx, projectID, campaign.Params{Name: promo.Ptr("Club"), Type: promo.Ptr(campaign.AutoUpdate)})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		code := fmt.Sprintf("CARD-%02d", i)
		if _, err := eng.Vouchers().CreateInCampaign(ctx, projectID, club.ID, voucher.CampaignParams{}, &code); err != nil {
			b.Fatal(err)
		}
		if _, err := l.AddMember(ctx, projectID, club.ID, loyalty.MemberParams{Voucher: &code,
			Customer: loyalty.MemberCustomer{Params: customer.Params{SourceID: promo.Ptr(fmt.Sprintf("c%d", i))}}}); err != nil {
			b.Fatal(err)
		}
		if _, err := l.AddBalance(ctx, projectID, club.ID, code, loyalty.BalanceParams{Points: 1_000_000_000}); err != nil {
			b.Fatal(err)
		}
	}
	params := &reward.Parameters{Campaign: &reward.CampaignParams{ID: club.ID, Balance: promo.Ptr[int64](1)}}
	if kind == "material" {
		p, err := eng.Catalog().CreateProduct(ctx, projectID, catalog.ProductParams{Name: promo.Ptr("Mug"), Price: promo.Ptr[int64](900)})
		if err != nil {
			b.Fatal(err)
		}
		params = &reward.Parameters{Product: &reward.ProductParams{ID: p.ID}}
	}
	rw, err := eng.Rewards().Create(ctx, projectID, reward.Params{Name: promo.Ptr(kind), Parameters: params})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := l.AssignRewards(ctx, projectID, club.ID, []loyalty.RewardAssignmentParams{{Reward: rw.ID,
		Parameters: &reward.AssignmentParameters{Loyalty: &reward.LoyaltyParameters{Points: promo.Ptr[int64](1)}}}}); err != nil {
		b.Fatal(err)
	}
	return eng, rw.ID
}
