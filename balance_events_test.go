package promo_test

import (
	"testing"

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
	must[*redemption.Redemption](t)(red.Rollback(ctx, p, r.Redemptions[0].ID, redemption.RollbackParams{}))
	list()
	got = f.since(t, from)
	if len(got) != 2 || got[1].Type != "redemption.rollback.succeeded" {
		t.Fatalf("rollback events: %+v", got)
	}
	diff(t, "rollback: its transaction", ev("voucher.gift.transaction.created", ids[3], "voucher", "transaction="), got[0])
}
