package bunstore_test

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	db := bunstoretest.NewDB(t)
	for range 2 {
		if err := bunstore.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	var versions []string
	must(t, db.NewSelect().Table("promo_schema_migrations").Column("version").Order("version").Scan(ctx, &versions))
	if want := migrationFiles(t); !slices.Equal(versions, want) {
		t.Errorf("recorded migrations: %v, want %v", versions, want)
	}
	var tables []string
	must(t, db.NewSelect().Table("pg_tables").Column("tablename").
		Where("schemaname = current_schema()").Order("tablename").Scan(ctx, &tables))
	// The tables of 0001_init; later migrations add their own.
	want := []string{"promo_app_keys", "promo_locations", "promo_management_keys", "promo_products",
		"promo_projects", "promo_rewards", "promo_schema_migrations", "promo_skus"}
	for _, w := range want {
		if !slices.Contains(tables, w) {
			t.Fatalf("tables: %v, want %v among them", tables, want)
		}
	}
}

// migrationFiles returns the versions of the migrations under migrations/,
// in order.
func migrationFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	must(t, err)
	var versions []string
	for _, f := range files {
		versions = append(versions, strings.TrimSuffix(filepath.Base(f), ".sql"))
	}
	slices.Sort(versions)
	return versions
}

// Several callers at once (as several processes starting together) all
// succeed: the advisory lock lets one migrate and the others find it done.
func TestMigrateConcurrently(t *testing.T) {
	db := bunstoretest.NewDB(t)
	const callers = 4
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = bunstore.Migrate(ctx, db)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("caller %d: %v", i, err)
		}
	}
	n, err := db.NewSelect().Table("promo_schema_migrations").Count(ctx)
	must(t, err)
	if want := len(migrationFiles(t)); int(n) != want {
		t.Errorf("%d migrations recorded, want %d", n, want)
	}
}
