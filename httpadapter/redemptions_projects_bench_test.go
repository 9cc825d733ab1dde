package httpadapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/voucher"
)

// BenchmarkRedeemHTTPProjects is BenchmarkRedeemHTTP with its 32 clients
// spread over 16 projects (2 clients each, each with its own voucher and
// the project's own app key), so that on a Citus cluster the work lands on
// every shard of both workers (16 random project ids over the test
// stores' 4 shards, 2 per worker). On one machine the figure shows what
// distribution costs, not scale. BenchmarkValidateHTTPProjects is the
// same with POST /v1/validations of the same vouchers.
func BenchmarkRedeemHTTPProjects(b *testing.B) { benchProjects(b, "/v1/redemptions") }

func BenchmarkValidateHTTPProjects(b *testing.B) { benchProjects(b, "/v1/validations") }

// benchProjects posts path with the clients and projects of
// BenchmarkRedeemHTTPProjects.
func benchProjects(b *testing.B, path string) {
	const clients, projects = 32, 16
	for _, st := range benchStores() {
		b.Run(st.name, func(b *testing.B) {
			ctx := context.Background()
			eng, err := promo.New(st.new(b))
			if err != nil {
				b.Fatal(err)
			}
			keys := make([][2]string, projects)
			for i := range projects {
				p, err := eng.Projects().Create(ctx, project.Params{Name: fmt.Sprintf("Bench %d", i)})
				if err != nil {
					b.Fatal(err)
				}
				keys[i] = [2]string{fmt.Sprintf("app_bench_%02d", i), fmt.Sprintf("app-bench-token-%02d-0123456789", i)}
				if _, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{ID: keys[i][0], Secret: keys[i][1]}); err != nil {
					b.Fatal(err)
				}
				for j := range clients / projects {
					in := voucher.Params{Code: promo.Ptr(fmt.Sprintf("BENCH-%02d", j))}
					if err := json.Unmarshal([]byte(`{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`), &in); err != nil {
						b.Fatal(err)
					}
					if _, err := eng.Vouchers().Create(ctx, p.ID, in); err != nil {
						b.Fatal(err)
					}
				}
			}
			srv := newLoadServer(b, eng, clients)
			cpu0 := cpuTime()
			lat := runClients(b, clients, func(n int64) (time.Duration, error) {
				c := (n - 1) % clients
				key := keys[c%projects]
				body := fmt.Sprintf(`{"customer":{"source_id":"c%d"},"redeemables":[{"object":"voucher","id":"BENCH-%02d"}],"order":{"amount":10000}}`,
					n, c/projects)
				status, took, err := srv.postDrainWith(path, body, "gzip", key[0], key[1])
				if err == nil && status != http.StatusOK {
					err = fmt.Errorf("status %d", status)
				}
				return took, err
			})
			reportCPU(b, cpuTime()-cpu0)
			reportLatency(b, lat)
		})
	}
}
