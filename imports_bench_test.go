package promo_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/webhook"
)

// benchCSV is a CSV file of n rows made by row (header first).
func benchCSV(header string, n int, row func(i int) string) string {
	var b strings.Builder
	b.Grow(n * 48)
	b.WriteString(header + "\n")
	for i := range n {
		b.WriteString(row(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// BenchmarkImportCSV imports 100,000 rows of products and of vouchers from
// a CSV file (upload, then the action run to its end) on each store; the
// issue's target is 10 s on PostgreSQL. vouchers+webhook imports the
// vouchers with a webhook listening to voucher.created (each voucher's
// event built and stored in its chunk). Run with -benchtime=1x.
func BenchmarkImportCSV(b *testing.B) {
	const rows = 100_000
	vouchers := benchCSV("Code,Voucher Type,Value,Discount Type,Tier", rows, func(i int) string { return fmt.Sprintf("CODE-%07d,DISCOUNT_VOUCHER,10,PERCENT,gold", i) })
	importVouchers := func(eng *promo.Engine, projectID, csv string) (*async.Ref, error) {
		return eng.Imports().ImportVouchersCSV(ctx, projectID, strings.NewReader(csv))
	}
	files := []struct {
		name string
		csv  string
		run  func(eng *promo.Engine, projectID, csv string) (*async.Ref, error)
		hook bool
	}{
		{"products", benchCSV("name,source_id,price,color", rows, func(i int) string { return fmt.Sprintf("Product %d,src-%d,%d,red", i, i, 100+i%1000) }),
			func(eng *promo.Engine, projectID, csv string) (*async.Ref, error) {
				return eng.Imports().ImportProductsCSV(ctx, projectID, strings.NewReader(csv))
			}, false},
		{"vouchers", vouchers, importVouchers, false},
		{"vouchers+webhook", vouchers, importVouchers, true},
	}
	for name, newStore := range storeFactories {
		for _, f := range files {
			b.Run(name+"/"+f.name, func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					eng := must[*promo.Engine](b)(promo.New(newStore(b), promo.WithLogger(quietLogger())))
					p := must[*project.Project](b)(eng.Projects().Create(ctx, project.Params{Name: "bench"}))
					if f.hook {
						must[*webhook.Webhook](b)(eng.Webhooks().Create(ctx, p.ID, webhook.Params{
							TargetURL: promo.Ptr("https://hooks.example.com/bench"), Events: []string{"voucher.created"}}))
					}
					b.StartTimer()
					start := time.Now()
					ref := must[*async.Ref](b)(f.run(eng, p.ID, f.csv))
					enqueued := time.Since(start)
					if _, err := eng.AsyncActions().RunPending(ctx, async.Config{}); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					a := must[*async.Action](b)(eng.AsyncActions().Get(ctx, p.ID, ref.AsyncActionID))
					var res imports.Result
					if err := json.Unmarshal(a.Result, &res); err != nil || a.Status != async.StatusDone || res.DoneCount != rows {
						b.Fatalf("%s %s", a.Status, a.Result)
					}
					b.ReportMetric(enqueued.Seconds(), "upload-s")
					b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
					b.StartTimer()
				}
			})
		}
	}
}
