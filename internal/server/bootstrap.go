package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/trace"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/memory"
)

// migrateTimeout bounds the schema migration at startup.
const migrateTimeout = 10 * time.Minute

// opened is the store the server serves, with what the server needs
// besides it.
type opened struct {
	store storage.Store
	db    *bun.DB // nil for the memory store
	close func() error
}

// openStore returns the memory store, or the PostgreSQL store when
// cfg.DatabaseURL is set: migrated when cfg.Migrate, else checked to have
// no migration pending; refused either way when a newer build migrated
// it. Bun's tracing hook is added when tp is set.
func openStore(ctx context.Context, cfg Config, tp trace.TracerProvider) (*opened, error) {
	if cfg.DatabaseURL == "" {
		return &opened{store: memory.New(), close: func() error { return nil }}, nil
	}
	db, err := openDB(cfg)
	if err != nil {
		return nil, err
	}
	instrumentDB(db, tp)
	if err := prepareSchema(ctx, db, cfg.Migrate); err != nil {
		_ = db.Close()
		return nil, err
	}
	return &opened{store: bunstore.New(db), db: db, close: db.Close}, nil
}

// openDB opens cfg.DatabaseURL.
func openDB(cfg Config) (*bun.DB, error) {
	db, err := bunstore.Open(cfg.DatabaseURL, bunstore.WithMaxConns(cfg.DBMaxConns))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", envDatabaseURL, err)
	}
	return db, nil
}

// prepareSchema makes sure this build can serve db's schema: it refuses a
// schema a newer build migrated, then applies the pending migrations
// (migrate) or refuses when one is pending (!migrate).
func prepareSchema(ctx context.Context, db *bun.DB, migrate bool) error {
	// Connecting is bounded by bunstore's connect timeout; the migration,
	// which may take minutes on a large database, by migrateTimeout.
	mctx, cancel := context.WithTimeout(ctx, migrateTimeout)
	defer cancel()
	st, err := bunstore.MigrationStatus(mctx, db)
	if err != nil {
		return fmt.Errorf("reading the migration status: %w", err)
	}
	if len(st.Unknown) > 0 {
		return fmt.Errorf("the database was migrated by a newer promo (%s unknown to %s): run that version or newer",
			strings.Join(st.Unknown, ", "), Version())
	}
	if len(st.Pending) == 0 {
		return nil
	}
	if !migrate {
		return fmt.Errorf("%d migrations are pending (%s first): run `promo migrate up` with a role that may change the schema, or serve with -migrate",
			len(st.Pending), st.Pending[0])
	}
	if err := bunstore.Migrate(mctx, db); err != nil {
		return fmt.Errorf("migrating the database: %w", err)
	}
	return nil
}

// existingProject returns the id of the single project of db when
// PROMO_PROJECT_ID is not set, so that a restart over PostgreSQL serves the
// same project instead of creating another; "" when there is none or no
// database. Several projects are an error: the server cannot guess.
func existingProject(ctx context.Context, db *bun.DB) (string, error) {
	if db == nil {
		return "", nil
	}
	var ids []string
	if err := db.NewSelect().Table("promo_projects").Column("id").OrderExpr("created_at, id").Limit(2).Scan(ctx, &ids); err != nil {
		return "", fmt.Errorf("reading the existing projects: %w", err)
	}
	switch len(ids) {
	case 0:
		return "", nil
	case 1:
		return ids[0], nil
	}
	return "", fmt.Errorf("the database holds several projects: set %s to the one to serve", envProjectID)
}

// setup is what bootstrap made or found: the project served and the
// credentials to use it. Tokens are empty when they came from the
// configuration (they are never printed back).
type setup struct {
	ProjectID  string
	App        auth.Credentials
	Management auth.Credentials
	Client     auth.Credentials // empty: no client origins configured

	generated map[string]bool // env var names whose value was generated
	reused    bool            // the project existed and PROMO_PROJECT_ID was not set
	keysFile  string          // where the generated credentials were written
}

// generatedAny reports whether bootstrap generated a project or a key pair.
func (s *setup) generatedAny() bool {
	for _, g := range s.generated {
		if g {
			return true
		}
	}
	return false
}

// bootstrap makes sure the configured project and key pairs exist, creating
// what is missing. Running it again with the same configuration (a restart
// over PostgreSQL) changes nothing; a configured key id that exists with
// another token is an error.
func bootstrap(ctx context.Context, eng *promo.Engine, cfg Config) (*setup, error) {
	s := &setup{generated: map[string]bool{}}
	var err error
	if s.ProjectID, err = ensureProject(ctx, eng, cfg.ProjectID); err != nil {
		return nil, err
	}
	s.generated[envProjectID] = cfg.ProjectID == ""

	s.App, err = ensureKey(ctx, keyKind{idVar: envAppID, tokenVar: envAppToken},
		auth.KeyParams{ID: cfg.AppID, Secret: cfg.AppToken},
		func(id, token string) error {
			pid, err := eng.Auth().AuthenticateApp(ctx, id, token)
			if err == nil && pid != s.ProjectID {
				return fmt.Errorf("%s %s belongs to project %s, not to %s", envAppID, id, pid, s.ProjectID)
			}
			return err
		},
		func(p auth.KeyParams) (auth.Credentials, error) { return eng.Auth().CreateAppKey(ctx, s.ProjectID, p) })
	if err != nil {
		return nil, err
	}

	s.Management, err = ensureKey(ctx, keyKind{idVar: envMgmtID, tokenVar: envMgmtToken},
		auth.KeyParams{ID: cfg.MgmtID, Secret: cfg.MgmtToken},
		func(id, token string) error {
			k, err := eng.Auth().AuthenticateManagement(ctx, id, token)
			if err != nil {
				return err
			}
			return eng.Auth().GrantProject(ctx, k.ID, s.ProjectID)
		},
		func(p auth.KeyParams) (auth.Credentials, error) {
			return eng.Auth().CreateManagementKey(ctx, p, s.ProjectID)
		})
	if err != nil {
		return nil, err
	}
	if len(cfg.ClientOrigins) > 0 {
		if s.Client, err = ensureClientKey(ctx, eng, s.ProjectID, cfg); err != nil {
			return nil, err
		}
		s.generated[envClientID], s.generated[envClientToken] = cfg.ClientID == "", cfg.ClientToken == ""
	}
	s.generated[envAppID], s.generated[envAppToken] = cfg.AppID == "", cfg.AppToken == ""
	s.generated[envMgmtID], s.generated[envMgmtToken] = cfg.MgmtID == "", cfg.MgmtToken == ""
	return s, nil
}

// ensureProject returns id when that project exists, else creates it (with
// a generated id when id is empty).
func ensureProject(ctx context.Context, eng *promo.Engine, id string) (string, error) {
	if id != "" {
		_, err := eng.Projects().Get(ctx, id)
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, promo.ErrNotFound) {
			return "", fmt.Errorf("reading project %s: %w", id, err)
		}
	}
	p, err := eng.Projects().Create(ctx, project.Params{ID: id, Name: "Default project"})
	if err != nil {
		return "", fmt.Errorf("creating project: %w", err)
	}
	return p.ID, nil
}

// keyKind names the two environment variables of one key pair.
type keyKind struct{ idVar, tokenVar string }

// ensureKey accepts an existing key pair (check returns nil for it) or
// creates one. An id that exists with another token is an error naming the
// variables to fix.
func ensureKey(ctx context.Context, kind keyKind, in auth.KeyParams, check func(id, token string) error, create func(auth.KeyParams) (auth.Credentials, error)) (auth.Credentials, error) {
	if in.ID != "" && in.Secret != "" {
		err := check(in.ID, in.Secret)
		if err == nil {
			return auth.Credentials(in), nil
		}
		if !errors.Is(err, promo.ErrUnauthorized) {
			return auth.Credentials{}, err
		}
	}
	c, err := create(in)
	if errors.Is(err, promo.ErrDuplicateFound) {
		if in.Secret == "" {
			return auth.Credentials{}, fmt.Errorf("%s %s already exists: set %s to its token", kind.idVar, in.ID, kind.tokenVar)
		}
		return auth.Credentials{}, fmt.Errorf("%s %s already exists and %s is not its token", kind.idVar, in.ID, kind.tokenVar)
	}
	if err != nil {
		return auth.Credentials{}, fmt.Errorf("creating %s: %w", kind.idVar, err)
	}
	return c, nil
}

// print writes the project and credentials in environment-variable form, so
// they can be pasted into a shell or a .env file. Configured tokens are not
// echoed.
func (s *setup) print(w io.Writer) {
	line := func(name, value string) {
		note := ""
		if s.generated[name] {
			note = " # generated"
		}
		fmt.Fprintf(w, "%s=%s%s\n", name, value, note)
	}
	line(envProjectID, s.ProjectID)
	if s.keysFile != "" {
		_, _ = fmt.Fprintf(w, "# the generated credentials are kept in %s (%s) for the next start\n", s.keysFile, envKeysFile)
	}
	if s.reused {
		_, _ = fmt.Fprintln(w, "# the project existed: its earlier keys are stored hashed and not shown again;")
		_, _ = fmt.Fprintln(w, "# set PROMO_APP_ID and PROMO_APP_TOKEN (and the management pair) to keep using them,")
		_, _ = fmt.Fprintln(w, "# or use the pairs generated below")
	}
	line(envAppID, s.App.ID)
	if s.generated[envAppToken] {
		line(envAppToken, s.App.Secret)
	}
	line(envMgmtID, s.Management.ID)
	if s.generated[envMgmtToken] {
		line(envMgmtToken, s.Management.Secret)
	}
	if s.Client.ID != "" {
		line(envClientID, s.Client.ID)
		if s.generated[envClientToken] {
			line(envClientToken, s.Client.Secret)
		}
	}
}

// ensureClientKey accepts the configured client key pair when it exists
// (checked from the first configured origin) or creates it with the
// configured origins. The origins of an existing pair are not changed
// (there is no update of a client key yet): give a new pair other origins.
func ensureClientKey(ctx context.Context, eng *promo.Engine, projectID string, cfg Config) (auth.Credentials, error) {
	return ensureKey(ctx, keyKind{idVar: envClientID, tokenVar: envClientToken},
		auth.KeyParams{ID: cfg.ClientID, Secret: cfg.ClientToken},
		func(id, token string) error {
			pid, err := eng.Auth().AuthenticateClient(ctx, id, token, cfg.ClientOrigins[0])
			if err == nil && pid != projectID {
				return fmt.Errorf("%s %s belongs to project %s, not to %s", envClientID, id, pid, projectID)
			}
			return err
		},
		func(p auth.KeyParams) (auth.Credentials, error) {
			_, creds, err := eng.Auth().CreateClientKey(ctx, projectID, auth.ClientKeyParams{KeyParams: p, Origins: cfg.ClientOrigins})
			return creds, err
		})
}

// printStatus writes db's migration status to w; an error when the schema
// is not current (pending or unknown migrations).
func printStatus(ctx context.Context, db *bun.DB, w io.Writer) error {
	st, err := bunstore.MigrationStatus(ctx, db)
	if err != nil {
		return err
	}
	_, _ = fmt.Fprintf(w, "promo %s: %d migrations applied\npending: %s\nunknown to this build: %s\n",
		Version(), len(st.Applied), joinOrNone(st.Pending), joinOrNone(st.Unknown))
	switch {
	case len(st.Unknown) > 0:
		return errors.New("the database was migrated by a newer promo")
	case len(st.Pending) > 0:
		return fmt.Errorf("%d migrations are pending: run `promo migrate up`", len(st.Pending))
	}
	return nil
}
