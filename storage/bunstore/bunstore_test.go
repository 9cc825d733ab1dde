package bunstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/storagetest"
)

var ctx = context.Background()

var base = time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)

func at(minutes int) promotype.Time {
	return promotype.NewTime(base.Add(time.Duration(minutes) * time.Minute))
}

func ptr[T any](v T) *T { return &v }

func TestConformance(t *testing.T) {
	storagetest.Run(t, bunstoretest.New)
}

// migrated returns a migrated db in a fresh schema and a store over it.
func migrated(t *testing.T) (*bun.DB, *bunstore.Store) {
	t.Helper()
	db := bunstoretest.NewDB(t)
	if err := bunstore.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	return db, bunstore.New(db)
}

func product(projectID, id string, sourceID *string) *catalog.Product {
	return &catalog.Product{ID: id, ProjectID: projectID, SourceID: sourceID, Name: ptr("P " + id),
		Attributes: []string{}, Metadata: promotype.Metadata{}, CreatedAt: at(0)}
}

func sku(projectID, productID, id string, sourceID *string) *catalog.SKU {
	return &catalog.SKU{ID: id, ProjectID: projectID, ProductID: productID, SourceID: sourceID,
		Attributes: promotype.Metadata{}, Metadata: promotype.Metadata{}, CreatedAt: at(0)}
}

func wantKey(t *testing.T, what string, err error, sentinel *promotype.Error) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("%s: got %v, want %s", what, err, sentinel.Key)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A duplicate or not-found answer leaves the transaction usable, as in the
// memory store: PostgreSQL never raised an error inside it.
func TestErrorsDoNotAbortTransaction(t *testing.T) {
	_, s := migrated(t)
	must(t, s.InsertProduct(ctx, product("p", "prod_1", ptr("src"))))
	must(t, s.InsertSKU(ctx, sku("p", "prod_1", "sku_1", ptr("sku-src"))))
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		wantKey(t, "same id", tx.InsertProduct(ctx, product("p", "prod_1", nil)), promotype.ErrDuplicateFound)
		wantKey(t, "same source id", tx.InsertProduct(ctx, product("p", "prod_2", ptr("src"))), promotype.ErrDuplicateFound)
		wantKey(t, "same sku source id", tx.InsertSKU(ctx, sku("p", "prod_1", "sku_2", ptr("sku-src"))), promotype.ErrDuplicateFound)
		other := product("p", "prod_3", ptr("other"))
		if err := tx.InsertProduct(ctx, other); err != nil {
			return err
		}
		other.SourceID = ptr("src")
		wantKey(t, "update onto a taken source id", tx.UpdateProduct(ctx, other), promotype.ErrDuplicateFound)
		wantKey(t, "update missing", tx.UpdateProduct(ctx, product("p", "prod_9", nil)), promotype.ErrNotFound)
		wantKey(t, "bin missing", tx.BinProduct(ctx, "p", "prod_9", at(1)), promotype.ErrNotFound)
		return tx.InsertProduct(ctx, product("p", "prod_4", ptr("fourth")))
	})
	must(t, err)
	for _, id := range []string{"prod_3", "prod_4"} {
		if _, err := s.GetProduct(ctx, "p", id); err != nil {
			t.Errorf("%s after commit: %v", id, err)
		}
	}
	if got, _ := s.GetProduct(ctx, "p", "prod_3"); got != nil && *got.SourceID != "other" {
		t.Errorf("refused update changed the row: source id %q", *got.SourceID)
	}
}

// A unique clash that the guarded writes cannot see (the other row is not
// yet committed) is still duplicate_found: ON CONFLICT waits for the other
// transaction, and an UPDATE's unique violation (23505) is mapped.
func TestUniqueViolationRaceIsDuplicate(t *testing.T) {
	db, s := migrated(t)
	must(t, s.InsertProduct(ctx, product("p", "prod_1", ptr("mine"))))
	for _, tc := range []struct {
		name  string
		write func(src string) error
	}{
		{"insert", func(src string) error { return s.InsertProduct(ctx, product("p", "prod_x", ptr(src))) }},
		{"update", func(src string) error { return s.UpdateProduct(ctx, product("p", "prod_1", ptr(src))) }},
		{"sku insert", func(src string) error { return s.InsertSKU(ctx, sku("p", "prod_1", "sku_x", ptr(src))) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "raced-" + tc.name
			tx, err := db.BeginTx(ctx, nil)
			must(t, err)
			defer func() { _ = tx.Rollback() }()
			inTx := bunstore.New(tx)
			if tc.name == "sku insert" {
				must(t, inTx.InsertSKU(ctx, sku("p", "prod_1", "sku_first", ptr(src))))
			} else {
				must(t, inTx.InsertProduct(ctx, product("p", "prod_first_"+tc.name, ptr(src))))
			}
			done := make(chan error, 1)
			go func() { done <- tc.write(src) }() // waits on the uncommitted row
			time.Sleep(200 * time.Millisecond)
			must(t, tx.Commit())
			select {
			case err := <-done:
				wantKey(t, tc.name, err, promotype.ErrDuplicateFound)
			case <-time.After(10 * time.Second):
				t.Fatal("the racing write never returned")
			}
		})
	}
}

func TestBinAndDelete(t *testing.T) {
	_, s := migrated(t)
	must(t, s.InsertProduct(ctx, product("p", "prod_1", ptr("a"))))
	must(t, s.InsertProduct(ctx, product("p", "prod_2", ptr("b"))))
	must(t, s.InsertSKU(ctx, sku("p", "prod_1", "sku_1", ptr("s1"))))
	must(t, s.InsertSKU(ctx, sku("p", "prod_1", "sku_2", ptr("s2"))))
	must(t, s.InsertSKU(ctx, sku("p", "prod_2", "sku_3", ptr("s3"))))
	must(t, s.BinSKU(ctx, "p", "sku_2", at(1)))
	must(t, s.BinProduct(ctx, "p", "prod_1", at(2)))

	q := promotype.Query{Limit: 10, OrderBy: "created_at"}
	items, total, err := s.ListSKUs(ctx, "p", "", q)
	must(t, err)
	if total != 1 || len(items) != 1 || items[0].ID != "sku_3" {
		t.Fatalf("live SKUs after bin: %d %v", total, items)
	}
	// The SKUs of the other product and the source ids of binned rows are
	// untouched and free again.
	must(t, s.InsertProduct(ctx, product("p", "prod_3", ptr("a"))))
	must(t, s.InsertSKU(ctx, sku("p", "prod_3", "sku_4", ptr("s1"))))
	must(t, s.InsertSKU(ctx, sku("p", "prod_3", "sku_5", ptr("s2"))))
	// A live row can no longer be updated onto them... but a binned one is not a live row.
	wantKey(t, "update binned", s.UpdateProduct(ctx, product("p", "prod_1", ptr("zzz"))), promotype.ErrNotFound)

	must(t, s.DeleteProduct(ctx, "p", "prod_1"))
	for _, id := range []string{"sku_1", "sku_2"} {
		wantKey(t, "delete SKU of purged product", s.DeleteSKU(ctx, "p", id), promotype.ErrNotFound)
	}
	if _, err := s.GetSKU(ctx, "p", "sku_3"); err != nil {
		t.Errorf("another product's SKU: %v", err)
	}
}

// Text PostgreSQL cannot hold is refused with a 400 on write and is a plain
// miss on read, never a 500 and never a U+FFFD look-alike; either way the
// transaction goes on.
func TestUnstorableText(t *testing.T) {
	_, s := migrated(t)
	must(t, s.InsertProduct(ctx, product("p", "prod_1", ptr("\uFFFD"))))
	escaped := product("p", "prod_5", nil)
	escaped.Metadata = promotype.Metadata{`\u0000`: `a\u0000 \\u0000`} // backslashes, not NULs
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		wantKey(t, "NUL in a name", tx.InsertProduct(ctx, &catalog.Product{ID: "prod_2", ProjectID: "p", Name: ptr("a\x00b")}), promotype.ErrInvalidPayload)
		wantKey(t, "invalid UTF-8 source id", tx.InsertProduct(ctx, product("p", "prod_3", ptr("\xff"))), promotype.ErrInvalidPayload)
		_, err := tx.FindProductBySourceID(ctx, "p", "\xff")
		wantKey(t, "find by invalid UTF-8", err, promotype.ErrNotFound)
		_, err = tx.GetProduct(ctx, "p", "prod\x00")
		wantKey(t, "get with NUL", err, promotype.ErrNotFound)
		nul := product("p", "prod_4", nil)
		nul.Metadata = promotype.Metadata{"k": "a\x00"}
		wantKey(t, "NUL in metadata", tx.InsertProduct(ctx, nul), promotype.ErrInvalidPayload)
		nul.Metadata = promotype.Metadata{"k\x00": "a"}
		wantKey(t, "NUL in a metadata key", tx.InsertProduct(ctx, nul), promotype.ErrInvalidPayload)
		return tx.InsertProduct(ctx, escaped)
	})
	must(t, err)
	got, err := s.GetProduct(ctx, "p", escaped.ID)
	must(t, err)
	if got.Metadata[`\u0000`] != `a\u0000 \\u0000` {
		t.Errorf("escaped text round trip: %q", got.Metadata)
	}
}

// Nil and empty collections come back as they went in.
func TestNilAndEmptyRoundTrip(t *testing.T) {
	_, s := migrated(t)
	for _, ids := range [][]string{nil, {}} {
		k := &auth.ManagementKey{ID: fmt.Sprintf("mgmt-%v", ids == nil), ProjectIDs: ids, SecretHash: []byte{1}, CreatedAt: at(0)}
		must(t, s.InsertManagementKey(ctx, k))
		got, err := s.GetManagementKey(ctx, k.ID)
		must(t, err)
		if (got.ProjectIDs == nil) != (ids == nil) || len(got.ProjectIDs) != 0 {
			t.Errorf("project ids %#v came back as %#v", ids, got.ProjectIDs)
		}
	}
	p := &catalog.Product{ID: "prod_nil", ProjectID: "p", CreatedAt: at(0)} // nil attributes and metadata
	must(t, s.InsertProduct(ctx, p))
	got, err := s.GetProduct(ctx, "p", p.ID)
	must(t, err)
	if got.Attributes != nil || got.Metadata == nil || len(got.Metadata) != 0 {
		t.Errorf("nil attributes and metadata came back as %#v, %#v (want nil, {})", got.Attributes, got.Metadata)
	}
}

// New over a host application's transaction: every call joins it, RunInTx
// too, and the host's rollback undoes them.
func TestHostTransaction(t *testing.T) {
	db, s := migrated(t)
	tx, err := db.BeginTx(ctx, nil)
	must(t, err)
	inTx := bunstore.New(tx)
	must(t, inTx.RunInTx(ctx, func(ctx context.Context, st storage.Tx) error {
		return st.InsertProduct(ctx, product("p", "prod_1", nil))
	}))
	if _, err := inTx.GetProduct(ctx, "p", "prod_1"); err != nil {
		t.Fatalf("read own write: %v", err)
	}
	must(t, tx.Rollback())
	_, err = s.GetProduct(ctx, "p", "prod_1")
	wantKey(t, "after the host's rollback", err, promotype.ErrNotFound)
}

func TestListLimitZeroCounts(t *testing.T) {
	_, s := migrated(t)
	for i := range 3 {
		must(t, s.InsertProduct(ctx, product("p", fmt.Sprintf("prod_%d", i), nil)))
	}
	items, total, err := s.ListProducts(ctx, "p", promotype.Query{OrderBy: "created_at"})
	must(t, err)
	if len(items) != 0 || total != 3 {
		t.Errorf("limit 0: %d items, total %d; want 0, 3", len(items), total)
	}
}

// The same suite on a Citus cluster (PROMO_TEST_CITUS_DSN): every
// project-scoped table distributed by project_id.
func TestConformanceCitus(t *testing.T) {
	storagetest.Run(t, bunstoretest.NewCitus)
}
