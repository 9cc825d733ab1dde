package httpadapter_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
)

// benchStore is a store a load benchmark runs on.
type benchStore struct {
	name string
	new  func(testing.TB) storage.Store
}

// benchStores are the memory store and, when PROMO_TEST_POSTGRES_DSN is
// set, PostgreSQL (and, with PROMO_TEST_CITUS_DSN, a Citus cluster).
func benchStores() []benchStore {
	s := []benchStore{{"memory", func(testing.TB) storage.Store { return memory.New() }}}
	if bunstoretest.DSN() != "" {
		s = append(s, benchStore{"postgres", bunstoretest.New})
	}
	if bunstoretest.CitusDSN() != "" {
		s = append(s, benchStore{"citus", bunstoretest.NewCitus})
	}
	return s
}

// benchEngine is an engine over store with one project whose app key is
// appID/appToken; it returns the engine and the project id.
func benchEngine(b *testing.B, store storage.Store, opts ...promo.Option) (*promo.Engine, string) {
	b.Helper()
	ctx := context.Background()
	eng, err := promo.New(store, opts...)
	if err != nil {
		b.Fatal(err)
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "Bench"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{ID: appID, Secret: appToken}); err != nil {
		b.Fatal(err)
	}
	return eng, p.ID
}

// loadServer serves eng over loopback TCP to a client that keeps one idle
// connection per concurrent client.
type loadServer struct {
	srv    *httptest.Server
	client *http.Client
}

func newLoadServer(b *testing.B, eng *promo.Engine, clients int) *loadServer {
	return newLoadServerFor(b, httpadapter.New(eng), clients)
}

// newLoadServerFor is newLoadServer serving h.
func newLoadServerFor(b *testing.B, h http.Handler, clients int) *loadServer {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = clients
	return &loadServer{srv: srv, client: client}
}

// post sends body to path with the app key and reads the whole answer; it
// returns the status, the answer and how long the round trip took. With
// gzip the answer is asked compressed (as an SDK does) and read raw.
func (s *loadServer) post(path, body string, gzip bool) (int, []byte, time.Duration, error) {
	req, _ := http.NewRequest(http.MethodPost, s.srv.URL+path, strings.NewReader(body))
	req.Header.Set("X-App-Id", appID)
	req.Header.Set("X-App-Token", appToken)
	req.Header.Set("Content-Type", "application/json")
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, 0, err
	}
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, raw, time.Since(start), err
}

// postDrain is post for a client that needs only the status: it asks the
// answer gzip-compressed (as Go's transport and the SDKs do), decompresses
// it and reads it to its end, but into buffers and a gzip reader it reuses
// (answerReaders), as a load generator running on its own machine would:
// io.ReadAll's buffer grown afresh for every answer and the transport's
// gzip reader wrapping every body in a new bufio.Reader cost the server's
// cores 16 KB per call here.
func (s *loadServer) postDrain(path, body string) (int, time.Duration, error) {
	return s.postDrainAs(path, body, "gzip")
}

// postDrainAs is postDrain asking the answer in encoding (gzip or
// identity).
func (s *loadServer) postDrainAs(path, body, encoding string) (int, time.Duration, error) {
	return s.postDrainWith(path, body, encoding, appID, appToken)
}

// postDrainWith is postDrainAs with the app key pair id/token.
func (s *loadServer) postDrainWith(path, body, encoding, id, token string) (int, time.Duration, error) {
	req, _ := http.NewRequest(http.MethodPost, s.srv.URL+path, strings.NewReader(body))
	req.Header.Set("X-App-Id", id)
	req.Header.Set("X-App-Token", token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", encoding)
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	a := answerReaders.Get().(*answerReader)
	err = a.drain(resp)
	answerReaders.Put(a)
	_ = resp.Body.Close()
	return resp.StatusCode, time.Since(start), err
}

// answerReader reads answers into buffers it keeps from one to the next.
type answerReader struct {
	br  *bufio.Reader
	zr  *gzip.Reader
	buf bytes.Buffer
}

var answerReaders = sync.Pool{New: func() any { return &answerReader{br: bufio.NewReader(nil)} }}

// drain reads resp's body to its end, decompressing a gzip one (which
// checks its CRC).
func (a *answerReader) drain(resp *http.Response) error {
	a.buf.Reset()
	var body io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		a.br.Reset(resp.Body)
		var err error
		if a.zr == nil {
			a.zr, err = gzip.NewReader(a.br)
		} else {
			err = a.zr.Reset(a.br)
		}
		if err != nil {
			return err
		}
		body = a.zr
	}
	_, err := a.buf.ReadFrom(body)
	return err
}

// runClients runs b.N calls of do spread over clients concurrent
// goroutines (one goroutine: one call after another); each goroutine gets
// its number, from 1. It returns the latencies do measured, sorted. A call
// that fails stops its goroutine.
func runClients(b *testing.B, clients int, do func(client int64) (time.Duration, error)) []time.Duration {
	var mu sync.Mutex
	var next int64
	var lat []time.Duration
	loop := func(pb interface{ Next() bool }) {
		mu.Lock()
		next++
		n := next
		mu.Unlock()
		var mine []time.Duration
		defer func() {
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
		for pb.Next() {
			took, err := do(n)
			if err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, took)
		}
	}
	b.ResetTimer()
	if clients == 1 {
		loop(loopNext{b})
	} else {
		b.SetParallelism((clients + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
		b.RunParallel(func(pb *testing.PB) { loop(pb) })
	}
	b.StopTimer()
	slices.Sort(lat)
	return lat
}

// loopNext is b.Loop as a pb.Next.
type loopNext struct{ b *testing.B }

func (l loopNext) Next() bool { return l.b.Loop() }

// reportCPU reports cpu, the CPU the process used over the benchmark's
// b.N operations (clients and server alike, cpuTime), per operation: two
// cores divided by it is the ceiling of the throughput on a quiet
// machine, a figure other processes distort far less than wall time.
func reportCPU(b *testing.B, cpu time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	}
}

// reportLatency reports the p50 and p99 of sorted latencies in ms.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}
