package promo_test

import (
	"testing"

	"github.com/promoengine/promo/loyalty"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// Worked example T2 (a transfer between cards): card B (700) receives 200 from A1
// (250): A1 ends at 50 with a POINTS_TRANSFER_OUT, B at 900 with a
// POINTS_TRANSFER_IN, each naming the other; a transfer beyond a source's
// balance moves nothing.
func TestLoyaltyTransferT2(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", false)
		partner := newProgram(t, f, "Partner", false)
		b := member(t, f, club, "bea", 700)
		a1 := member(t, f, partner, "abe", 250)
		got := must[*voucher.Voucher](t)(f.eng.Loyalties().Transfer(ctx, f.project, club.ID, b.Code, []loyalty.TransferParams{{Code: a1.Code, Points: 200, Reason: promotypePtr("move")}}))
		if got.ID != b.ID || got.LoyaltyCard.Balance != 900 || got.LoyaltyCard.Points != 900 {
			t.Errorf("destination after the transfer: %s %+v", got.Code, got.LoyaltyCard)
		}
		src := checkCard(t, f, a1.Code, 50)
		if deref(src.LoyaltyCard.SubtractedPoints) != 200 {
			t.Errorf("source subtracted points %v, want 200", src.LoyaltyCard.SubtractedPoints)
		}
		checkCard(t, f, b.Code, 900)
		out := must[*redemption.TransactionList](t)(f.eng.Loyalties().Transactions(ctx, f.project, "", a1.Code, redemption.TransactionListParams{})).Data[0]
		in := must[*redemption.TransactionList](t)(f.eng.Loyalties().Transactions(ctx, f.project, "", b.Code, redemption.TransactionListParams{})).Data[0]
		if out.Type != redemption.TxPointsTransferOut || in.Type != redemption.TxPointsTransferIn || *out.RelatedTransactionID != in.ID ||
			*in.RelatedTransactionID != out.ID || out.Details.DestinationVoucher.ID != b.ID || in.Details.SourceVoucher.ID != a1.ID ||
			*out.Details.Balance.Points != -200 || *in.Details.Balance.Points != 200 {
			t.Errorf("transactions: out %+v / %+v, in %+v / %+v", out, out.Details, in, in.Details)
		}
		_, err := f.eng.Loyalties().Transfer(ctx, f.project, club.ID, b.Code, []loyalty.TransferParams{{Code: a1.Code, Points: 51}})
		wantErr(t, err, 400, "loyalty_card_points_exceeded")
		_, err = f.eng.Loyalties().Transfer(ctx, f.project, club.ID, b.Code, []loyalty.TransferParams{{Code: a1.Code, Points: 10}, {Code: b.Code, Points: 1}})
		wantErr(t, err, 400, "invalid_payload")
		_, err = f.eng.Loyalties().Transfer(ctx, f.project, partner.ID, b.Code, []loyalty.TransferParams{{Code: a1.Code, Points: 10}})
		wantErr(t, err, 404, "not_found")
		checkCard(t, f, a1.Code, 50)
		checkCard(t, f, b.Code, 900)
	})
}

// Transfers both ways racing reward redemptions on two cards create and
// destroy no points: what the cards hold plus what they spent stays what
// they were given, no balance goes below zero, and each card's balance
// invariant holds (done when of the loyalty issue).
func TestLoyaltyTransfersRaceRedemptions(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		club := newProgram(t, f, "Club", false)
		x, y := member(t, f, club, "xia", 500), member(t, f, club, "yan", 500)
		rw := offer(t, f, club, `{"name":"Mug","parameters":{"product":{"id":"`+seedShop(t, f).mug.ID+`"}}}`, 100)
		errs := make([]error, 40)
		inParallel(t, 40, func(i int) {
			from, to := x, y
			if i%2 == 1 {
				from, to = y, x
			}
			if i%4 < 2 {
				_, errs[i] = f.eng.Loyalties().Transfer(ctx, f.project, club.ID, to.Code, []loyalty.TransferParams{{Code: from.Code, Points: 70}})
			} else {
				_, errs[i] = redeemReward(f, from, rw.ID)
			}
		})
		for i, err := range errs {
			if e := promotype.AsError(err); err != nil && (e == nil || e.Key != "loyalty_card_points_exceeded") {
				t.Errorf("call %d: %v", i, err)
			}
		}
		var held, spent int64
		for _, c := range []*voucher.Voucher{x, y} {
			got := must[*voucher.Voucher](t)(f.eng.Loyalties().Member(ctx, f.project, "", c.Code))
			lc := got.LoyaltyCard
			checkCard(t, f, c.Code, lc.Balance)
			if lc.Balance < 0 {
				t.Errorf("card %s below zero: %d", c.Code, lc.Balance)
			}
			held += lc.Balance
			spent += deref(got.Redemption.RedeemedPoints)
		}
		if held+spent != 1000 {
			t.Errorf("the cards hold %d and spent %d: %d points, want the 1000 they were given", held, spent, held+spent)
		}
	})
}

func promotypePtr(s string) *string { return promotype.Ptr(s) }
