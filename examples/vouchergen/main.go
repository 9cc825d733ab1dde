package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/memory"
)

func main() {
	storeName := flag.String("store", "memory", "memory or postgres (PROMO_DATABASE_URL)")
	n := flag.Int64("n", 1_000_000, "vouchers to generate")
	chunk := flag.Int("chunk", async.DefaultChunkSize, "vouchers per transaction")
	keep := flag.Bool("keep", false, "keep the PostgreSQL schema")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *storeName, os.Getenv("PROMO_DATABASE_URL"), *n, *chunk, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "vouchergen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, storeName, dsn string, n int64, chunk int, keep bool) error {
	var store storage.Store
	var db *bun.DB
	switch storeName {
	case "memory":
		store = memory.New()
	case "postgres":
		if dsn == "" {
			return fmt.Errorf("PROMO_DATABASE_URL is not set")
		}
		var err error
		var drop func() error
		if db, drop, err = openSchema(ctx, dsn); err != nil {
			return err
		}
		defer func() { _ = db.Close() }()
		if !keep {
			defer func() {
				if err := drop(); err != nil {
					fmt.Fprintln(os.Stderr, "vouchergen: drop schema:", err)
				}
			}()
		}
		store = bunstore.New(db)
	default:
		return fmt.Errorf("unknown store %q", storeName)
	}
	eng, err := promo.New(store)
	if err != nil {
		return err
	}
	p, err := eng.Projects().Create(ctx, project.Params{Name: "vouchergen"})
	if err != nil {
		return err
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	start := time.Now()
	c, err := eng.Campaigns().Create(ctx, p.ID, campaign.Params{
		Name:          promo.Ptr("Generated"),
		VouchersCount: &n,
		Voucher: &campaign.VoucherParams{
			Discount: &campaign.Discount{Type: campaign.DiscountPercent, PercentOff: promo.Ptr(promotype.NewDecimal("10"))},
		},
	})
	if err != nil {
		return err
	}
	if _, err := eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: chunk}); err != nil {
		return err
	}
	elapsed := time.Since(start)

	c, err = eng.Campaigns().Get(ctx, p.ID, c.ID)
	if err != nil {
		return err
	}
	_, _ = fmt.Fprintf(w, "store:       %s\n", storeName)
	_, _ = fmt.Fprintf(w, "campaign:    %s, %d vouchers\n", c.CreationStatus, c.VouchersCount)
	_, _ = fmt.Fprintf(w, "time:        %v (%.0f vouchers/s, chunks of %d)\n", elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), chunk)
	switch storeName {
	case "memory":
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		fmt.Fprintf(w, "heap:        %.1f MB kept, %.1f bytes a voucher\n",
			float64(after.HeapAlloc-before.HeapAlloc)/1e6, float64(after.HeapAlloc-before.HeapAlloc)/float64(n))
		runtime.KeepAlive(store)
	case "postgres":
		var rows, distinct int64
		if err := db.NewRaw("SELECT count(*), count(DISTINCT code) FROM promo_vouchers WHERE project_id = ?", p.ID).Scan(ctx, &rows, &distinct); err != nil {
			return err
		}
		fmt.Fprintf(w, "rows:        %d vouchers, %d distinct codes, %d duplicates\n", rows, distinct, rows-distinct)
	}
	if c.CreationStatus != campaign.StatusDone || c.VouchersCount != n {
		return fmt.Errorf("the generation did not end DONE with %d vouchers", n)
	}
	return nil
}

// openSchema opens dsn with a new schema first in the search path and
// migrates it; drop removes the schema.
func openSchema(ctx context.Context, dsn string) (*bun.DB, func() error, error) {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "promo_vouchergen_" + hex.EncodeToString(b)
	admin, err := bunstore.Open(dsn)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = admin.Close() }()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA ?", bun.Ident(schema)); err != nil {
		return nil, nil, err
	}
	withPath := dsn + " search_path=" + schema
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return nil, nil, err
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		withPath = u.String()
	}
	db, err := bunstore.Open(withPath)
	if err != nil {
		return nil, nil, err
	}
	if err := bunstore.Migrate(ctx, db); err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	drop := func() error {
		_, err := db.ExecContext(context.Background(), "DROP SCHEMA ? CASCADE", bun.Ident(schema))
		return err
	}
	return db, drop, nil
}
