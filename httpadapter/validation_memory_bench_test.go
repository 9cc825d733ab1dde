package httpadapter_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkValidationInFlightMemory measures what a huge answer costs the
// server while it is being sent: 500 items against 1,000 matching tiers
// answer about 240 MB of JSON. inflight clients post at once over loopback
// and read only the headers, so each request sits in the server blocked on
// a full socket; the heap (Go's in-use heap bytes) and the process RSS are
// sampled until every request is in flight and for a while after, then the
// bodies are read to the end and checked. It reports the peak growth of
// each over the idle server, per request and in all.
func BenchmarkValidationInFlightMemory(b *testing.B) {
	for _, inflight := range []int{1, 8} {
		b.Run(fmt.Sprintf("items=500/tiers=1000/inflight=%d", inflight), func(b *testing.B) {
			h := newHarness(b)
			body := seedValidation(b, h, 500, 1000, 1000)
			srv := httptest.NewServer(h.handler)
			defer srv.Close()
			var heapPeak, rssPeak float64
			for b.Loop() {
				heap, rss := inFlightGrowth(b, srv.URL+"/v1/promotions/validation", body, inflight)
				heapPeak, rssPeak = max(heapPeak, heap), max(rssPeak, rss)
			}
			b.ReportMetric(heapPeak/float64(inflight)/(1<<20), "heap-MB/request")
			b.ReportMetric(heapPeak/(1<<20), "heap-MB")
			b.ReportMetric(rssPeak/(1<<20), "rss-MB")
		})
	}
}

// inFlightGrowth posts body inflight times at once, samples the peak heap
// and RSS growth while the answers are in flight, and reads them.
func inFlightGrowth(b *testing.B, url string, body []byte, inflight int) (heap, rss float64) {
	runtime.GC()
	heap0, rss0 := heapInUse(), residentBytes()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: inflight, DisableCompression: true}}
	defer client.CloseIdleConnections()
	resps := make(chan *http.Response, inflight)
	var wg sync.WaitGroup
	for range inflight {
		wg.Go(func() {
			r, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			if err != nil {
				b.Error(err)
				return
			}
			r.Header.Set("X-App-Id", appID)
			r.Header.Set("X-App-Token", appToken)
			r.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(r)
			if err != nil {
				b.Error(err)
				return
			}
			resps <- resp
		})
	}
	var heapMax, rssMax float64
	sample := func() {
		heapMax = max(heapMax, heapInUse()-heap0)
		rssMax = max(rssMax, residentBytes()-rss0)
	}
	// Sample until every answer has started (its headers are in), then
	// 100 times more over about a second: the servers stay blocked on the
	// sockets the clients do not read.
	deadline := time.Now().Add(2 * time.Minute)
	for len(resps) < inflight && time.Now().Before(deadline) {
		sample()
		time.Sleep(5 * time.Millisecond)
	}
	for range 100 {
		sample()
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	close(resps)
	for resp := range resps {
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || n < 100<<20 {
			b.Fatalf("status %d, %d bytes read: %v", resp.StatusCode, n, err)
		}
	}
	return heapMax, rssMax
}

func heapInUse() float64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse)
}

// residentBytes is the process's resident set (VmRSS), 0 where /proc is
// not available.
func residentBytes() float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb * 1024
		}
	}
	return 0
}
