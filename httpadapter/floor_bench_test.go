package httpadapter_test

import (
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/storage/memory"
)

// BenchmarkHTTPFloor is BenchmarkRedeemHTTP without the engine: the same
// 32 clients post the same request over loopback TCP and read the answer
// of a real redemption, which a handler that only reads the request
// writes back through the adapter's gzip compression. It is what HTTP
// costs on this machine, clients included, whatever the engine does: the
// floor under BenchmarkRedeemHTTP/memory. "identity" asks the answer
// uncompressed.
func BenchmarkHTTPFloor(b *testing.B) {
	const clients = 32
	answer := redemptionAnswer(b)
	h := httpadapter.GzipWrapper(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	}))
	for _, encoding := range []string{"gzip", "identity"} {
		b.Run(encoding, func(b *testing.B) {
			srv := newLoadServerFor(b, h, clients)
			cpu0 := cpuTime()
			lat := runClients(b, clients, func(n int64) (time.Duration, error) {
				status, took, err := srv.postDrainAs("/v1/redemptions", redeemRequest(n, clients), encoding)
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

// redemptionAnswer is the body of the answer to one of
// BenchmarkRedeemHTTP's redemptions, made by the engine over HTTP.
func redemptionAnswer(b *testing.B) []byte {
	b.Helper()
	srv := newLoadServer(b, redeemEngine(b, memory.New(), 1), 1)
	status, answer, _, err := srv.post("/v1/redemptions", redeemRequest(1, 1), false)
	if err != nil || status != http.StatusOK {
		b.Fatalf("the redemption: %d %s %v", status, answer, err)
	}
	return answer
}
