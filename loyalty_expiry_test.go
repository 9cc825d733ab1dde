package promo_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// expiringProgram creates a loyalty program whose points expire by rules
// (JSON of expiration_rules).
func expiringProgram(t *testing.T, f fixture, name, rules string) *campaign.Campaign {
	t.Helper()
	p := decode[campaign.Params](t, `{"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0,"expiration_rules":`+rules+`}}}`)
	p.Name, p.Type = promo.Ptr(name), promo.Ptr(campaign.AutoUpdate)
	return must[*campaign.Campaign](t)(f.eng.Loyalties().CreateProgram(ctx, f.project, p))
}

// buckets lists the member's ACTIVE buckets as (expires_at, points left).
func buckets(t *testing.T, f fixture, code string) []string {
	t.Helper()
	l := must[*promotype.List[*voucher.PointsBucket]](t)(f.eng.Loyalties().Buckets(ctx, f.project, "", code, loyalty.BucketListParams{}))
	out := []string{}
	for _, b := range l.Data {
		on := "never"
		if b.ExpiresAt != nil {
			on = *b.ExpiresAt
		}
		out = append(out, on+":"+itoa(b.Bucket.TotalPoints))
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func derefStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Worked example E1 (points expiry by buckets): program rule MONTH 3 END_OF_QUARTER;
// 100 points on 2024-02-10 expire on 2024-06-30, 50 on 2024-04-20 on
// 2024-09-30; a reward of 120 on 2024-05-01 takes the June bucket first;
// on 2024-10-01 the 30 left expire: balance 0 = 150 − 30 − 0 − 120.
func TestLoyaltyExpiryE1(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		l := f.eng.Loyalties()
		f.clock.Set(time.Date(2024, 2, 10, 12, 0, 0, 0, time.UTC))
		club := expiringProgram(t, f, "Club", `{"period_type":"MONTH","period_value":3,"rounding_type":"END_OF_QUARTER"}`)
		card := member(t, f, club, "eve", 100)
		f.clock.Set(time.Date(2024, 4, 20, 12, 0, 0, 0, time.UTC))
		must[*redemption.Balance](t)(l.AddBalance(ctx, f.project, club.ID, card.Code, loyalty.BalanceParams{Points: 50}))
		got := checkCard(t, f, card.Code, 150)
		diff(t, "next expiration", [2]any{"2024-06-30", int64(100)}, [2]any{derefStr(got.LoyaltyCard.NextExpirationDate), deref(got.LoyaltyCard.NextExpirationPoints)})
		diff(t, "buckets", []string{"2024-06-30:100", "2024-09-30:50"}, buckets(t, f, card.Code))

		f.clock.Set(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
		rw := offer(t, f, club, `{"name":"Mug","parameters":{"product":{"id":"`+seedShop(t, f).mug.ID+`"}}}`, 120)
		must[*redemption.Redemption](t)(redeemReward(f, card, rw.ID))
		got = checkCard(t, f, card.Code, 30)
		diff(t, "next expiration after the reward", [2]any{"2024-09-30", int64(30)}, [2]any{derefStr(got.LoyaltyCard.NextExpirationDate), deref(got.LoyaltyCard.NextExpirationPoints)})
		diff(t, "buckets after the reward", []string{"2024-06-30:0", "2024-09-30:30"}, buckets(t, f, card.Code))

		f.clock.Set(time.Date(2024, 9, 30, 23, 59, 0, 0, time.UTC))
		if n := must[int](t)(l.ExpireDue(ctx, f.project, 100)); n != 1 { // the spent June bucket
			t.Errorf("%d buckets expired on 30 September, want 1 (the empty June one)", n)
		}
		checkCard(t, f, card.Code, 30)
		f.clock.Set(time.Date(2024, 10, 1, 0, 0, 0, 0, time.UTC))
		if more, err := l.RunDue(ctx); err != nil || more {
			t.Fatalf("RunDue: more %v, %v", more, err)
		}
		got = checkCard(t, f, card.Code, 0)
		lc := got.LoyaltyCard
		diff(t, "card after expiry", [4]any{int64(150), int64(30), (*string)(nil), (*int64)(nil)},
			[4]any{lc.Points, deref(lc.ExpiredPoints), lc.NextExpirationDate, lc.NextExpirationPoints})
		diff(t, "buckets after expiry", []string{}, buckets(t, f, card.Code))
		txs := must[*redemption.TransactionList](t)(l.Transactions(ctx, f.project, "", card.Code, redemption.TransactionListParams{}))
		exp := txs.Data[0]
		diff(t, "expiry transaction", [4]any{redemption.TxPointsExpiration, int64(-30), int64(150), int64(0)},
			[4]any{exp.Type, deref(exp.Details.Balance.Points), exp.Details.Balance.Total, exp.Details.Balance.Balance})
		if n := must[int](t)(l.ExpireDue(ctx, f.project, 100)); n != 0 {
			t.Errorf("a second run expired %d buckets", n)
		}
	})
}

// Manual additions choose their expiry: NON_EXPIRING points are spent
// last, CUSTOM_DATE ones expire after their day, a date in the past is
// refused; removals take the earliest-expiring points first.
func TestLoyaltyExpiryManualAdditions(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		l := f.eng.Loyalties()
		f.clock.Set(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
		club := expiringProgram(t, f, "Club", `{"period_type":"MONTH","period_value":1}`)
		card := member(t, f, club, "max", 0)
		add := func(points int64, typ string, date *string) error {
			_, err := l.AddBalance(ctx, f.project, club.ID, card.Code, loyalty.BalanceParams{Points: loyalty.Int(points), ExpirationType: typ, ExpirationDate: date})
			return err
		}
		must0(t, add(10, loyalty.NonExpiring, nil))
		must0(t, add(20, "", nil))                                             // program rules: 2026-04-10
		must0(t, add(30, loyalty.ExpireOnCustomDate, promo.Ptr("2026-03-20"))) // earliest
		wantErr(t, add(5, loyalty.ExpireOnCustomDate, promo.Ptr("2026-03-09")), 400, "invalid_expiration_date")
		wantErr(t, add(5, loyalty.ExpireOnCustomDate, promo.Ptr("soon")), 400, "invalid_payload")
		diff(t, "buckets", []string{"2026-03-20:30", "2026-04-10:20", "never:10"}, buckets(t, f, card.Code))
		must0(t, add(-35, "", nil))
		diff(t, "buckets after removing 35", []string{"2026-03-20:0", "2026-04-10:15", "never:10"}, buckets(t, f, card.Code))
		f.clock.Set(time.Date(2026, 4, 11, 0, 0, 0, 0, time.UTC))
		must[int](t)(l.ExpireDue(ctx, f.project, 100))
		got := checkCard(t, f, card.Code, 10)
		if deref(got.LoyaltyCard.ExpiredPoints) != 15 || got.LoyaltyCard.NextExpirationDate != nil {
			t.Errorf("card after expiry: %+v", got.LoyaltyCard)
		}
		diff(t, "buckets left", []string{"never:10"}, buckets(t, f, card.Code))

		// The program's points_expiration export lists ACTIVE and EXPIRED
		// buckets, here by expiry (a never-expiring one's is null, and
		// null orders first, as in every list of the engine).
		e := must[*export.Export](t)(f.eng.Exports().ExportCampaignPointsExpiration(ctx, f.project, club.Name, export.TransactionsParams{
			Parameters: &export.RequestParameters{Order: promo.Ptr("expires_at"), Fields: []string{"voucher_id", "status", "expires_at", "points"}}}))
		must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
		e = must[*export.Export](t)(f.eng.Exports().Get(ctx, f.project, e.ID))
		diff(t, "points_expiration export", [][]string{
			{"Voucher ID", "Status", "Expires At", "Points"},
			{card.ID, voucher.BucketActive, "", "10"},
			{card.ID, voucher.BucketExpired, "2026-03-20", "0"},
			{card.ID, voucher.BucketExpired, "2026-04-10", "15"},
		}, download(t, f, e))
	})
}

// Expiry racing transfers and reward redemptions (and itself, as engines
// over one store would run it) neither creates nor destroys points: what
// the cards hold, spent and lost to expiry is what they were given, every
// card keeps the balance invariant, and its ACTIVE buckets hold exactly
// its balance.
func TestLoyaltyExpiryRacesTransfersAndRedemptions(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		l := f.eng.Loyalties()
		f.clock.Set(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
		club := expiringProgram(t, f, "Club", `{"period_type":"MONTH","period_value":1}`)
		x, y := member(t, f, club, "xia", 500), member(t, f, club, "yan", 500)
		for _, c := range []*voucher.Voucher{x, y} {
			must[*redemption.Balance](t)(l.AddBalance(ctx, f.project, club.ID, c.Code, loyalty.BalanceParams{Points: 200, ExpirationType: loyalty.NonExpiring}))
		}
		rw := offer(t, f, club, `{"name":"Mug","parameters":{"product":{"id":"`+seedShop(t, f).mug.ID+`"}}}`, 100)
		f.clock.Set(time.Date(2026, 2, 6, 0, 0, 0, 0, time.UTC)) // the 500s are due
		errs := make([]error, 36)
		inParallel(t, 36, func(i int) {
			from, to := x, y
			if i%2 == 1 {
				from, to = y, x
			}
			switch i % 3 {
			case 0:
				_, errs[i] = l.Transfer(ctx, f.project, club.ID, to.Code, []loyalty.TransferParams{{Code: from.Code, Points: 70}})
			case 1:
				_, errs[i] = redeemReward(f, from, rw.ID)
			default:
				_, errs[i] = l.ExpireDue(ctx, f.project, 100)
			}
		})
		for i, err := range errs {
			if e := promotype.AsError(err); err != nil && (e == nil || e.Key != "loyalty_card_points_exceeded") {
				t.Errorf("call %d: %v", i, err)
			}
		}
		for {
			if n := must[int](t)(l.ExpireDue(ctx, f.project, 100)); n == 0 {
				break
			}
		}
		var held, spent, expired int64
		for _, c := range []*voucher.Voucher{x, y} {
			got := must[*voucher.Voucher](t)(l.Member(ctx, f.project, "", c.Code))
			lc := got.LoyaltyCard
			checkCard(t, f, c.Code, lc.Balance)
			if lc.Balance < 0 {
				t.Errorf("card %s below zero: %d", c.Code, lc.Balance)
			}
			held, spent, expired = held+lc.Balance, spent+deref(got.Redemption.RedeemedPoints), expired+deref(lc.ExpiredPoints)
			bs := must[*promotype.List[*voucher.PointsBucket]](t)(l.Buckets(ctx, f.project, "", c.Code, loyalty.BucketListParams{Limit: 100}))
			var inBuckets int64
			for _, b := range bs.Data {
				inBuckets += b.Bucket.TotalPoints
			}
			if inBuckets != lc.Balance {
				t.Errorf("card %s: buckets hold %d, balance %d", c.Code, inBuckets, lc.Balance)
			}
		}
		if held+spent+expired != 1400 {
			t.Errorf("held %d + spent %d + expired %d = %d, want the 1400 given", held, spent, expired, held+spent+expired)
		}
	})
}
