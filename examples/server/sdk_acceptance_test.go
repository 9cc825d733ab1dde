package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/internal/server"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// sdkDir holds the JS SDK acceptance script and its package.json; `npm ci`
// there installs the official SDK (.ci/run does it when npm exists).
const sdkDir = "../../acceptance/js"

// TestSDKAcceptance runs the official Voucherify JS SDK (@voucherify/sdk,
// pinned in acceptance/js/package-lock.json) against the server: run serves
// a fresh memory store on a loopback port, and acceptance/js/acceptance.js
// drives it through the SDK as an application would (catalog, campaigns and
// their generated vouchers, vouchers, async actions, customers, orders,
// promotions, stackable validation, redemptions and rollbacks, validation
// rules, rewards, categories),
// reading every list through its hosted key; and campaign creation as the
// SDKs' own suites drive it: create, then at once add vouchers, import,
// update and delete). The script names each failing step; any failure fails
// the test. It runs on the memory store, and on a fresh PostgreSQL schema
// when PROMO_TEST_POSTGRES_DSN is set (there a generation takes long enough
// for the calls to meet it under way). Without node or the installed SDK the
// test is skipped, so that `go test ./...` needs Go only.
func TestSDKAcceptance(t *testing.T) {
	node := sdkNode(t)
	t.Run("memory", func(t *testing.T) { sdkAcceptance(t, node, "") })
	t.Run("postgres", func(t *testing.T) { sdkAcceptance(t, node, bunstoretest.NewDSN(t)) })
}

// TestSDKAcceptanceCitus is TestSDKAcceptance with the server over a Citus
// cluster (PROMO_TEST_CITUS_DSN; skipped when unset): the same script, the
// same answers. The URL plans prepared statements per execution, as
// bunstore.WithCitus does.
func TestSDKAcceptanceCitus(t *testing.T) {
	if bunstoretest.CitusDSN() == "" {
		t.Skip(bunstoretest.EnvCitusDSN + " is not set")
	}
	sdkAcceptance(t, sdkNode(t), bunstoretest.NewCitusStoreDSN(t)+"&plan_cache_mode=force_custom_plan")
}

// sdkNode returns the path of node, skipping the test without it or
// without the installed SDK.
func sdkNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the JS SDK acceptance test needs Node.js 18 or later")
	}
	if _, err := os.Stat(filepath.Join(sdkDir, "node_modules", "@voucherify", "sdk", "package.json")); err != nil {
		t.Skipf("the JS SDK is not installed: run `npm ci` in acceptance/js (%v)", err)
	}
	return node
}

// sdkAcceptance runs the acceptance script with node against the server
// over databaseURL (the memory store when "").
func sdkAcceptance(t *testing.T, node, databaseURL string) {
	script, err := filepath.Abs(filepath.Join(sdkDir, "acceptance.js"))
	if err != nil {
		t.Fatal(err)
	}

	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DatabaseURL = databaseURL
	cfg.AppID, cfg.AppToken = "sdk-acceptance-app", "sdk-acceptance-app-token"
	cfg.ClientID, cfg.ClientToken = "sdk-acceptance-client", "sdk-acceptance-client-token"
	cfg.ClientOrigins = []string{"https://shop.example"}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := server.Run(ctx, cfg, pw, slog.New(slog.DiscardHandler))
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	base := listeningURL(t, pr)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("run returned %v after shutdown, want nil", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("the server did not shut down")
		}
	}()

	// The script polls async actions for at most 10 s each; two minutes
	// bound the whole run even on a loaded machine.
	sctx, scancel := context.WithTimeout(ctx, 2*time.Minute)
	defer scancel()
	cmd := exec.CommandContext(sctx, node, script)
	cmd.Dir = filepath.Dir(script)
	cmd.Env = append(os.Environ(),
		"PROMO_API_URL="+base,
		"PROMO_APP_ID="+cfg.AppID,
		"PROMO_APP_TOKEN="+cfg.AppToken,
		"PROMO_CLIENT_ID="+cfg.ClientID,
		"PROMO_CLIENT_TOKEN="+cfg.ClientToken,
		"PROMO_CLIENT_ORIGIN="+cfg.ClientOrigins[0],
	)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if errors.Is(sctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("the SDK acceptance script did not finish in 2 minutes; its output:\n%s", out)
	}
	if err != nil {
		t.Fatalf("the SDK acceptance script failed (%v); its output:\n%s", err, out)
	}
	t.Logf("SDK acceptance output:\n%s", out)
}

// listeningURL reads the server's banner up to "listening on URL" and
// returns the URL.
func listeningURL(t *testing.T, r io.Reader) string {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if url, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
			return url
		}
	}
	t.Fatalf("the server stopped before listening: %v", sc.Err())
	return ""
}
