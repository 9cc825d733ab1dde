package promo_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkLoyaltyPagesPostgres measures the pages a loyalty dashboard
// reads on a program of PROMO_BENCH_MEMBERS members (default 100,000),
// each with one transaction, on PostgreSQL: the first page of the members
// list, its 100th page, the program's first page of transactions, a page
// after a cursor, and one member's transactions. The seed (cards and
// transactions copied by SQL from one member made through the API) is not
// timed; each sub-benchmark's ns/op is the time of one page of 100.
func BenchmarkLoyaltyPagesPostgres(b *testing.B) {
	n := envInt("PROMO_BENCH_MEMBERS", 100_000)
	bctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	db, eng, p, club, card := benchMember(b, bctx, nil, `{"name":"Club","type":"AUTO_UPDATE"}`, 10)
	l := eng.Loyalties()
	seed := []string{
		fmt.Sprintf(`INSERT INTO promo_vouchers (project_id, id, code, campaign_id, category_id, type, active, is_referral_code, holder_id,
			referrer_id, start_date, expiration_date, redemption_quantity, redeemed_quantity, publish_count, data, metadata, created_at, updated_at)
		SELECT project_id, id || '-' || g, code || '-' || g, campaign_id, category_id, type, active, is_referral_code, holder_id,
			referrer_id, start_date, expiration_date, redemption_quantity, redeemed_quantity, publish_count, data, metadata,
			created_at + g * interval '1 millisecond', updated_at
		FROM promo_vouchers, generate_series(1, %d) AS g WHERE id = '%s'`, n-1, card.ID),
		fmt.Sprintf(`INSERT INTO promo_voucher_transactions (project_id, id, voucher_id, campaign_id, created_at, doc)
		SELECT t.project_id, t.id || '-' || g, t.voucher_id || '-' || g, t.campaign_id, t.created_at + g * interval '1 millisecond',
			jsonb_set(jsonb_set(t.doc, '{id}', to_jsonb(t.id || '-' || g)), '{voucher_id}', to_jsonb(t.voucher_id || '-' || g))
		FROM promo_voucher_transactions AS t, generate_series(1, %d) AS g WHERE t.voucher_id = '%s'`, n-1, card.ID),
		`ANALYZE promo_vouchers`, `ANALYZE promo_voucher_transactions`,
	}
	for _, q := range seed {
		if _, err := db.DB.ExecContext(bctx, q); err != nil { // not through Bun: the store puts a deadline on its statements
			b.Fatal(err)
		}
	}
	first, err := l.ProgramTransactions(bctx, p.ID, club.ID, redemption.TransactionListParams{Limit: 100})
	if err != nil || len(first.Data) != 100 {
		b.Fatalf("program transactions: %v (%d)", err, len(first.Data))
	}
	for _, bc := range []struct {
		name string
		page func() (int, error)
	}{
		{"members_first_page", func() (int, error) {
			r, err := l.ListMembers(bctx, p.ID, club.ID, voucher.ListParams{ListParams: promotype.ListParams{Limit: 100}})
			return lenOf(r, err)
		}},
		{"members_page_100", func() (int, error) {
			r, err := l.ListMembers(bctx, p.ID, club.ID, voucher.ListParams{ListParams: promotype.ListParams{Limit: 100, Page: 100}})
			return lenOf(r, err)
		}},
		{"program_transactions_first_page", func() (int, error) {
			r, err := l.ProgramTransactions(bctx, p.ID, club.ID, redemption.TransactionListParams{Limit: 100})
			if err != nil {
				return 0, err
			}
			return len(r.Data), nil
		}},
		{"program_transactions_after_cursor", func() (int, error) {
			r, err := l.ProgramTransactions(bctx, p.ID, club.ID, redemption.TransactionListParams{Limit: 100, StartingAfterID: first.Data[99].ID})
			if err != nil {
				return 0, err
			}
			return len(r.Data), nil
		}},
		{"member_transactions", func() (int, error) {
			r, err := l.Transactions(bctx, p.ID, club.ID, card.Code+"-777", redemption.TransactionListParams{Limit: 100})
			if err != nil {
				return 0, err
			}
			return len(r.Data) + 99, nil // one transaction per member
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				got, err := bc.page()
				if err != nil || got != 100 {
					b.Fatalf("%d items, %v", got, err)
				}
			}
		})
	}
}

func lenOf(l *promotype.List[*voucher.Voucher], err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return len(l.Data), nil
}
