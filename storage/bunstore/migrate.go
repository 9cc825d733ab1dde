package bunstore

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/uptrace/bun"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrateLockKey is the first key of the advisory lock that serializes
// migrations ("prom"); the second is a hash of the target schema, so
// different schemas of one database migrate independently.
const migrateLockKey = 0x70726f6d

// Migrate brings the schema of db's current search_path up to date. It
// applies the embedded migrations (migrations/NNNN_name.sql) that
// promo_schema_migrations does not list yet, in name order, all in one
// transaction that holds a transaction-scoped advisory lock first. It is
// idempotent and safe to run from several processes at once: a second caller
// waits for the first and then finds nothing left to do. On a database with
// the citus extension (a Citus coordinator) each migration's new tables are
// then distributed by project_id or made reference tables (citus.go); the
// advisory lock is the coordinator's, where every migration runs. Its statements
// are not bounded by the query deadline of [Open] (a migration may take
// minutes): ctx's deadline bounds them.
func Migrate(ctx context.Context, db *bun.DB) error {
	ctx = withoutQueryDeadline(ctx)
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("bunstore: list migrations: %w", err)
	}
	slices.Sort(files)
	// Read committed: every statement after the lock sees what the
	// previous holder committed, whatever the server's default isolation.
	opts := &sql.TxOptions{Isolation: sql.LevelReadCommitted}
	err = db.RunInTx(ctx, opts, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?, hashtext(coalesce(current_schema(), '')))", migrateLockKey); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		citus, err := hasCitus(ctx, tx)
		if err != nil {
			return fmt.Errorf("detect citus: %w", err)
		}
		if citus {
			if err := citusSession(ctx, tx); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS promo_schema_migrations (
			version    text COLLATE "C" PRIMARY KEY,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return fmt.Errorf("create promo_schema_migrations: %w", err)
		}
		var applied []string
		if err := tx.NewSelect().Table("promo_schema_migrations").Column("version").Scan(ctx, &applied); err != nil {
			return fmt.Errorf("read promo_schema_migrations: %w", err)
		}
		for _, file := range files {
			version := strings.TrimSuffix(path.Base(file), ".sql")
			if slices.Contains(applied, version) {
				continue
			}
			script, err := migrations.ReadFile(file)
			if err != nil {
				return err
			}
			// The underlying *sql.Tx runs the script verbatim: Bun would
			// read any '?' in it as a placeholder.
			statements := []string{string(script)}
			if citus {
				statements = splitStatements(string(script))
			}
			for _, stmt := range statements {
				if _, err := tx.Tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("apply %s: %w", version, err)
				}
			}
			if citus {
				if err := distributeNew(ctx, tx); err != nil {
					return fmt.Errorf("apply %s: %w", version, err)
				}
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO promo_schema_migrations (version) VALUES (?)", version); err != nil {
				return fmt.Errorf("record %s: %w", version, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("bunstore: migrate: %w", err)
	}
	return nil
}

// MigrationState is what [MigrationStatus] finds in a schema.
type MigrationState struct {
	// Applied are the versions promo_schema_migrations records, in order.
	Applied []string
	// Pending are the migrations this build embeds that are not applied
	// yet, in the order [Migrate] would apply them.
	Pending []string
	// Unknown are applied versions this build does not embed: a newer
	// build migrated the schema, and this one must not serve it.
	Unknown []string
}

// Current reports whether the schema is exactly what this build expects:
// nothing pending and nothing unknown.
func (m MigrationState) Current() bool { return len(m.Pending) == 0 && len(m.Unknown) == 0 }

// MigrationStatus compares the migrations recorded in db's current
// search_path with the ones this build embeds, without changing anything
// (it needs no DDL rights). A schema never migrated has every migration
// pending.
func MigrationStatus(ctx context.Context, db *bun.DB) (MigrationState, error) {
	var st MigrationState
	embedded, err := embeddedVersions()
	if err != nil {
		return st, err
	}
	var exists bool
	if err := db.NewRaw("SELECT to_regclass('promo_schema_migrations') IS NOT NULL").Scan(ctx, &exists); err != nil {
		return st, fmt.Errorf("bunstore: migration status: %w", err)
	}
	if exists {
		if err := db.NewSelect().Table("promo_schema_migrations").Column("version").OrderExpr("version").Scan(ctx, &st.Applied); err != nil {
			return st, fmt.Errorf("bunstore: migration status: %w", err)
		}
	}
	for _, v := range embedded {
		if !slices.Contains(st.Applied, v) {
			st.Pending = append(st.Pending, v)
		}
	}
	for _, v := range st.Applied {
		if !slices.Contains(embedded, v) {
			st.Unknown = append(st.Unknown, v)
		}
	}
	return st, nil
}

// embeddedVersions are the versions of the embedded migrations, in the
// order Migrate applies them.
func embeddedVersions() ([]string, error) {
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, fmt.Errorf("bunstore: list migrations: %w", err)
	}
	slices.Sort(files)
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = strings.TrimSuffix(path.Base(f), ".sql")
	}
	return out, nil
}
