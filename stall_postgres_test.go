package promo_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
)

// stallProxy forwards TCP connections to target until stall is called;
// from then on it forwards nothing and answers nothing, as a database
// that hangs or a network that drops its packets.
type stallProxy struct {
	ln      net.Listener
	target  string
	stalled chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   []net.Conn
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target, stalled: make(chan struct{})}
	p.wg.Go(p.accept)
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) stall() { p.once.Do(func() { close(p.stalled) }) }

func (p *stallProxy) track(c net.Conn) {
	p.mu.Lock()
	p.conns = append(p.conns, c)
	p.mu.Unlock()
}

func (p *stallProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(c)
		select {
		case <-p.stalled:
			continue // accepted, never answered
		default:
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		p.track(s)
		p.wg.Go(func() { p.pump(s, c) })
		p.wg.Go(func() { p.pump(c, s) })
	}
}

// pump copies from src to dst until the proxy stalls.
func (p *stallProxy) pump(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		select {
		case <-p.stalled:
			return // what was read is dropped; the peer waits for ever
		default:
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *stallProxy) close() {
	_ = p.ln.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// A database that stops answering fails requests quickly with 503
// service_unavailable and Retry-After, in the hosted API's Error shape, instead
// of holding them for ever.
func TestStalledDatabaseAnswers503(t *testing.T) {
	db := bunstoretest.NewDB(t)
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := db.QueryRowContext(context.Background(), "SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(bunstoretest.DSN())
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Skip("the test needs a URL DSN")
	}
	target := u.Host
	if u.Port() == "" {
		target = net.JoinHostPort(u.Hostname(), "5432")
	}
	proxy := newStallProxy(t, target)
	u.Host = proxy.ln.Addr().String()
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	viaProxy, err := bunstore.Open(u.String(), bunstore.WithQueryTimeout(time.Second), bunstore.WithConnectTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = viaProxy.Close() })
	eng, err := promo.New(bunstore.New(viaProxy, bunstore.WithTxTimeout(2*time.Second)), promo.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := eng.Projects().Create(ctx, project.Params{Name: "Shop"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Auth().CreateAppKey(ctx, p.ID, auth.KeyParams{ID: "app", Secret: "app-secret-0123456789"}); err != nil {
		t.Fatal(err)
	}
	h := httpadapter.New(eng, httpadapter.WithRequestIDFunc(func() string { return "v-1" }))
	get := func(path string) *httptest.ResponseRecorder {
		r := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
		r.Header.Set("X-App-Id", "app")
		r.Header.Set("X-App-Token", "app-secret-0123456789")
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { defer close(done); h.ServeHTTP(rec, r) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("GET %s still waits after 30s on a stalled database", path)
		}
		return rec
	}
	if rec := get("/v1/products"); rec.Code != http.StatusOK {
		t.Fatalf("before the stall: %d %s", rec.Code, rec.Body)
	}
	proxy.stall()
	for _, path := range []string{"/v1/products", "/v1/campaigns"} {
		rec := get(path)
		var body map[string]any
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		want := map[string]any{"code": 503.0, "key": "service_unavailable", "message": "Service unavailable",
			"details": "The database did not answer in time or cannot be reached; retry later", "request_id": "v-1"}
		if d := cmp.Diff(want, body); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || d != "" {
			t.Errorf("GET %s on a stalled database: %d, Retry-After %q (-want +got):\n%s", path, rec.Code, rec.Header().Get("Retry-After"), d)
		}
	}
}

// Opening and migrating a database that accepts connections but never
// answers fails within the connect timeout: startup does not hang.
func TestOpenSilentDatabaseDoesNotHang(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // accepted, never answered
			mu.Unlock()
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		for _, c := range held {
			_ = c.Close()
		}
		mu.Unlock()
	})
	db, err := bunstore.Open("postgres://u@"+ln.Addr().String()+"/db?sslmode=disable", bunstore.WithConnectTimeout(500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	done := make(chan error, 1)
	go func() { done <- bunstore.Migrate(context.Background(), db) }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Migrate succeeded against a silent server")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Migrate still waits after 30s on a server that never answers")
	}
}
