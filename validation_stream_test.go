package promo_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/promotion"
)

// writeSizes is a ResponseWriter that records the size of each Write.
type writeSizes struct {
	*httptest.ResponseRecorder
	sizes []int
}

func (w *writeSizes) Write(p []byte) (int, error) {
	w.sizes = append(w.sizes, len(p))
	return w.ResponseRecorder.Write(p)
}

// A big validation (many tiers of a big cart) is written in pieces of
// bounded size, never built whole, and gzip-compressed when the client
// accepts it; both give the bytes encoding/json would.
func TestValidationStreamsAndCompresses(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		c := promotionCampaign(t, f, "Many")
		const tiers, lines = 30, 150
		for i := range tiers {
			must[*campaign.PromotionTier](t)(f.eng.PromotionTiers().Create(ctx, f.project, c.ID,
				decode[campaign.TierParams](t, fmt.Sprintf(`{"name":"t%d","action":{"discount":{"type":"PERCENT","percent_off":%d}}}`, i, i+1))))
		}
		must[auth.Credentials](t)(f.eng.Auth().CreateAppKey(ctx, f.project, auth.KeyParams{ID: "app", Secret: "app-secret-0123456789"}))
		items := make([]string, lines)
		for i := range items {
			items[i] = fmt.Sprintf(`{"price":%d,"quantity":%d,"metadata":{"n":%d}}`, 100+i, 1+i%3, i)
		}
		body := `{"customer":{"source_id":"alice"},"order":{"items":[` + strings.Join(items, ",") + `]}}`
		h := httpadapter.New(f.eng)
		post := func(w http.ResponseWriter, gz bool) {
			r := httptest.NewRequest(http.MethodPost, "/v1/promotions/validation", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-App-Id", "app")
			r.Header.Set("X-App-Token", "app-secret-0123456789")
			if gz {
				r.Header.Set("Accept-Encoding", "gzip")
			}
			h.ServeHTTP(w, r)
		}

		plain := &writeSizes{ResponseRecorder: httptest.NewRecorder()}
		post(plain, false)
		if plain.Code != http.StatusOK || plain.Header().Get("Content-Encoding") != "" {
			t.Fatalf("plain: %d %q %.300s", plain.Code, plain.Header().Get("Content-Encoding"), plain.Body)
		}
		got := plain.Body.Bytes()
		want := must[*promotion.Validation](t)(f.eng.Promotions().Validate(ctx, f.project,
			decode[promotion.ValidationParams](t, body), promotion.ValidationQuery{}))
		if len(want.Promotions) != tiers {
			t.Fatalf("%d valid tiers, want %d", len(want.Promotions), tiers)
		}
		wantJSON := must[[]byte](t)(want.AppendJSON(nil))
		// Tracking ids are the same for one customer; the rest is the same
		// validation encoded the same way.
		if !bytes.Equal(got, append(wantJSON, '\n')) {
			t.Errorf("streamed body (%d bytes) differs from AppendJSON (%d bytes)", len(got), len(wantJSON)+1)
		}
		largest := 0
		for _, n := range plain.sizes {
			largest = max(largest, n)
		}
		// Each piece is about 64 KiB plus at most one tier, far below the
		// whole answer.
		if len(plain.sizes) < 2 || largest > len(got)/3 {
			t.Errorf("%d bytes written in %d pieces, the largest %d: not streamed", len(got), len(plain.sizes), largest)
		}

		zipped := httptest.NewRecorder()
		post(zipped, true)
		if zipped.Code != http.StatusOK || zipped.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("gzip: %d Content-Encoding %q", zipped.Code, zipped.Header().Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		unzipped := must[[]byte](t)(io.ReadAll(zr))
		if !bytes.Equal(unzipped, got) {
			t.Errorf("gzip body decompresses to %d bytes, not the %d of the plain body", len(unzipped), len(got))
		}
		if zipped.Body.Len() > len(got)/4 {
			t.Errorf("compressed %d bytes to %d", len(got), zipped.Body.Len())
		}
		if zipped.Header().Get("X-Request-Id") == "" || zipped.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("gzip headers %v", zipped.Header())
		}
	})
}
