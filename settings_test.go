package promo_test

import (
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/webhook"
)

// A metadata schema makes a bad product create a 400 that stores nothing;
// deleting the schema lifts the check and leaves stored metadata alone.
func TestMetadataSchemaEnforcement(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		ms := f.eng.MetadataSchemas()
		schema := must[*project.MetadataSchema](t)(ms.Create(ctx, f.project, project.MetadataSchemaParams{
			RelatedObject: "product",
			Properties: map[string]project.Definition{
				"color": {Type: project.TypeString, Eq: []any{"red", "blue"}},
			},
		}))
		_, err := ms.Create(ctx, f.project, project.MetadataSchemaParams{RelatedObject: "product", Properties: map[string]project.Definition{}})
		wantErr(t, err, 409, "duplicate_found")

		products := f.eng.Catalog()
		_, err = products.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promotype.Ptr("mug"), Name: promotype.Ptr("Mug")})
		e := wantErr(t, err, 400, "metadata_validation_failed")
		if e.Details != "color: is required" {
			t.Errorf("details = %q", e.Details)
		}
		_, err = products.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promotype.Ptr("mug"), Metadata: promotype.Metadata{"color": "green"}})
		wantErr(t, err, 400, "metadata_validation_failed")
		_, err = products.GetProduct(ctx, f.project, "mug")
		wantErr(t, err, 404, "not_found")

		p := must[*catalog.Product](t)(products.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promotype.Ptr("mug"), Metadata: promotype.Metadata{"color": "red"}}))
		_, err = products.UpdateProduct(ctx, f.project, p.ID, catalog.ProductParams{Metadata: promotype.Metadata{"color": 1.0}})
		wantErr(t, err, 400, "metadata_validation_failed")
		// An upsert of the existing product without metadata is not checked.
		must[*catalog.Product](t)(products.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promotype.Ptr("mug"), Name: promotype.Ptr("Mug 2")}))

		if err := ms.Delete(ctx, f.project, schema.ID); err != nil {
			t.Fatal(err)
		}
		must[*catalog.Product](t)(products.CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promotype.Ptr("cup"), Metadata: promotype.Metadata{"color": "green"}}))
		got := must[*catalog.Product](t)(products.GetProduct(ctx, f.project, "mug"))
		diff(t, "metadata kept after the schema is deleted", promotype.Metadata{"color": "red"}, got.Metadata)
	})
}

// Update moves deleted definitions to the removed ones and keeps the others.
func TestMetadataSchemaUpdate(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		ms := f.eng.MetadataSchemas()
		s := must[*project.MetadataSchema](t)(ms.Create(ctx, f.project, project.MetadataSchemaParams{
			RelatedObject: "reward",
			Properties: map[string]project.Definition{
				"a": {Type: project.TypeString},
				"b": {Type: project.TypeNumber, Optional: true},
			},
		}))
		f.clock.Advance(1)
		got := must[*project.MetadataSchema](t)(ms.Update(ctx, f.project, s.ID, project.MetadataSchemaUpdate{Properties: map[string]project.Definition{
			"a": {Type: project.TypeString, Deleted: true},
		}}))
		if _, ok := got.Properties["a"]; ok || got.RemovedProperties["a"].Type != project.TypeString || got.Properties["b"].Type != project.TypeNumber {
			t.Errorf("after update: %+v", got)
		}
		again := must[*project.MetadataSchema](t)(ms.Get(ctx, f.project, s.ID))
		diff(t, "stored schema", got, again)
		_, err := ms.Update(ctx, f.project, s.ID, project.MetadataSchemaUpdate{Properties: map[string]project.Definition{"b": {Type: project.TypeString}}})
		wantErr(t, err, 400, "invalid_payload")
	})
}

// Target URLs pass the engine's policy: loopback only when allowed.
func TestWebhookTargets(t *testing.T) {
	in := webhook.Params{TargetURL: promotype.Ptr("http://127.0.0.1:9000/hook"), Events: []string{"campaign.created"}}
	strict := must[*promo.Engine](t)(promo.New(memory.New()))
	p := must[*project.Project](t)(strict.Projects().Create(ctx, project.Params{Name: "Shop"}))
	_, err := strict.Webhooks().Create(ctx, p.ID, in)
	wantErr(t, err, 400, "invalid_payload")

	loose := must[*promo.Engine](t)(promo.New(memory.New(), promo.WithWebhookTargets(webhook.TargetPolicy{AllowLoopback: true})))
	p = must[*project.Project](t)(loose.Projects().Create(ctx, project.Params{Name: "Shop"}))
	w := must[*webhook.Webhook](t)(loose.Webhooks().Create(ctx, p.ID, in))
	if !w.Active || w.Object != "webhook" {
		t.Errorf("webhook %+v", w)
	}
}
