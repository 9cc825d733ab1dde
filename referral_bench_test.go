package promo_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
)

// BenchmarkReferralRedemption measures a redemption of a referral code
// through the Go API on each store: "converts" by a new referee each time
// (the conversion claimed, the referrer's counter, a Club card published
// to the referee and credited, the referrer's gift card credited by an
// EACH_REFEREE tier, two customer.rewarded events), "again" by a referee
// converted already (the claim finds its row: nothing more). The
// difference is what a conversion adds to the redemption.
func BenchmarkReferralRedemption(b *testing.B) {
	for name, newStore := range storeFactories {
		for _, converts := range []bool{true, false} {
			label := name + "/again"
			if converts {
				label = name + "/converts"
			}
			b.Run(label, func(b *testing.B) {
				eng, p := benchProject(b, newStore)
				params := func(js string) campaign.Params {
					var in campaign.Params
					if err := json.Unmarshal([]byte(js), &in); err != nil {
						b.Fatal(err)
					}
					return in
				}
				club, err := eng.Campaigns().Create(ctx, p.ID, params(`{"name":"Club","type":"AUTO_UPDATE","campaign_type":"LOYALTY_PROGRAM",
					"auto_join":true,"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`))
				if err != nil {
					b.Fatal(err)
				}
				gifts, err := eng.Campaigns().Create(ctx, p.ID, params(`{"name":"Gifts","type":"AUTO_UPDATE","campaign_type":"GIFT_VOUCHERS",
					"voucher":{"type":"GIFT_VOUCHER","gift":{"amount":1}}}`))
				if err != nil {
					b.Fatal(err)
				}
				prog, err := eng.Campaigns().Create(ctx, p.ID, params(`{"name":"Friends","type":"AUTO_UPDATE","campaign_type":"REFERRAL_PROGRAM",
					"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10},"is_referral_code":true},
					"referral_program":{"referee_reward":{"related_object_parent":{"id":"`+club.ID+`"},"type":"LOYALTY_CARD","amount":100},
					"referral_tiers":[{"parameters":{"criteria":{"type":"EACH_REFEREE"},"reward":{"related_object_parent":{"id":"`+gifts.ID+`"},"type":"GIFT_VOUCHER","amount":500}}}]}}`))
				if err != nil {
					b.Fatal(err)
				}
				pub, err := eng.Publications().Create(ctx, p.ID, publication.CreateParams{Customer: &customer.Params{SourceID: promotype.Ptr("alice")},
					Campaign: &publication.CampaignRef{ID: &prog.ID}})
				if err != nil {
					b.Fatal(err)
				}
				redeem := func(who string) {
					if _, err := eng.Redemptions().Redeem(ctx, p.ID, redemption.ValidationParams{Customer: &customer.Params{SourceID: &who},
						Redeemables: []redemption.RedeemableParams{{Object: redemption.ObjectVoucher, ID: pub.Voucher.Code}},
						Order:       &order.Params{Amount: promotype.Ptr[int64](10000)}}, redemption.RedeemOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				redeem("bob") // bob converts here: "again" redeems as bob
				b.ResetTimer()
				for i := range b.N {
					who := "bob"
					if converts {
						who = fmt.Sprintf("friend-%d", i)
					}
					redeem(who)
				}
			})
		}
	}
}
