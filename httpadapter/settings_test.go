package httpadapter_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promo/promotype"
)

func TestWebhooks(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	created := h.mustDo(req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"https://hooks.example.com/promo","events":["campaign.created","voucher.gift.balance_aded"]}`}, http.StatusOK)
	id := created["id"].(string)
	if created["active"] != true || created["object"] != "webhook" {
		t.Errorf("create: %v", created)
	}
	h.run(t, "webhooks", []step{
		{"create_inactive", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"http://1.2.3.4:8080/in","events":["voucher.created"],"active":false}`}, 200},
		{"get", req{method: http.MethodGet, target: mp + "/webhooks/" + id}, 200},
		{"list", req{method: http.MethodGet, target: mp + "/webhooks"}, 200},
		{"update_replaces_events", req{method: http.MethodPut, target: mp + "/webhooks/" + id, body: `{"target_url":"https://hooks.example.com/v2","events":["customer.created"],"active":false}`}, 200},
		{"get_updated", req{method: http.MethodGet, target: mp + "/webhooks/" + id}, 200},
		{"create_missing_target", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"events":["campaign.created"]}`}, 400},
		{"create_missing_events", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"https://hooks.example.com/x"}`}, 400},
		{"create_unknown_event", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"https://hooks.example.com/x","events":["campaign.vouchers.added"]}`}, 400},
		{"create_loopback_refused", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"http://127.0.0.1:9000/x","events":["campaign.created"]}`}, 400},
		{"create_private_refused", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"http://10.1.2.3/x","events":["campaign.created"]}`}, 400},
		{"create_not_http", req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"ftp://hooks.example.com/x","events":["campaign.created"]}`}, 400},
		{"update_missing_events", req{method: http.MethodPut, target: mp + "/webhooks/" + id, body: `{"target_url":"https://hooks.example.com/v3"}`}, 400},
		{"update_unknown", req{method: http.MethodPut, target: mp + "/webhooks/wh_nope", body: `{"target_url":"https://hooks.example.com/v3","events":["customer.created"]}`}, 404},
		{"unauthorized", req{method: http.MethodGet, target: mp + "/webhooks", creds: credsNone}, 401},
		{"delete", req{method: http.MethodDelete, target: mp + "/webhooks/" + id}, 204},
		{"get_deleted", req{method: http.MethodGet, target: mp + "/webhooks/" + id}, 404},
	})
}

func TestMetadataSchemas(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	created := h.mustDo(req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"product","allow_defined_only":false,"properties":{
		"color":{"type":"string","optional":false,"array":false,"eq":["red","blue"]},
		"weight":{"type":"number","optional":true,"array":false,"gte":0}}}`}, http.StatusOK)
	id := created["id"].(string)
	h.run(t, "metadata_schemas", []step{
		{"create_duplicate", req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"product","properties":{}}`}, 409},
		{"create_bad_type", req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"order","properties":{"x":{"type":"text","optional":true,"array":false}}}`}, 400},
		{"create_missing_properties", req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"order"}`}, 400},
		{"get", req{method: http.MethodGet, target: mp + "/metadata-schemas/" + id}, 200},
		{"list", req{method: http.MethodGet, target: mp + "/metadata-schemas"}, 200},
		// Enforcement: a product create breaking the schema stores nothing.
		{"product_missing_required", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug"}`}, 400},
		{"product_bad_value", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug","metadata":{"color":"green"}}`}, 400},
		{"product_not_stored", req{method: http.MethodGet, target: "/v1/products/mug"}, 404},
		{"product_valid", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"mug","name":"Mug","metadata":{"color":"red","weight":0.4}}`}, 200},
		{"product_update_bad", req{method: http.MethodPut, target: "/v1/products/mug", body: `{"metadata":{"color":"red","weight":-1}}`}, 400},
		{"product_update_without_metadata", req{method: http.MethodPut, target: "/v1/products/mug", body: `{"name":"Big mug"}`}, 200},
		// Update: only the sent definitions change; deleted moves one to the removed definitions.
		{"update_type_change", req{method: http.MethodPut, target: mp + "/metadata-schemas/" + id, body: `{"properties":{"color":{"type":"number","optional":true,"array":false}}}`}, 400},
		{"update_delete_definition", req{method: http.MethodPut, target: mp + "/metadata-schemas/" + id, body: `{"properties":{"color":{"type":"string","optional":false,"array":false,"deleted":true},"size":{"type":"string","optional":true,"array":false}}}`}, 200},
		{"product_after_definition_removed", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"cup","name":"Cup","metadata":{"color":"green"}}`}, 200},
		{"product_still_checks_others", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"bowl","name":"Bowl","metadata":{"weight":"heavy"}}`}, 400},
		{"reward_checked_only_with_its_schema", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Coins","parameters":{"coin":{"exchange_ratio":1}},"metadata":{"weight":"heavy"}}`}, 200},
		{"delete", req{method: http.MethodDelete, target: mp + "/metadata-schemas/" + id}, 204},
		{"get_deleted", req{method: http.MethodGet, target: mp + "/metadata-schemas/" + id}, 404},
		// Deleting the schema lifts the check; stored metadata stays.
		{"product_after_delete", req{method: http.MethodPost, target: "/v1/products", body: `{"source_id":"bowl","name":"Bowl","metadata":{"weight":"heavy"}}`}, 200},
		{"product_metadata_kept", req{method: http.MethodGet, target: "/v1/products/mug"}, 200},
		{"recreate_after_delete", req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"reward","allow_defined_only":true,"properties":{}}`}, 200},
		{"reward_refused_by_schema", req{method: http.MethodPost, target: "/v1/rewards", body: `{"name":"Coins","parameters":{"coin":{"exchange_ratio":1}},"metadata":{"weight":"heavy"}}`}, 400},
	})
}

func TestCustomEventSchemas(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	created := h.mustDo(req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"sign-up","schema":{"properties":{"plan":{"type":"string","optional":false},"seats":{"type":"number","optional":true}}}}`}, http.StatusOK)
	id := created["id"].(string)
	h.run(t, "custom_event_schemas", []step{
		{"create_duplicate", req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"sign-up","schema":{"properties":{}}}`}, 409},
		{"create_empty_properties", req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"visit","schema":{"properties":{}}}`}, 200},
		{"create_missing_name", req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"schema":{"properties":{}}}`}, 400},
		{"create_missing_schema", req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"x"}`}, 400},
		{"create_bad_type", req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"x","schema":{"properties":{"a":{"type":"geopoint","optional":true}}}}`}, 400},
		{"get", req{method: http.MethodGet, target: mp + "/custom-event-schemas/" + id}, 200},
		{"list", req{method: http.MethodGet, target: mp + "/custom-event-schemas"}, 200},
		{"update", req{method: http.MethodPut, target: mp + "/custom-event-schemas/" + id, body: `{"schema":{"properties":{"seats":{"type":"string","optional":true},"plan":{"type":"string","optional":false,"deleted":true},"source":{"type":"date","optional":true}}}}`}, 200},
		{"update_unknown", req{method: http.MethodPut, target: mp + "/custom-event-schemas/ms_nope", body: `{"schema":{"properties":{}}}`}, 404},
		{"delete", req{method: http.MethodDelete, target: mp + "/custom-event-schemas/" + id}, 204},
		{"get_deleted", req{method: http.MethodGet, target: mp + "/custom-event-schemas/" + id}, 404},
	})
}

func TestBranding(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	created := h.mustDo(req{method: http.MethodPost, target: mp + "/branding", body: `{"brand":{"name":"Shop","website_url":"https://shop.example.com"},"address":{"street":"1 Main St","city":"Warsaw","postal":"00-001","country":"Poland"},"contact":{"email":"hello@shop.example.com"}}`}, http.StatusOK)
	id := created["id"].(string)
	h.run(t, "branding", []step{
		{"create_second", req{method: http.MethodPost, target: mp + "/branding", body: `{"brand":{"name":"Shop"},"address":{"street":"1","city":"W","country":"PL"},"contact":{"email":"a@b.example.com"}}`}, 409},
		{"get", req{method: http.MethodGet, target: mp + "/branding/" + id}, 200},
		{"list", req{method: http.MethodGet, target: mp + "/branding"}, 200},
		{"update_partial", req{method: http.MethodPut, target: mp + "/branding/" + id, body: `{"contact":{"phone":"+48 123"},"cockpits":{"theme":"green","loyalty_enabled":false}}`}, 200},
		{"update_bad_email", req{method: http.MethodPut, target: mp + "/branding/" + id, body: `{"contact":{"email":"not-an-email"}}`}, 400},
		{"update_bad_url", req{method: http.MethodPut, target: mp + "/branding/" + id, body: `{"brand":{"terms_of_use_url":"shop terms"}}`}, 400},
		{"update_bad_theme", req{method: http.MethodPut, target: mp + "/branding/" + id, body: `{"cockpits":{"theme":"pink"}}`}, 400},
		{"get_unknown", req{method: http.MethodGet, target: mp + "/branding/brd_nope"}, 404},
		{"delete", req{method: http.MethodDelete, target: mp + "/branding/" + id}, 204},
		{"create_missing_contact", req{method: http.MethodPost, target: mp + "/branding", body: `{"brand":{"name":"Shop"},"address":{"street":"1","city":"W","country":"PL"}}`}, 400},
		{"create_after_delete", req{method: http.MethodPost, target: mp + "/branding", body: `{"brand":{"name":"Shop 2"},"address":{"street":"1","city":"W","country":"PL"},"contact":{"email":"a@b.example.com"}}`}, 200},
	})
}

// Isolation rows of the project settings (isolation_test.go).
func init() {
	isolationSeeds = append(isolationSeeds, func(h *harness, ids map[string]string) {
		mp := "/management/v1/projects/" + h.project.ID
		ids["webhookId"] = h.mustDo(req{method: http.MethodPost, target: mp + "/webhooks", body: `{"target_url":"https://hooks.example.com/a","events":["campaign.created"]}`}, http.StatusOK)["id"].(string)
		ids["metadataSchemaId"] = h.mustDo(req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"order","properties":{}}`}, http.StatusOK)["id"].(string)
		ids["customEventSchemaId"] = h.mustDo(req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"isolated","schema":{"properties":{}}}`}, http.StatusOK)["id"].(string)
		ids["brandingId"] = h.mustDo(req{method: http.MethodPost, target: mp + "/branding", body: `{"brand":{"name":"A"},"address":{"street":"1","city":"W","country":"PL"},"contact":{"email":"a@b.example.com"}}`}, http.StatusOK)["id"].(string)
	})
	const mp = "/management/v1/projects/{projectId}"
	isolationRows = append(isolationRows,
		isolationRow{"list webhooks", http.MethodGet, mp + "/webhooks", ""},
		isolationRow{"create webhook", http.MethodPost, mp + "/webhooks", `{"target_url":"https://hooks.example.com/b","events":["campaign.created"]}`},
		isolationRow{"get webhook", http.MethodGet, mp + "/webhooks/{webhookId}", ""},
		isolationRow{"update webhook", http.MethodPut, mp + "/webhooks/{webhookId}", `{"target_url":"https://hooks.example.com/b","events":["campaign.created"]}`},
		isolationRow{"delete webhook", http.MethodDelete, mp + "/webhooks/{webhookId}", ""},
		isolationRow{"list metadata schemas", http.MethodGet, mp + "/metadata-schemas", ""},
		isolationRow{"create metadata schema", http.MethodPost, mp + "/metadata-schemas", `{"related_object":"voucher","properties":{}}`},
		isolationRow{"get metadata schema", http.MethodGet, mp + "/metadata-schemas/{metadataSchemaId}", ""},
		isolationRow{"update metadata schema", http.MethodPut, mp + "/metadata-schemas/{metadataSchemaId}", `{"properties":{}}`},
		isolationRow{"delete metadata schema", http.MethodDelete, mp + "/metadata-schemas/{metadataSchemaId}", ""},
		isolationRow{"list custom event schemas", http.MethodGet, mp + "/custom-event-schemas", ""},
		isolationRow{"create custom event schema", http.MethodPost, mp + "/custom-event-schemas", `{"name":"taken","schema":{"properties":{}}}`},
		isolationRow{"get custom event schema", http.MethodGet, mp + "/custom-event-schemas/{customEventSchemaId}", ""},
		isolationRow{"update custom event schema", http.MethodPut, mp + "/custom-event-schemas/{customEventSchemaId}", `{"schema":{"properties":{}}}`},
		isolationRow{"delete custom event schema", http.MethodDelete, mp + "/custom-event-schemas/{customEventSchemaId}", ""},
		isolationRow{"list branding", http.MethodGet, mp + "/branding", ""},
		isolationRow{"create branding", http.MethodPost, mp + "/branding", `{"brand":{"name":"B"},"address":{"street":"1","city":"W","country":"PL"},"contact":{"email":"a@b.example.com"}}`},
		isolationRow{"get branding", http.MethodGet, mp + "/branding/{brandingId}", ""},
		isolationRow{"update branding", http.MethodPut, mp + "/branding/{brandingId}", `{"brand":{"name":"Taken"}}`},
		isolationRow{"delete branding", http.MethodDelete, mp + "/branding/{brandingId}", ""},
	)
}

func TestCustomEvents(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	h.mustDo(req{method: http.MethodPost, target: mp + "/custom-event-schemas", body: `{"name":"sign-up","schema":{"properties":{"plan":{"type":"string","optional":false},"seats":{"type":"number","optional":true}}}}`}, http.StatusOK)
	h.run(t, "events", []step{
		{"track_new_customer", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"sign-up","customer":{"source_id":"alice","name":"Alice","email":"alice@example.com"},"metadata":{"plan":"pro","seats":3}}`}, 200},
		{"track_known_customer", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"sign-up","customer":{"source_id":"alice","metadata":{"tier":"gold"}},"metadata":{"plan":"basic","extra":"kept"}}`}, 200},
		{"customer_upserted", req{method: http.MethodGet, target: "/v1/customers/alice"}, 200},
		{"undefined_event", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"log-in","customer":{"source_id":"alice"}}`}, 400},
		{"missing_event", req{method: http.MethodPost, target: "/v1/events", body: `{"customer":{"source_id":"alice"}}`}, 400},
		{"empty_event", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"","customer":{"source_id":"alice"}}`}, 400},
		{"missing_customer", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"sign-up","metadata":{"plan":"pro"}}`}, 400},
		{"metadata_missing_required", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"sign-up","customer":{"source_id":"bob"},"metadata":{"seats":1}}`}, 400},
		{"metadata_bad_type", req{method: http.MethodPost, target: "/v1/events", body: `{"event":"sign-up","customer":{"source_id":"bob"},"metadata":{"plan":"pro","seats":"many"}}`}, 400},
		{"refused_event_stored_no_customer", req{method: http.MethodGet, target: "/v1/customers/bob"}, 404},
	})
	events, err := h.engine.CustomEvents().List(t.Context(), h.project.ID, promotype.ListParams{})
	if err != nil {
		t.Fatal(err)
	}
	if events.Total != 2 || events.Data[0].Type != "sign-up" || events.Data[1].Metadata["extra"] != "kept" || events.Data[0].CustomerID != events.Data[1].CustomerID {
		t.Errorf("stored events: %+v", events)
	}
}

// Customers, orders and vouchers check the metadata they are sent.
func TestMetadataSchemasOtherResources(t *testing.T) {
	h := newHarness(t)
	mp := "/management/v1/projects/" + h.project.ID
	for _, obj := range []string{"customer", "order", "voucher"} {
		h.mustDo(req{method: http.MethodPost, target: mp + "/metadata-schemas", body: `{"related_object":"` + obj + `","allow_defined_only":true,"properties":{"channel":{"type":"string","optional":true,"array":false}}}`}, http.StatusOK)
	}
	h.run(t, "metadata_schemas_other", []step{
		{"customer_undefined_key", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice","metadata":{"vip":true}}`}, 400},
		{"customer_valid", req{method: http.MethodPost, target: "/v1/customers", body: `{"source_id":"alice","metadata":{"channel":"web"}}`}, 200},
		{"order_bad_type", req{method: http.MethodPost, target: "/v1/orders", body: `{"amount":1000,"metadata":{"channel":7}}`}, 400},
		{"order_valid", req{method: http.MethodPost, target: "/v1/orders", body: `{"source_id":"o1","amount":1000,"metadata":{"channel":"web"}}`}, 200},
		{"order_update_bad", req{method: http.MethodPut, target: "/v1/orders/o1", body: `{"metadata":{"other":"x"}}`}, 400},
		{"voucher_undefined_key", req{method: http.MethodPost, target: "/v1/vouchers", body: `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"metadata":{"other":"x"}}`}, 400},
	})
}
