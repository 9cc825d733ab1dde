package promo_test

import (
	"context"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// exportBenchRows is how many vouchers BenchmarkExportVouchers exports:
// PROMO_BENCH_EXPORT_ROWS, 1,000,000 by default.
func exportBenchRows(b *testing.B) int {
	if v := os.Getenv("PROMO_BENCH_EXPORT_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("PROMO_BENCH_EXPORT_ROWS=%q: want a positive count", v)
		}
		return n
	}
	return 1_000_000
}

// heapSampler samples the heap in use (the bytes of spans holding objects:
// live and not yet swept objects plus the free slots of those spans, as
// runtime.MemStats.HeapInuse) every few milliseconds and keeps the peak.
type heapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

var heapMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/unused:bytes"}

func heapInuse(samples []metrics.Sample) uint64 {
	metrics.Read(samples)
	var n uint64
	for _, s := range samples {
		n += s.Value.Uint64()
	}
	return n
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{stop: make(chan struct{})}
	samples := make([]metrics.Sample, len(heapMetrics))
	for i, m := range heapMetrics {
		samples[i].Name = m
	}
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			h.peak = max(h.peak, heapInuse(samples))
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

// Stop stops the sampler and returns the peak.
func (h *heapSampler) Stop() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak
}

// BenchmarkExportVouchers exports a project's vouchers to CSV on
// PostgreSQL as POST /v1/exports does (default fields, newest first),
// running the job in the benchmark's goroutine, then downloads the file
// to io.Discard. The vouchers are seeded once with one INSERT ... SELECT
// generate_series, outside the timer. Reported: seconds to write the
// file, seconds to download it, and the peak growth of the heap in use
// over the heap before the export (sampled every 2 ms), in MB.
func BenchmarkExportVouchers(b *testing.B) {
	if bunstoretest.DSN() == "" {
		b.Skip(bunstoretest.EnvDSN + " is not set")
	}
	n := exportBenchRows(b)
	db := bunstoretest.NewDB(b)
	bctx := context.Background()
	if err := bunstore.Migrate(bctx, db); err != nil {
		b.Fatal(err)
	}
	eng, err := promo.New(bunstore.New(db))
	if err != nil {
		b.Fatal(err)
	}
	p, err := eng.Projects().Create(bctx, project.Params{Name: "Export bench"})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	// The *sql.DB under db runs it without the store's query deadline.
	if _, err := db.DB.ExecContext(bctx, `INSERT INTO promo_vouchers (project_id, id, code, campaign_id, type, active,
			is_referral_code, data, metadata, created_at)
		SELECT $1, 'v_' || lpad(i::text, 9, '0'), 'CODE-' || lpad(i::text, 9, '0'), 'camp_' || (i % 10),
			'DISCOUNT_VOUCHER', 'true', 'false', '{"discount":{"type":"AMOUNT","amount_off":1000}}', '{"n":1}',
			timestamptz '2026-01-01 00:00:00+00' + i * interval '1 millisecond'
		FROM generate_series(1, $2::bigint) AS i`, p.ID, n); err != nil {
		b.Fatal(err)
	}
	if _, err := db.DB.ExecContext(bctx, "ANALYZE promo_vouchers"); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d vouchers in %v", n, time.Since(start).Round(time.Millisecond))
	b.ResetTimer()
	var writeSecs, readSecs, peakMB float64
	for range b.N {
		runtime.GC()
		samples := make([]metrics.Sample, len(heapMetrics))
		for i, m := range heapMetrics {
			samples[i].Name = m
		}
		base := heapInuse(samples)
		sampler := startHeapSampler()
		t0 := time.Now()
		e, err := eng.Exports().Create(bctx, p.ID, export.CreateParams{ExportedObject: promotype.Ptr("voucher")})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.AsyncActions().RunPending(bctx, async.Config{}); err != nil {
			b.Fatal(err)
		}
		written := time.Since(t0)
		if e, err = eng.Exports().Get(bctx, p.ID, e.ID); err != nil || e.Status != export.StatusDone {
			b.Fatalf("export %v: %v", e, err)
		}
		t1 := time.Now()
		token := e.Result.URL[len(export.DownloadPath(e.ID, "")):]
		opened, err := eng.Exports().Open(bctx, e.ID, token)
		if err != nil {
			b.Fatal(err)
		}
		cw := &countingWriter{}
		if err := eng.Exports().WriteFile(bctx, opened, cw); err != nil {
			b.Fatal(err)
		}
		read := time.Since(t1)
		peak := sampler.Stop()
		growth := float64(0)
		if peak > base {
			growth = float64(peak-base) / (1 << 20)
		}
		if opened.Rows != int64(n) {
			b.Fatalf("exported %d rows, want %d", opened.Rows, n)
		}
		b.Logf("%d rows, %d chunks, %.1f MB of CSV: written in %v, downloaded in %v, peak heap growth %.1f MB",
			opened.Rows, opened.Chunks, float64(cw.n)/(1<<20), written.Round(time.Millisecond), read.Round(time.Millisecond), growth)
		writeSecs += written.Seconds()
		readSecs += read.Seconds()
		peakMB = max(peakMB, growth)
		if err := eng.Exports().Delete(bctx, p.ID, e.ID); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(writeSecs/float64(b.N), "write-s/op")
	b.ReportMetric(readSecs/float64(b.N), "download-s/op")
	b.ReportMetric(peakMB, "peak-heap-growth-MB")
}

// countingWriter discards what it is given and counts the bytes.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
