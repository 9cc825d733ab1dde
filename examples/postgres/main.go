package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/examples/internal/tour"
	"github.com/promoengine/promo/storage/bunstore"
)

const envDatabaseURL = "PROMO_DATABASE_URL"

// errNoDSN is returned when PROMO_DATABASE_URL is not set.
var errNoDSN = errors.New(envDatabaseURL + " is not set; for example:\n" +
	"  " + envDatabaseURL + "=postgres://postgres@127.0.0.1:5432/test?sslmode=disable go run ./examples/postgres")

func main() {
	if err := run(context.Background(), os.Getenv(envDatabaseURL), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "postgres:", err)
		os.Exit(1)
	}
}

// run opens the database at dsn and walks through the engine over it.
func run(ctx context.Context, dsn string, w io.Writer) error {
	if dsn == "" {
		return errNoDSN
	}
	db, err := bunstore.Open(dsn)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer func() { _ = db.Close() }()
	return walk(ctx, db, w)
}

// walk migrates db (idempotent), builds an engine over it and runs the tour.
func walk(ctx context.Context, db *bun.DB, w io.Writer) error {
	if err := bunstore.Migrate(ctx, db); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	eng, err := promo.New(bunstore.New(db))
	if err != nil {
		return err
	}
	return tour.Run(ctx, eng, w)
}
