package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemStackedMix is the mixed load of two server processes over
// one PostgreSQL: 30 clients, half on each of two engines (each with its
// own HTTP server over loopback TCP and its own connection pool, over one
// schema), send stacked redemptions of one quantity voucher (MIX-Q) and
// one gift card (MIX-G) in one request, and every third request rolls
// back the client's oldest redemption not rolled back yet
// (POST /v1/redemptions/{id}/rollbacks). It reports redemptions/s and
// rollbacks/s (answered 200), and the share of answers that were 503 and
// 500 (503-% and 500-%). "hot" is BenchmarkRedeemHotVoucher's PostgreSQL
// run in the same process, so that the two rates are measured under the
// same machine load. PostgreSQL only: skipped without
// PROMO_TEST_POSTGRES_DSN.
func BenchmarkRedeemStackedMix(b *testing.B) {
	if bunstoretest.DSN() == "" {
		b.Skip("the mixed load is a PostgreSQL benchmark: set " + bunstoretest.EnvDSN)
	}
	benchHotVoucher(b, "postgres/hot", bunstoretest.New, false)
	b.Run("postgres/mix", benchStackedMix)
}

// mixGiftCredits is the gift card's balance: enough for every redemption
// of a run (each takes mixCredits).
const mixGiftCredits, mixCredits = 1_000_000_000, 10

// benchStackedMix is the "mix" run of BenchmarkRedeemStackedMix.
func benchStackedMix(b *testing.B) {
	const clients = 30
	ctx := context.Background()
	stores := twoPools(b)
	eng, projectID := benchEngine(b, stores[0])
	other, err := promo.New(stores[1]) // the second server process
	if err != nil {
		b.Fatal(err)
	}
	for code, body := range map[string]string{
		"MIX-Q": `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"redemption":{"quantity":10000000}}`,
		"MIX-G": fmt.Sprintf(`{"type":"GIFT_VOUCHER","gift":{"amount":%d}}`, mixGiftCredits),
	} {
		in := voucher.Params{Code: &code}
		if err := json.Unmarshal([]byte(body), &in); err != nil {
			b.Fatal(err)
		}
		if _, err := eng.Vouchers().Create(ctx, projectID, in); err != nil {
			b.Fatal(err)
		}
	}
	servers := []*loadServer{newLoadServer(b, eng, clients), newLoadServer(b, other, clients)}
	var redeemed, rolledBack, unavailable, internal, total atomic.Int64
	var mu sync.Mutex
	open := map[int64][]string{} // by client: its parent redemptions not rolled back yet
	sent := map[int64]int{}      // by client: requests sent
	start := time.Now()
	lat := runClients(b, clients, func(n int64) (time.Duration, error) {
		srv := servers[n%2]
		mu.Lock()
		sent[n]++
		var target string
		if sent[n]%3 == 0 && len(open[n]) > 0 {
			target, open[n] = open[n][0], open[n][1:]
		}
		mu.Unlock()
		path := "/v1/redemptions"
		body := fmt.Sprintf(`{"customer":{"source_id":"mix-%d"},"redeemables":[{"object":"voucher","id":"MIX-Q"},`+
			`{"object":"voucher","id":"MIX-G","gift":{"credits":%d}}],"order":{"amount":10000}}`, n, mixCredits)
		if target != "" {
			path, body = "/v1/redemptions/"+target+"/rollbacks", `{}`
		}
		status, raw, took, err := srv.post(path, body, false)
		if err != nil {
			return took, err
		}
		total.Add(1)
		switch {
		case status == http.StatusOK && target != "":
			rolledBack.Add(1)
		case status == http.StatusOK:
			var res struct {
				Parent struct {
					ID string `json:"id"`
				} `json:"parent_redemption"`
			}
			if err := json.Unmarshal(raw, &res); err != nil || res.Parent.ID == "" {
				return took, fmt.Errorf("a stacked redemption without its parent: %v %s", err, raw)
			}
			redeemed.Add(1)
			mu.Lock()
			open[n] = append(open[n], res.Parent.ID)
			mu.Unlock()
		case status == http.StatusServiceUnavailable:
			unavailable.Add(1)
		case status == http.StatusInternalServerError:
			internal.Add(1)
		default:
			return took, fmt.Errorf("POST %s: status %d: %s", path, status, raw)
		}
		return took, nil
	})
	elapsed := time.Since(start).Seconds()
	b.ReportMetric(float64(redeemed.Load())/elapsed, "redemptions/s")
	b.ReportMetric(float64(rolledBack.Load())/elapsed, "rollbacks/s")
	share := func(n int64) float64 { return 100 * float64(n) / float64(max(total.Load(), 1)) }
	b.ReportMetric(share(unavailable.Load()), "503-%")
	b.ReportMetric(share(internal.Load()), "500-%")
	reportLatency(b, lat)

	// What the clients saw is what the ledger holds.
	q, err := eng.Vouchers().Get(ctx, projectID, "MIX-Q")
	if err != nil {
		b.Fatal(err)
	}
	g, err := eng.Vouchers().Get(ctx, projectID, "MIX-G")
	if err != nil {
		b.Fatal(err)
	}
	net := redeemed.Load() - rolledBack.Load()
	if q.RedeemedQuantity != net || g.Gift.Balance != mixGiftCredits-mixCredits*net {
		b.Errorf("MIX-Q redeemed %d, MIX-G balance %d; the clients saw %d redemptions and %d rollbacks (want %d and %d)",
			q.RedeemedQuantity, g.Gift.Balance, redeemed.Load(), rolledBack.Load(), net, mixGiftCredits-mixCredits*net)
	}
}

// twoPools are two stores over one fresh, migrated schema, each with its
// own connection pool (of the default size), as two server processes
// over one database have.
func twoPools(b *testing.B) [2]storage.Store {
	dsn := bunstoretest.NewDSN(b)
	var out [2]storage.Store
	for i := range out {
		db, err := bunstore.Open(dsn)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = db.Close() })
		if i == 0 {
			if err := bunstore.Migrate(context.Background(), db); err != nil {
				b.Fatal(err)
			}
		}
		out[i] = bunstore.New(db)
	}
	return out
}
