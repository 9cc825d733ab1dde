package promo_test

import (
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// Balance movements append their events in their transaction: every
// transaction voucher.gift.transaction.created (a loyalty card's
// voucher.loyalty_card.transaction.created), a manual addition also
// voucher.gift.balance_aded (voucher.loyalty_card.points_aded); a
// redemption's or rollback's transaction event comes before its
// redemption event; a refused change appends none.
func TestBalanceEvents(t *testing.T) {
	f := newOutboxFixture(t)
	e, p := f.eng, f.project
	in := js[voucher.Params](t, `{"type":"GIFT_VOUCHER","gift":{"amount":1000}}`)
	in.Code = ptrTo("EVGIFT")
	card := must[*voucher.Voucher](t)(e.Vouchers().Create(ctx, p, in))
	red := e.Redemptions()
	var ids []string
	list := func() {
		page := must[*redemption.TransactionList](t)(red.Transactions(ctx, p, "EVGIFT", redemption.TransactionListParams{Order: "id", Limit: 100}))
		ids = ids[:0]
		for _, tr := range page.Data {
			ids = append(ids, tr.ID)
		}
	}
	from := f.count()
	must[*redemption.Balance](t)(red.AddBalance(ctx, p, "EVGIFT", redemption.BalanceParams{Amount: ptrTo[int64](500)}))
	list()
	diff(t, "addition", []outboxEvent{
		ev("voucher.gift.transaction.created", ids[0], "voucher", "transaction="),
		ev("voucher.gift.balance_aded", card.ID, "voucher", "balance", "transaction="),
	}, f.since(t, from))

	from = f.count()
	must[*redemption.Balance](t)(red.AddBalance(ctx, p, "EVGIFT", redemption.BalanceParams{Amount: ptrTo[int64](-200)}))
	list()
	diff(t, "removal", []outboxEvent{ev("voucher.gift.transaction.created", ids[1], "voucher", "transaction=")}, f.since(t, from))

	from = f.count()
	_, err := red.AddBalance(ctx, p, "EVGIFT", redemption.BalanceParams{Amount: ptrTo[int64](-5000)})
	wantErr(t, err, 400, "invalid_add_balance_params")
	diff(t, "a refused removal", []outboxEvent{}, f.since(t, from))

	from = f.count()
	r := must[*redemption.Redemptions](t)(red.Redeem(ctx, p, js[redemption.ValidationParams](t,
		`{"redeemables":[{"object":"voucher","id":"EVGIFT","gift":{"credits":300}}],"order":{"amount":1000}}`), redemption.RedeemOptions{}))
	list()
	got := f.since(t, from)
	if len(got) != 2 || got[1].Type != "redemption.succeeded" {
		t.Fatalf("redemption events: %+v", got)
	}
	diff(t, "redemption: its transaction", ev("voucher.gift.transaction.created", ids[2], "voucher", "transaction="), got[0])
	from = f.count()
	must[*redemption.RollbackStack](t)(red.Rollback(ctx, p, r.Redemptions[0].ID, redemption.RollbackParams{}))
	list()
	got = f.since(t, from)
	if len(got) != 2 || got[1].Type != "redemption.rollback.succeeded" {
		t.Fatalf("rollback events: %+v", got)
	}
	diff(t, "rollback: its transaction", ev("voucher.gift.transaction.created", ids[3], "voucher", "transaction="), got[0])
}

// A loyalty card's manual changes append the loyalty events.
func TestLoyaltyBalanceEvents(t *testing.T) {
	f := newOutboxFixture(t)
	e, p := f.eng, f.project
	camp := must[*campaign.Campaign](t)(e.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Loyalty","campaign_type":"LOYALTY_PROGRAM","voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}}`))).ID
	if _, err := e.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10}); err != nil {
		t.Fatal(err)
	}
	in := js[voucher.Params](t, `{"type":"LOYALTY_CARD","loyalty_card":{"points":100}}`)
	in.Code, in.CampaignID = ptrTo("EVCARD"), &camp
	card := must[*voucher.Voucher](t)(e.Vouchers().Create(ctx, p, in))
	holder := must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: ptrTo("holder")}))
	stored := must[*voucher.Voucher](t)(f.store.GetVoucher(ctx, p, card.ID))
	stored.HolderID = &holder.ID // as a publication sets it
	if err := f.store.UpdateVoucher(ctx, stored); err != nil {
		t.Fatal(err)
	}
	from := f.count()
	b := must[*redemption.Balance](t)(e.Redemptions().AddBalance(ctx, p, "EVCARD", redemption.BalanceParams{Amount: ptrTo[int64](40)}))
	diff(t, "the answer", []any{int64(40), int64(140), int64(140), "loyalty_card"}, []any{*b.Amount, b.Total, b.Balance, b.Type})
	page := must[*redemption.TransactionList](t)(e.Redemptions().Transactions(ctx, p, card.ID, redemption.TransactionListParams{}))
	diff(t, "events", []outboxEvent{
		ev("voucher.loyalty_card.transaction.created", page.Data[0].ID, "voucher", "transaction="),
		ev("voucher.loyalty_card.points_aded", card.ID, "voucher", "balance", "transaction="),
	}, f.since(t, from))
}
