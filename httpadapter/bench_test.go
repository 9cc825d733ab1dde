package httpadapter_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// discardWriter is a reusable ResponseWriter that keeps only the status.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(code int)        { w.status = code }

func (w *discardWriter) reset() {
	clear(w.header)
	w.status = 0
}

// BenchmarkGetReward is GET /v1/rewards/{id} through the handler on the
// memory store, authenticated with the key pair.
func BenchmarkGetReward(b *testing.B) {
	h := newHarness(b)
	h.seedRewards()
	r := httptest.NewRequest(http.MethodGet, "/v1/rewards/rew_00000000000000000005", nil)
	r.Header.Set("X-App-Id", appID)
	r.Header.Set("X-App-Token", appToken)
	w := &discardWriter{header: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		h.handler.ServeHTTP(w, r)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
}

const benchProductBody = `{"name":"Bench tee","price":2500,"attributes":["color","size"],"metadata":{"brand":"acme"},"image_url":"https://cdn.example.com/tee.png"}`

// BenchmarkCreateProduct is POST /v1/products (a new product each time):
// "handler" calls the handler directly, "server" goes over a loopback TCP
// connection with net/http's client and server.
func BenchmarkCreateProduct(b *testing.B) {
	b.Run("handler", func(b *testing.B) {
		h := newHarness(b)
		body := strings.NewReader(benchProductBody)
		r := httptest.NewRequest(http.MethodPost, "/v1/products", nil)
		r.Header.Set("X-App-Id", appID)
		r.Header.Set("X-App-Token", appToken)
		r.Header.Set("Content-Type", "application/json")
		w := &discardWriter{header: http.Header{}}
		b.ReportAllocs()
		for b.Loop() {
			body.Reset(benchProductBody)
			r.Body = io.NopCloser(body)
			w.reset()
			h.handler.ServeHTTP(w, r)
			if w.status != http.StatusOK {
				b.Fatalf("status %d", w.status)
			}
		}
	})
	b.Run("server", func(b *testing.B) {
		h := newHarness(b)
		srv := httptest.NewServer(h.handler)
		defer srv.Close()
		client := srv.Client()
		payload := []byte(benchProductBody)
		b.ReportAllocs()
		for b.Loop() {
			postOK(b, client, srv.URL+"/v1/products", payload)
		}
	})
}

// postOK posts body as JSON with the app key pair and fails unless the
// answer is 200; the response body is read and discarded.
func postOK(b *testing.B, client *http.Client, url string, body []byte) {
	r, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	r.Header.Set("X-App-Id", appID)
	r.Header.Set("X-App-Token", appToken)
	r.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(r)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
}
