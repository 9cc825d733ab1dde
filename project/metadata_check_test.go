package project

import (
	"encoding/json"
	"testing"

	"github.com/promoengine/promo/promotype"
)

func schema(t *testing.T, js string) *MetadataSchema {
	t.Helper()
	var s MetadataSchema
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func meta(t *testing.T, js string) promotype.Metadata {
	t.Helper()
	var m promotype.Metadata
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMetadataCheck(t *testing.T) {
	t.Parallel()
	s := schema(t, `{"related_object":"order","allow_defined_only":false,"properties":{
		"location_id":{"type":"string","array":true,"optional":true,"eq":["L1","L2","L3"]},
		"seq":{"type":"number","optional":false,"gte":1,"lt":100,"ne":[13]},
		"code":{"type":"string","optional":true,"min_length":2,"max_length":4},
		"vip":{"type":"boolean","optional":true},
		"since":{"type":"date","optional":true},
		"at":{"type":"datetime","optional":true},
		"where":{"type":"geopoint","optional":true},
		"img":{"type":"image_url","optional":true},
		"old":{"type":"string","optional":false,"deleted":true}}}`)
	tests := []struct{ name, js, want string }{
		{"valid", `{"seq":5,"location_id":["L1","L3"],"code":"abc","vip":true,"since":"2026-01-02","at":"2026-01-02T10:00:00Z","where":"geo:40.7128,-74.0060","img":"https://x.example/a.png","extra":"fine"}`, ""},
		{"both geopoint forms", `{"seq":5,"where":"37.786971, -122.399677"}`, ""},
		// The reference's own example message.
		{"array expected", `{"seq":5,"location_id":"L1"}`, "location_id: must be an array, and every element: must be a string, must be equal to one of L1,L2,L3 (actual value is 'L1')"},
		{"element not allowed", `{"seq":5,"location_id":["L1","L9"]}`, "location_id: must be an array, and every element: must be a string, must be equal to one of L1,L2,L3 (actual value is 'L1,L9')"},
		{"required missing", `{"code":"ab"}`, "seq: is required"},
		{"required null", `{"seq":null}`, "seq: is required"},
		{"number type", `{"seq":"5"}`, "seq: must be a number (actual value is '5')"},
		{"gte", `{"seq":0}`, "seq: must be a number, must be greater than or equal to 1 (actual value is '0')"},
		{"lt", `{"seq":100}`, "seq: must be a number, must be less than 100 (actual value is '100')"},
		{"ne", `{"seq":13}`, "seq: must be a number, must not be equal to 13 (actual value is '13')"},
		{"too short", `{"seq":5,"code":"a"}`, "code: must be a string, must be at least 2 characters long (actual value is 'a')"},
		{"too long", `{"seq":5,"code":"abcde"}`, "code: must be a string, must be at most 4 characters long (actual value is 'abcde')"},
		{"boolean", `{"seq":5,"vip":"yes"}`, "vip: must be a boolean (actual value is 'yes')"},
		{"date", `{"seq":5,"since":"02/01/2026"}`, "since: must be a date (YYYY-MM-DD) (actual value is '02/01/2026')"},
		{"image", `{"seq":5,"img":"http://x.example/a.gif"}`, "img: must be an HTTPS URL of a .png or .jpg file (actual value is 'http://x.example/a.gif')"},
		{"deleted definitions are not enforced", `{"seq":5}`, ""},
	}
	for _, tc := range tests {
		err := s.Check(meta(t, tc.js))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		e := promotype.AsError(err)
		if err == nil || e.Code != 400 || e.Key != "metadata_validation_failed" || e.Details != tc.want {
			t.Errorf("%s: got %v, want 400 metadata_validation_failed %q", tc.name, err, tc.want)
		}
	}
	strict := schema(t, `{"related_object":"product","allow_defined_only":true,"properties":{"a":{"type":"string","optional":true}}}`)
	if e := promotype.AsError(strict.Check(meta(t, `{"a":"x","b":1}`))); e.Details != "b: is not defined in the product metadata schema" {
		t.Errorf("allow_defined_only: %v", e)
	}
	if err := strict.Check(meta(t, `{"a":"x"}`)); err != nil {
		t.Errorf("allow_defined_only refused a defined key: %v", err)
	}
}
