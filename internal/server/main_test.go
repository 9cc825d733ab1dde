package server

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
)

// TestServer starts the server on a free loopback port over the memory
// store, calls GET /v1/products with the credentials it printed, checks
// /healthz, /readyz and /metrics, and shuts it down.
func TestServer(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	testServer(t, cfg)
}

// TestServerPostgres is TestServer over a fresh PostgreSQL schema, started
// twice: the restart without PROMO_PROJECT_ID serves the same project and
// says its keys are not shown again.
func TestServerPostgres(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DatabaseURL = bunstoretest.NewDSN(t)
	first, _ := testServer(t, cfg)
	second, banner := testServer(t, cfg)
	if first[envProjectID] == "" || second[envProjectID] != first[envProjectID] {
		t.Errorf("project after a restart = %q, want the first run's %q", second[envProjectID], first[envProjectID])
	}
	if !strings.Contains(banner, "stored hashed and not shown again") {
		t.Errorf("the restart banner does not say the keys are not shown again:\n%s", banner)
	}
}

// testServer runs the server with cfg, checks it and stops it; it returns
// the banner's variables and its text.
func testServer(t *testing.T, cfg Config) (map[string]string, string) {
	t.Helper()
	var s started
	t.Run("run", func(t *testing.T) {
		s = startServer(t, cfg)
		checkServer(t, cfg, s)
	})
	return s.vars, s.banner
}

// checkServer checks what a server started with cfg prints and serves.
func checkServer(t *testing.T, cfg Config, s started) {
	t.Helper()
	vars := s.vars
	for _, name := range []string{envProjectID, envAppID, envAppToken, envMgmtID, envMgmtToken} {
		if vars[name] == "" {
			t.Errorf("the banner does not print %s", name)
		}
	}
	fetch := func(path string, hdr map[string]string) (int, string) {
		t.Helper()
		return get(t, s.base+path, hdr)
	}
	code, body := fetch("/v1/products", map[string]string{"X-App-Id": vars[envAppID], "X-App-Token": vars[envAppToken]})
	if code != http.StatusOK || !strings.Contains(body, `"object":"list"`) {
		t.Errorf("GET /v1/products = %d %s, want 200 and a list", code, body)
	}
	if code, body := fetch("/healthz", nil); code != http.StatusOK {
		t.Errorf("GET /healthz = %d %s, want 200", code, body)
	}
	if code, body := fetch("/readyz", nil); code != http.StatusOK || !strings.Contains(body, `"status":"ok"`) {
		t.Errorf("GET /readyz = %d %s, want 200 ok", code, body)
	}
	code, body = fetch("/metrics", nil)
	if code != http.StatusOK {
		t.Errorf("GET /metrics = %d, want 200", code)
	}
	want := []string{`promo_http_requests_total{method="GET",route="/v1/products",status="200"} 1`,
		"promo_async_actions{", "promo_background_running{", "promo_promotion_snapshots ",
		"go_goroutines"}
	if cfg.DatabaseURL != "" {
		want = append(want, `go_sql_max_open_connections{db_name="promo"}`, "promo_webhook_outbox_events 0")
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("/metrics lacks %s", w)
		}
	}

}

// readBanner reads NAME=value lines up to "listening on URL" and returns
// them with the URL.
func readBanner(t *testing.T, r io.Reader) (map[string]string, string) {
	t.Helper()
	vars := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if url, ok := strings.CutPrefix(line, "listening on "); ok {
			return vars, url
		}
		if url, ok := strings.CutPrefix(line, "admin on "); ok {
			vars["admin"] = url
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		value, _, _ = strings.Cut(value, " ")
		vars[name] = value
	}
	t.Fatalf("the server stopped before listening: %v", sc.Err())
	return nil, ""
}

// TestBootstrapAgain runs bootstrap twice over one store, as a restart over
// PostgreSQL does: the given project and keys are reused, and a key id given
// with the wrong token is refused. It runs on the memory store and, when
// PROMO_TEST_POSTGRES_DSN is set, on PostgreSQL.
func TestBootstrapAgain(t *testing.T) {
	stores := []struct {
		name string
		open func(t *testing.T) storage.Store
	}{
		{"memory", func(*testing.T) storage.Store { return memory.New() }},
		{"postgres", func(t *testing.T) storage.Store { return bunstoretest.New(t) }},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) { testBootstrapAgain(t, st.open(t)) })
	}
}

func testBootstrapAgain(t *testing.T, store storage.Store) {
	ctx := context.Background()
	eng, err := promo.New(store)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{ProjectID: "proj_fixed", AppID: "app-1", AppToken: "app-token-0123456789", MgmtID: "mgmt-1", MgmtToken: "mgmt-token-0123456789",
		ClientOrigins: []string{"https://shop.example"}, ClientID: "client-1", ClientToken: "client-token-0123456789"}
	first, err := bootstrap(ctx, eng, cfg)
	if err != nil {
		t.Fatalf("first bootstrap: %v", err)
	}
	if first.ProjectID != cfg.ProjectID || first.App.ID != cfg.AppID || first.Management.ID != cfg.MgmtID {
		t.Fatalf("first bootstrap = %+v, want the configured ids", first)
	}
	if _, err := bootstrap(ctx, eng, cfg); err != nil {
		t.Fatalf("second bootstrap with the same configuration: %v", err)
	}
	if pid, err := eng.Auth().AuthenticateApp(ctx, cfg.AppID, cfg.AppToken); err != nil || pid != cfg.ProjectID {
		t.Errorf("AuthenticateApp after two bootstraps = %q, %v; want %q, nil", pid, err, cfg.ProjectID)
	}
	if pid, err := eng.Auth().AuthenticateClient(ctx, cfg.ClientID, cfg.ClientToken, "https://shop.example"); err != nil || pid != cfg.ProjectID {
		t.Errorf("AuthenticateClient after two bootstraps = %q, %v; want %q, nil", pid, err, cfg.ProjectID)
	}

	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"wrong app token", func(c *Config) { c.AppToken = "another-token-0123456789" }, "PROMO_APP_ID app-1 already exists and PROMO_APP_TOKEN is not its token"},
		{"app id without token", func(c *Config) { c.AppToken = "" }, "PROMO_APP_ID app-1 already exists: set PROMO_APP_TOKEN to its token"},
		{"wrong management token", func(c *Config) { c.MgmtToken = "another-token-0123456789" }, "PROMO_MANAGEMENT_ID mgmt-1 already exists and PROMO_MANAGEMENT_TOKEN is not its token"},
		{"wrong client token", func(c *Config) { c.ClientToken = "another-token-0123456789" }, "PROMO_CLIENT_ID client-1 already exists and PROMO_CLIENT_TOKEN is not its token"},
		{"app key of another project", func(c *Config) { c.ProjectID = "proj_other" }, "PROMO_APP_ID app-1 belongs to project proj_fixed, not to proj_other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			tt.edit(&c)
			_, err := bootstrap(ctx, eng, c)
			if err == nil || err.Error() != tt.want {
				t.Errorf("bootstrap = %v, want error %q", err, tt.want)
			}
		})
	}

	// A management key given again for a new project is granted it.
	c := cfg
	c.ProjectID, c.AppID, c.AppToken, c.ClientID, c.ClientToken = "proj_second", "", "", "", ""
	s, err := bootstrap(ctx, eng, c)
	if err != nil {
		t.Fatalf("bootstrap of a second project with the same management key: %v", err)
	}
	k, err := eng.Auth().AuthenticateManagement(ctx, cfg.MgmtID, cfg.MgmtToken)
	if err != nil || !k.Grants("proj_fixed") || !k.Grants("proj_second") {
		t.Errorf("management key after two projects = %+v, %v; want both granted", k, err)
	}
	if s.App.ID == "" || s.App.Secret == "" {
		t.Errorf("generated app key = %+v, want id and secret", s.App)
	}
}
