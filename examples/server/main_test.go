package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/storage/memory"
)

// TestServer starts the server on a free loopback port over the memory
// store, calls GET /v1/products with the credentials it printed, and shuts
// it down.
func TestServer(t *testing.T) {
	cfg := loadConfig(func(string) string { return "" })
	cfg.Addr = "127.0.0.1:0"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, cfg, pw, slog.New(slog.DiscardHandler))
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	vars, base := readBanner(t, pr)
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	for _, name := range []string{envProjectID, envAppID, envAppToken, envMgmtID, envMgmtToken} {
		if vars[name] == "" {
			t.Errorf("the banner does not print %s", name)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/products", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-App-Id", vars[envAppID])
	req.Header.Set("X-App-Token", vars[envAppToken])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET /v1/products: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /v1/products = %d %s, want 200", resp.StatusCode, body)
	}
	if !strings.Contains(string(body), `"object":"list"`) {
		t.Errorf("GET /v1/products body = %s, want a list", body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v after shutdown, want nil", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not shut down")
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
	cfg := config{ProjectID: "proj_fixed", AppID: "app-1", AppToken: "app-token-0123456789", MgmtID: "mgmt-1", MgmtToken: "mgmt-token-0123456789"}
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

	tests := []struct {
		name string
		edit func(*config)
		want string
	}{
		{"wrong app token", func(c *config) { c.AppToken = "another-token-0123456789" }, "PROMO_APP_ID app-1 already exists and PROMO_APP_TOKEN is not its token"},
		{"app id without token", func(c *config) { c.AppToken = "" }, "PROMO_APP_ID app-1 already exists: set PROMO_APP_TOKEN to its token"},
		{"wrong management token", func(c *config) { c.MgmtToken = "another-token-0123456789" }, "PROMO_MANAGEMENT_ID mgmt-1 already exists and PROMO_MANAGEMENT_TOKEN is not its token"},
		{"app key of another project", func(c *config) { c.ProjectID = "proj_other" }, "PROMO_APP_ID app-1 belongs to project proj_fixed, not to proj_other"},
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
	c.ProjectID, c.AppID, c.AppToken = "proj_second", "", ""
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
