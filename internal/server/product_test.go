package server

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// started is a server run by startServer: its banner's variables, its
// public URL and the text of its banner.
type started struct {
	vars   map[string]string
	base   string
	banner string
}

// startServer runs Run with cfg until the test ends (stopping it then and
// checking it stopped cleanly).
func startServer(t *testing.T, cfg Config) started {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Run(ctx, cfg, pw, slog.New(slog.DiscardHandler))
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	var banner strings.Builder
	vars, base := readBanner(t, io.TeeReader(pr, &banner))
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run returned %v after shutdown, want nil", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("the server did not shut down")
		}
	})
	return started{vars: vars, base: base, banner: banner.String()}
}

// get returns the status and body of GET url with the headers hdr.
func get(t *testing.T, url string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// With an admin address, /metrics moves there (with /healthz and
// /readyz) and leaves the public address, which keeps the API and health.
func TestAdminAddr(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr, cfg.AdminAddr = "127.0.0.1:0", "127.0.0.1:0"
	s := startServer(t, cfg)
	admin := s.vars["admin"]
	if admin == "" {
		t.Fatalf("the banner does not say where the admin address is:\n%s", s.banner)
	}
	app := map[string]string{"X-App-Id": s.vars[envAppID], "X-App-Token": s.vars[envAppToken]}
	tests := []struct {
		url  string
		hdr  map[string]string
		want int
	}{
		{s.base + "/v1/products", app, http.StatusOK},
		{s.base + "/healthz", nil, http.StatusOK},
		{s.base + "/metrics", nil, http.StatusNotFound}, // the API answers: no such endpoint
		{admin + "/metrics", nil, http.StatusOK},
		{admin + "/healthz", nil, http.StatusOK},
		{admin + "/readyz", nil, http.StatusOK},
		{admin + "/v1/products", app, http.StatusNotFound},
	}
	for _, tt := range tests {
		if code, body := get(t, tt.url, tt.hdr); code != tt.want {
			t.Errorf("GET %s = %d %.200s, want %d", tt.url, code, body, tt.want)
		}
	}
	if _, body := get(t, admin+"/metrics", nil); !strings.Contains(body, "go_goroutines") {
		t.Errorf("the admin /metrics lacks go_goroutines")
	}
}

// A keys file keeps the generated project and credentials: the next start
// reads them instead of generating more pairs, so the first token still
// works and nothing new is printed. Over PostgreSQL too (the restart case
// that used to add a key pair each time).
func TestKeysFile(t *testing.T) {
	stores := []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"memory", func(*testing.T) string { return "" }},
		{"postgres", func(t *testing.T) string { return bunstoretest.NewDSN(t) }},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Addr, cfg.DatabaseURL = "127.0.0.1:0", st.dsn(t)
			cfg.KeysFile = filepath.Join(t.TempDir(), "keys.env")
			first := runOnce(t, cfg)
			info, err := os.Stat(cfg.KeysFile)
			if err != nil {
				t.Fatalf("the keys file was not written: %v", err)
			}
			if info.Mode().Perm() != 0o600 {
				t.Errorf("keys file mode = %v, want 0600", info.Mode().Perm())
			}
			b, _ := os.ReadFile(cfg.KeysFile)
			if !bytes.Contains(b, []byte(envAppToken+"="+first.vars[envAppToken]+"\n")) {
				t.Errorf("the keys file lacks the generated app token:\n%s", b)
			}

			second := startServer(t, cfg)
			for _, name := range []string{envProjectID, envAppID, envMgmtID} {
				if second.vars[name] != first.vars[name] {
					t.Errorf("%s after a restart = %q, want the first start's %q", name, second.vars[name], first.vars[name])
				}
			}
			if second.vars[envAppToken] != "" {
				t.Errorf("the restart printed an app token: it generated a pair\n%s", second.banner)
			}
			app := map[string]string{"X-App-Id": first.vars[envAppID], "X-App-Token": first.vars[envAppToken]}
			if code, body := get(t, second.base+"/v1/products", app); code != http.StatusOK {
				t.Errorf("the first start's app key pair after a restart: GET /v1/products = %d %.200s", code, body)
			}
		})
	}
}

// runOnce starts the server with cfg and stops it, returning what it
// printed.
func runOnce(t *testing.T, cfg Config) started {
	t.Helper()
	var s started
	t.Run("first start", func(t *testing.T) { s = startServer(t, cfg) })
	return s
}

// The schema checks around serving: -migrate=false refuses pending
// migrations, `promo migrate up` applies them and `status` says so, and a
// schema with a migration this build does not know (a newer promo
// migrated it) is refused by serve and status alike.
func TestMigrateCommands(t *testing.T) {
	dsn := bunstoretest.NewDSN(t)
	ctx := context.Background()
	env := func(k string) string {
		if k == envDatabaseURL {
			return dsn
		}
		return ""
	}
	command := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := Command(ctx, args, env, &out, &out)
		return code, out.String()
	}
	cfg := DefaultConfig()
	cfg.Addr, cfg.DatabaseURL, cfg.Migrate = "127.0.0.1:0", dsn, false

	if code, out := command("migrate", "status"); code != 1 || !strings.Contains(out, "migrations are pending") {
		t.Errorf("migrate status on a fresh schema = %d %q, want 1 and pending migrations", code, out)
	}
	err := Run(ctx, cfg, io.Discard, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "pending") || !strings.Contains(err.Error(), "promo migrate up") {
		t.Errorf("serve -migrate=false on a fresh schema = %v, want a refusal naming promo migrate up", err)
	}
	if code, out := command("migrate", "up"); code != 0 || !strings.Contains(out, "pending: none") {
		t.Errorf("migrate up = %d %q, want 0 and nothing pending", code, out)
	}
	if code, out := command("migrate", "status"); code != 0 || !strings.Contains(out, "pending: none\nunknown to this build: none") {
		t.Errorf("migrate status after up = %d %q, want 0 and current", code, out)
	}
	t.Run("serve without DDL", func(t *testing.T) {
		s := startServer(t, cfg)
		if code, _ := get(t, s.base+"/readyz", nil); code != http.StatusOK {
			t.Errorf("GET /readyz = %d, want 200", code)
		}
	})

	db, err := bunstore.Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	if _, err := db.ExecContext(ctx, "INSERT INTO promo_schema_migrations (version) VALUES ('9999_from_a_newer_promo')"); err != nil {
		t.Fatal(err)
	}
	for _, migrate := range []bool{true, false} {
		cfg.Migrate = migrate
		err := Run(ctx, cfg, io.Discard, slog.New(slog.DiscardHandler))
		if err == nil || !strings.Contains(err.Error(), "migrated by a newer promo (9999_from_a_newer_promo") {
			t.Errorf("serve -migrate=%v on a newer schema = %v, want a refusal naming the unknown migration", migrate, err)
		}
	}
	if code, out := command("migrate", "status"); code != 1 || !strings.Contains(out, "unknown to this build: 9999_from_a_newer_promo") {
		t.Errorf("migrate status on a newer schema = %d %q, want 1 and the unknown version", code, out)
	}
	if code, out := command("migrate", "up"); code != 1 || !strings.Contains(out, "newer promo") {
		t.Errorf("migrate up on a newer schema = %d %q, want 1 and a refusal", code, out)
	}
}

// The command's dispatch: version, help, and the usage errors.
func TestCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"version"}, 0, "promo " + Version() + "\n"},
		{[]string{"-version"}, 0, "promo " + Version() + "\n"},
		{[]string{"serve", "-version"}, 0, "promo " + Version() + "\n"},
		{[]string{"help"}, 0, commandUsage},
		{nil, 2, commandUsage},
		{[]string{"frobnicate"}, 2, "promo: unknown command \"frobnicate\"\n\n" + commandUsage},
		{[]string{"migrate"}, 2, "promo migrate: want up or status\n\n" + commandUsage},
		{[]string{"migrate", "status"}, 2, "promo migrate status: set PROMO_DATABASE_URL (or -database-url): the memory store has no schema\n"},
		{[]string{"serve", "-addr"}, 2, ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		code := Command(context.Background(), tt.args, func(string) string { return "" }, &out, &out)
		if code != tt.code || (tt.want != "" && out.String() != tt.want) {
			t.Errorf("promo %v = %d %q, want %d %q", tt.args, code, out.String(), tt.code, tt.want)
		}
	}
}
