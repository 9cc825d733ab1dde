package bunstore_test

import (
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
	if len(versions) != 1 || versions[0] != "0001_init" {
		t.Errorf("recorded migrations: %v", versions)
	}
	var tables []string
	must(t, db.NewSelect().Table("pg_tables").Column("tablename").
		Where("schemaname = current_schema()").Order("tablename").Scan(ctx, &tables))
	want := []string{"promo_app_keys", "promo_locations", "promo_management_keys", "promo_products",
		"promo_projects", "promo_rewards", "promo_schema_migrations", "promo_skus"}
	if len(tables) != len(want) {
		t.Fatalf("tables: %v, want %v", tables, want)
	}
	for i := range want {
		if tables[i] != want[i] {
			t.Fatalf("tables: %v, want %v", tables, want)
		}
	}
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
	if n != 1 {
		t.Errorf("%d migrations recorded, want 1", n)
	}
}
