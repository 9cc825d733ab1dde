package promo_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/httpadapter"
	"github.com/promoengine/promo/project"
)

// Through the REST API: a rule create and a campaign create record their
// events; a campaign create refused by the metadata schema records none.
func TestEventsThroughHTTP(t *testing.T) {
	f := newOutboxFixture(t)
	creds := must[auth.Credentials](t)(f.eng.Auth().CreateAppKey(ctx, f.project, auth.KeyParams{}))
	must[*project.MetadataSchema](t)(f.eng.MetadataSchemas().Create(ctx, f.project, project.MetadataSchemaParams{
		RelatedObject: "campaign",
		Properties:    map[string]project.Definition{"region": {Type: project.TypeString, Optional: true}},
	}))
	h := httpadapter.New(f.eng)
	post := func(path, body string) (int, map[string]any) {
		t.Helper()
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-App-Id", creds.ID)
		r.Header.Set("X-App-Token", creds.Secret)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		var out map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("POST %s: %v (%s)", path, err, rec.Body)
		}
		return rec.Code, out
	}
	tests := []struct {
		name, path, body string
		code             int
		want             func(resp map[string]any) []outboxEvent
	}{
		{"rule create", "/v1/validation-rules", `{"name":"R","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1]}},"logic":"1"}}`, 200,
			func(resp map[string]any) []outboxEvent {
				return []outboxEvent{ev("business_validation_rule.created", resp["id"].(string), "rule", "created_at=")}
			}},
		{"campaign create with bad metadata", "/v1/campaigns", `{"name":"C","campaign_type":"PROMOTION","metadata":{"region":1}}`, 400,
			func(resp map[string]any) []outboxEvent {
				if resp["key"] != "metadata_validation_failed" || !strings.HasPrefix(resp["details"].(string), "region: ") {
					t.Errorf("error body %v", resp)
				}
				return []outboxEvent{}
			}},
		{"campaign create", "/v1/campaigns", `{"name":"C","campaign_type":"PROMOTION","metadata":{"region":"north"}}`, 200,
			func(resp map[string]any) []outboxEvent {
				return []outboxEvent{ev("campaign.created", resp["id"].(string), "campaign", "created_at=")}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := f.count()
			code, resp := post(tt.path, tt.body)
			if code != tt.code {
				t.Fatalf("status %d, want %d: %v", code, tt.code, resp)
			}
			diff(t, "new outbox events", tt.want(resp), f.since(t, from))
		})
	}
}
