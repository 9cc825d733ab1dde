package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// Size of the qualification benchmark's project (issue 16).
const (
	qualBenchCampaigns = 1000
	qualBenchPerCamp   = 100 // vouchers per campaign: 100,000 in all
	qualBenchTiers     = 1000
	qualBenchProducts  = 500
	qualBenchCart      = 20
	qualBenchHeld      = 10 // vouchers published to the customer
	qualBenchPublic    = 20 // standalone codes without holder
)

// BenchmarkQualificationsHTTP is POST /v1/qualifications, scenario ALL,
// over loopback TCP, one request at a time (p50 and p99 in ms), on a
// project of 100,000 vouchers in 1,000 campaigns, 1,000 promotion tiers
// (each requiring one of 500 products in the cart, so the 20-line cart
// matches 40 of them), a customer holding 10 of the vouchers and 20 public
// standalone codes: about 70 candidates, each validated alone. The page
// is the default one (5 redeemables) or 50 (each carries its 20-line
// order, so the answer is large). Seeding is fast: vouchers go in bulk
// through the store, tiers are copies of one. Memory store, and
// PostgreSQL (tables analyzed after the seeding) when
// PROMO_TEST_POSTGRES_DSN is set.
func BenchmarkQualificationsHTTP(b *testing.B) {
	for _, st := range benchStores() {
		b.Run(st.name, func(b *testing.B) {
			store, analyze := qualBenchStore(b, st)
			start := time.Now()
			eng, body := seedQualificationsHTTP(b, store)
			analyze()
			b.Logf("%s: seeded in %s", st.name, time.Since(start).Round(time.Millisecond))
			srv := newLoadServer(b, eng, 1)
			for _, limit := range []string{"default", "50"} {
				b.Run("limit="+limit, func(b *testing.B) {
					body := body
					if limit != "default" {
						body = strings.Replace(body, `"scenario":"ALL"`, `"scenario":"ALL","options":{"limit":`+limit+`}`, 1)
					}
					benchQualification(b, srv, body)
				})
			}
		})
	}
}

// benchQualification posts body one request at a time and reports the
// latencies, the CPU per request and how many redeemables came back. The
// answer is asked compressed, as an SDK does, and read raw (the client
// shares the two cores).
func benchQualification(b *testing.B, srv *loadServer, body string) {
	status, raw, _, err := srv.post("/v1/qualifications", body, false)
	if err != nil || status != http.StatusOK {
		b.Fatalf("status %d, %v: %.300s", status, err, raw)
	}
	var out struct {
		Redeemables struct {
			Data []json.RawMessage `json:"data"`
		} `json:"redeemables"`
	}
	if err := json.Unmarshal(raw, &out); err != nil || len(out.Redeemables.Data) == 0 {
		b.Fatalf("nothing qualifies (%v): %.300s", err, raw)
	}
	cpu0 := cpuTime()
	lat := runClients(b, 1, func(int64) (time.Duration, error) {
		status, raw, took, err := srv.post("/v1/qualifications", body, true)
		if err == nil && status != http.StatusOK {
			err = fmt.Errorf("status %d: %.300s", status, raw)
		}
		return took, err
	})
	cpu := cpuTime() - cpu0
	if len(lat) == 0 {
		return
	}
	reportLatency(b, lat)
	b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	b.ReportMetric(float64(len(out.Redeemables.Data)), "returned")
	b.ReportMetric(float64(len(raw))/1024, "answer-KiB")
}

// qualBenchStore returns the store of st and what brings its planner
// statistics up to date after the bulk seeding (ANALYZE on PostgreSQL,
// which autovacuum would run on a table of 100,000 new rows; nothing on
// memory).
func qualBenchStore(b *testing.B, st benchStore) (storage.Store, func()) {
	if st.name != "postgres" {
		return st.new(b), func() {}
	}
	db := bunstoretest.NewDB(b)
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		b.Fatal(err)
	}
	return bunstore.New(db), func() {
		if _, err := db.ExecContext(context.Background(), "ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
}

// seedQualificationsHTTP creates the benchmark's project and returns the
// engine and the qualification body.
func seedQualificationsHTTP(b *testing.B, store storage.Store) (*promo.Engine, string) {
	b.Helper()
	ctx := context.Background()
	eng, p := benchEngine(b, store)
	fail := func(err error) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
	}
	decode := func(s string, v any) {
		b.Helper()
		fail(json.Unmarshal([]byte(s), v))
	}
	phase := time.Now()
	lap := func(what string) {
		b.Logf("seed %s: %s", what, time.Since(phase).Round(time.Millisecond))
		phase = time.Now()
	}
	products := make([]string, qualBenchProducts)
	for i := range products {
		prod, err := eng.Catalog().CreateProduct(ctx, p, catalog.ProductParams{Name: promotype.Ptr(fmt.Sprintf("P%d", i)), Price: promotype.Ptr(int64(500 + i))})
		fail(err)
		products[i] = prod.ID
	}
	rules := make([]string, qualBenchProducts)
	for i, prod := range products {
		var rp rule.Params
		decode(`{"name":"has `+prod+`","rules":{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"`+prod+`","object":"product"}]}},"logic":"1"}}`, &rp)
		r, err := eng.ValidationRules().Create(ctx, p, rp)
		fail(err)
		rules[i] = r.ID
	}
	lap("products and rules")
	camp, err := eng.Campaigns().Create(ctx, p, campaign.Params{Name: promotype.Ptr("Bench promotions"), CampaignType: promotype.Ptr(campaign.Promotion)})
	fail(err)
	// One tier through the engine; the others are copies of it (and of
	// its rule assignment) inserted through the store: creating them one
	// by one re-presents the whole campaign each time.
	var tp campaign.TierParams
	decode(`{"name":"Tier 0","action":{"discount":{"type":"AMOUNT","amount_off":10}},"validation_rules":["`+rules[0]+`"]}`, &tp)
	first, err := eng.PromotionTiers().Create(ctx, p, camp.ID, tp)
	fail(err)
	tier, err := store.GetPromotionTier(ctx, p, first.ID)
	fail(err)
	as, _, err := store.ListAssignments(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at",
		Must: []promotype.Condition{{Field: "related_object_id", Op: promotype.OpIs, Values: []string{first.ID}}}})
	fail(err)
	fail(store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		for i := 1; i < qualBenchTiers; i++ {
			t := tier.Clone()
			t.ID, t.Name = fmt.Sprintf("promo_bench_%04d", i), fmt.Sprintf("Tier %d", i)
			t.Action.Discount.AmountOff = promotype.Ptr(promotype.NewDecimal(fmt.Sprint(10 + i%90)))
			if err := tx.InsertPromotionTier(ctx, t); err != nil {
				return err
			}
			a := *as[0]
			a.ID, a.RuleID, a.RelatedObjectID = fmt.Sprintf("asgm_bench_%04d", i), rules[i%len(rules)], t.ID
			if err := tx.InsertAssignment(ctx, &a); err != nil {
				return err
			}
		}
		return nil
	}))
	lap("tiers")
	// The first campaign generates one voucher: the template of every
	// voucher inserted in bulk.
	var template *voucher.Voucher
	for c := range qualBenchCampaigns {
		var cp campaign.Params
		count := 0
		if c == 0 {
			count = 1
		}
		decode(fmt.Sprintf(`{"name":"Coupons %d","vouchers_count":%d,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":%d}}}`, c, count, 5+c%20), &cp)
		cc, err := eng.Campaigns().Create(ctx, p, cp)
		fail(err)
		if c == 0 {
			_, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100})
			fail(err)
			vs, _, err := store.ListVouchers(ctx, p, promotype.Query{Limit: 1, OrderBy: "id"})
			fail(err)
			template = vs[0]
		}
		t := template.Clone()
		t.ID, t.Code, t.CampaignID = "", "", &cc.ID
		batch := &voucher.Batch{Template: t}
		for i := range qualBenchPerCamp - count {
			batch.Add(fmt.Sprintf("v_bench_%04d_%03d", c, i), fmt.Sprintf("BENCH-%04d-%03d", c, i))
		}
		fail(store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
			_, err := tx.InsertBatch(ctx, batch)
			return err
		}))
	}
	lap("campaigns and vouchers")
	for i := range qualBenchHeld {
		_, err := eng.Publications().Create(ctx, p, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promotype.Ptr(fmt.Sprintf("Coupons %d", i*7))},
			Customer: &customer.Params{SourceID: promotype.Ptr("bench-customer")}})
		fail(err)
	}
	for i := range qualBenchPublic {
		var vp voucher.Params
		decode(fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":%d}}`, 100+i), &vp)
		vp.Code = promotype.Ptr(fmt.Sprintf("PUBLIC%02d", i))
		_, err := eng.Vouchers().Create(ctx, p, vp)
		fail(err)
	}
	lap("publications and public codes")
	var lines []string
	for i := range qualBenchCart {
		lines = append(lines, fmt.Sprintf(`{"product_id":%q,"quantity":%d}`, products[i*(qualBenchProducts/qualBenchCart)], 1+i%3))
	}
	return eng, `{"customer":{"source_id":"bench-customer"},"scenario":"ALL","order":{"items":[` + strings.Join(lines, ",") + `]}}`
}
