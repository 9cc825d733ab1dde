package promo_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// A discount campaign: created IN_PROGRESS, its vouchers made by an async
// action (here run in place; a server starts Engine.StartAsyncRunner).
func Example_campaign() {
	ctx := context.Background()
	eng, projectID := newProject(ctx)
	c, err := eng.Campaigns().Create(ctx, projectID, campaign.Params{
		Name:          promo.Ptr("Spring"),
		VouchersCount: promo.Ptr[int64](3),
		Voucher: &campaign.VoucherParams{
			Discount:   &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal("10"))},
			CodeConfig: &campaign.CodeConfig{Pattern: promo.Ptr("SPRING-####")},
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(c.CreationStatus, c.VouchersCount)

	n, err := eng.AsyncActions().RunPending(ctx, async.Config{})
	if err != nil {
		panic(err)
	}
	c, _ = eng.Campaigns().Get(ctx, projectID, "Spring")
	fmt.Println(n, c.CreationStatus, c.VouchersCount)

	l, _ := eng.Vouchers().List(ctx, projectID, voucher.ListParams{Campaign: promo.Ptr("Spring")})
	for _, v := range l.Data {
		fmt.Println(len(v.Code), strings.HasPrefix(v.Code, "SPRING-"), v.Discount.PercentOff)
	}
	// Output:
	// IN_PROGRESS 0
	// 1 DONE 3
	// 11 true 10
	// 11 true 10
	// 11 true 10
}
