package storagetest

import (
	"testing"

	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
)

func testMetadataSchemas(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	five := promotype.NewDecimal("5")
	m := &project.MetadataSchema{ID: "ms_1", ProjectID: p, RelatedObject: "product", CreatedAt: at(1), Object: "metadata_schema",
		Properties: map[string]project.Definition{
			"color": {Type: "string", Eq: []any{"red", "blue"}},
			"size":  {Type: "number", Optional: true, Gte: &five},
		}}
	must(t, s.InsertMetadataSchema(ctx, m))
	wantErr(t, "second schema of the related object", s.InsertMetadataSchema(ctx, &project.MetadataSchema{ID: "ms_2", ProjectID: p, RelatedObject: "product", CreatedAt: at(2)}), promotype.ErrDuplicateFound)
	must(t, s.InsertMetadataSchema(ctx, &project.MetadataSchema{ID: "ms_3", ProjectID: q, RelatedObject: "product", CreatedAt: at(2)}))

	got, err := s.GetMetadataSchema(ctx, p, "ms_1")
	must(t, err)
	diff(t, "schema", m, got)
	found, err := s.FindMetadataSchema(ctx, p, "product")
	must(t, err)
	diff(t, "schema by related object", m, found)
	_, err = s.FindMetadataSchema(ctx, p, "order")
	wantErr(t, "no schema", err, promotype.ErrNotFound)
	_, err = s.GetMetadataSchema(ctx, q, "ms_1")
	wantErr(t, "other project", err, promotype.ErrNotFound)

	upd := m.Clone()
	delete(upd.Properties, "color")
	upd.RemovedProperties = map[string]project.Definition{"color": {Type: "string", Deleted: true}}
	upd.UpdatedAt = at(3).Ptr()
	must(t, s.UpdateMetadataSchema(ctx, upd))
	got, _ = s.GetMetadataSchema(ctx, p, "ms_1")
	diff(t, "updated schema", upd, got)

	items, total, err := s.ListMetadataSchemas(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 1 || len(items) != 1 || items[0].ID != "ms_1" {
		t.Errorf("list = %d %v", total, items)
	}
	must(t, s.DeleteMetadataSchema(ctx, p, "ms_1"))
	_, err = s.FindMetadataSchema(ctx, p, "product")
	wantErr(t, "deleted schema", err, promotype.ErrNotFound)
	// The related object is free again.
	must(t, s.InsertMetadataSchema(ctx, &project.MetadataSchema{ID: "ms_4", ProjectID: p, RelatedObject: "product", CreatedAt: at(4)}))
	wantErr(t, "delete twice", s.DeleteMetadataSchema(ctx, p, "ms_1"), promotype.ErrNotFound)
}

func testCustomEventSchemas(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	c := &project.CustomEventSchema{ID: "ms_1", ProjectID: p, Name: "sign-up", CreatedAt: at(1), Object: "custom-event-schema",
		Schema: project.EventSchemaBody{Properties: map[string]project.EventProperty{"plan": {Type: "string"}}}}
	must(t, s.InsertCustomEventSchema(ctx, c))
	wantErr(t, "same name", s.InsertCustomEventSchema(ctx, &project.CustomEventSchema{ID: "ms_2", ProjectID: p, Name: "sign-up", CreatedAt: at(2)}), promotype.ErrDuplicateFound)
	must(t, s.InsertCustomEventSchema(ctx, &project.CustomEventSchema{ID: "ms_2", ProjectID: q, Name: "sign-up", CreatedAt: at(2)}))
	got, err := s.FindCustomEventSchema(ctx, p, "sign-up")
	must(t, err)
	diff(t, "schema by name", c, got)
	upd := c.Clone()
	upd.Schema.Properties["plan"] = project.EventProperty{Type: "string", Deleted: true}
	upd.UpdatedAt = at(3).Ptr()
	must(t, s.UpdateCustomEventSchema(ctx, upd))
	got, _ = s.GetCustomEventSchema(ctx, p, "ms_1")
	diff(t, "updated schema", upd, got)
	items, total, err := s.ListCustomEventSchemas(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 1 || len(items) != 1 {
		t.Errorf("list = %d %v", total, items)
	}
	wantErr(t, "delete other project", s.DeleteCustomEventSchema(ctx, q, "ms_1"), promotype.ErrNotFound)
	must(t, s.DeleteCustomEventSchema(ctx, p, "ms_1"))
	_, err = s.FindCustomEventSchema(ctx, p, "sign-up")
	wantErr(t, "deleted schema", err, promotype.ErrNotFound)
	must(t, s.InsertCustomEventSchema(ctx, &project.CustomEventSchema{ID: "ms_3", ProjectID: p, Name: "sign-up", CreatedAt: at(4)}))
}

func testBrandings(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	phone := "+48 1"
	b := &project.Branding{ID: "brd_1", ProjectID: p, CreatedAt: at(1), Brand: project.Brand{Name: "Shop"},
		Address: project.Address{Street: "1", City: "W", Country: "PL"}, Contact: project.Contact{Email: "a@b.example", Phone: &phone},
		Cockpits: project.Cockpits{Theme: "default", ReferralsEnabled: true}}
	must(t, s.InsertBranding(ctx, b))
	err := s.InsertBranding(ctx, &project.Branding{ID: "brd_2", ProjectID: p, CreatedAt: at(2)})
	if e := promotype.AsError(err); err == nil || e.Key != "branding_exist" {
		t.Errorf("second branding: %v, want branding_exist", err)
	}
	must(t, s.InsertBranding(ctx, &project.Branding{ID: "brd_2", ProjectID: q, CreatedAt: at(2)}))
	got, err := s.GetBranding(ctx, p, "brd_1")
	must(t, err)
	diff(t, "branding", b, got)
	upd := b.Clone()
	upd.Cockpits.Theme = "green"
	upd.UpdatedAt = at(3).Ptr()
	must(t, s.UpdateBranding(ctx, upd))
	got, _ = s.GetBranding(ctx, p, "brd_1")
	diff(t, "updated branding", upd, got)
	items, total, err := s.ListBrandings(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 1 || len(items) != 1 || items[0].ID != "brd_1" {
		t.Errorf("list = %d %v", total, items)
	}
	must(t, s.DeleteBranding(ctx, p, "brd_1"))
	_, err = s.GetBranding(ctx, p, "brd_1")
	wantErr(t, "deleted branding", err, promotype.ErrNotFound)
	must(t, s.InsertBranding(ctx, &project.Branding{ID: "brd_3", ProjectID: p, CreatedAt: at(4)}))
}

func testCustomEvents(t *testing.T, newStore Factory) {
	s := newStore(t)
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	e1 := &project.CustomEvent{ID: "evcus_1", ProjectID: p, Type: "sign-up", CustomerID: "cust_1", Metadata: promotype.Metadata{"plan": "pro"}, CreatedAt: at(1)}
	e2 := &project.CustomEvent{ID: "evcus_2", ProjectID: p, Type: "visit", CustomerID: "cust_1", Metadata: promotype.Metadata{}, CreatedAt: at(2)}
	must(t, s.InsertCustomEvent(ctx, e1))
	must(t, s.InsertCustomEvent(ctx, e2))
	wantErr(t, "duplicate", s.InsertCustomEvent(ctx, e1), promotype.ErrDuplicateFound)
	items, total, err := s.ListCustomEvents(ctx, p, promotype.Query{Limit: 10, OrderBy: "created_at"})
	must(t, err)
	if total != 2 {
		t.Errorf("total = %d", total)
	}
	diff(t, "events", []*project.CustomEvent{e1, e2}, items)
	items, _, _ = s.ListCustomEvents(ctx, q, promotype.Query{Limit: 10, OrderBy: "created_at"})
	if len(items) != 0 {
		t.Errorf("project B lists %d events of A", len(items))
	}
}

func testProjects(t *testing.T, newStore Factory) {
	s := newStore(t)
	want := &project.Project{ID: "proj_a", Name: "A", TimeZone: "Europe/Warsaw", CreatedAt: at(1)}
	must(t, s.InsertProject(ctx, want))
	got, err := s.GetProject(ctx, "proj_a")
	must(t, err)
	diff(t, "project", want, got)
	wantErr(t, "second insert", s.InsertProject(ctx, want), promotype.ErrDuplicateFound)
	_, err = s.GetProject(ctx, "proj_missing")
	wantErr(t, "missing project", err, promotype.ErrNotFound)
}
