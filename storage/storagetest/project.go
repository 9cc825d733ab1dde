package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
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
	want := &project.Project{ID: "proj_a", Name: "A", TimeZone: "Europe/Warsaw", CreatedAt: at(1),
		ClientSettings: project.ClientSettings{TrustedDomains: []string{"https://shop.example"}, RedeemEnabled: true, LoyaltyEventsEnabled: true}}
	must(t, s.InsertProject(ctx, want))
	got, err := s.GetProject(ctx, "proj_a")
	must(t, err)
	diff(t, "project", want, got)
	wantErr(t, "second insert", s.InsertProject(ctx, want), promotype.ErrDuplicateFound)
	_, err = s.GetProject(ctx, "proj_missing")
	wantErr(t, "missing project", err, promotype.ErrNotFound)
}

// testProjectManagement checks ListProjects and UpdateProject.
func testProjectManagement(t *testing.T, newStore Factory) {
	s := newStore(t)
	b := &project.Project{ID: "proj_b", Name: "B", TimeZone: "UTC", CreatedAt: at(2)}
	a := &project.Project{ID: "proj_a", Name: "A", TimeZone: "UTC", CreatedAt: at(2)}
	c := &project.Project{ID: "proj_c", Name: "C", TimeZone: "UTC", CreatedAt: at(1)}
	for _, p := range []*project.Project{b, a, c} {
		must(t, s.InsertProject(ctx, p))
	}
	got, err := s.ListProjects(ctx, []string{"proj_b", "proj_missing", "proj_a", "proj_c", "proj_b"})
	must(t, err)
	diff(t, "oldest first, then by id", []*project.Project{c, a, b}, got)
	got, err = s.ListProjects(ctx, nil)
	must(t, err)
	diff(t, "no ids", []*project.Project{}, got)

	upd := a.Clone()
	upd.Name, upd.Description, upd.TimeZone = "A2", ptr("about A"), "Europe/Warsaw"
	upd.WebhookToken = "ignored"
	upd.ClientSettings = project.ClientSettings{TrustedDomains: []string{"https://a.example", "https://b.example"},
		PublishEnabled: true, CreateCustomerEnabled: true, SetVoucherExpirationDateEnabled: true}
	must(t, s.UpdateProject(ctx, upd))
	want := upd.Clone()
	want.WebhookToken = a.WebhookToken
	one, err := s.GetProject(ctx, "proj_a")
	must(t, err)
	diff(t, "updated", want, one)
	*upd.Description = "changed after the update"
	upd.TrustedDomains[0] = "https://changed.example"
	one, _ = s.GetProject(ctx, "proj_a")
	diff(t, "aliasing", want, one)
	wantErr(t, "update missing", s.UpdateProject(ctx, &project.Project{ID: "proj_missing", Name: "x", TimeZone: "UTC"}), promotype.ErrNotFound)
}

// seedProjectRows stores one row of most kinds in project p (suffix n keeps
// keys apart across projects): catalog, rewards, locations, customers,
// orders, campaigns, vouchers, settings, events, keys and tokens.
func seedProjectRows(t *testing.T, s storage.Store, p string, n int) {
	t.Helper()
	must(t, s.InsertProduct(ctx, product(p, n)))
	must(t, s.InsertSKU(ctx, sku(p, fmt.Sprintf("prod_%03d", n), n)))
	must(t, s.InsertReward(ctx, rewardRow(p, n)))
	must(t, s.InsertLocation(ctx, circle(p, n)))
	must(t, s.InsertCustomer(ctx, customerFixture(p, n)))
	must(t, s.InsertOrder(ctx, orderFixture(p, n)))
	must(t, s.InsertCampaign(ctx, fullCampaign(p, n)))
	must(t, s.InsertVoucher(ctx, discountVoucher(p, fmt.Sprintf("camp_%03d", n), n)))
	must(t, s.InsertWebhook(ctx, hook(p, fmt.Sprintf("wh_%03d", n), 1, true, "customer.created")))
	must(t, s.InsertMetadataSchema(ctx, &project.MetadataSchema{ID: fmt.Sprintf("ms_%03d", n), ProjectID: p, RelatedObject: "product", CreatedAt: at(1)}))
	must(t, s.InsertCustomEvent(ctx, &project.CustomEvent{ID: fmt.Sprintf("evcus_%03d", n), ProjectID: p, Type: "visit", CustomerID: "cust_1", Metadata: promotype.Metadata{}, CreatedAt: at(2)}))
	appendEvents(t, s, event(p, fmt.Sprintf("evt_%03d", n), 1, "customer.created").For("cust_1", "customer.created"))
	must(t, s.InsertAppKey(ctx, appKey(p, fmt.Sprintf("app-%03d", n))))
	must(t, s.InsertToken(ctx, token(p, fmt.Sprintf("app-%03d", n), n, 0), 10))
	must(t, s.InsertClientKey(ctx, &auth.ClientKey{AppID: fmt.Sprintf("client-%03d", n), ProjectID: p, SecretHash: auth.Hash("c"),
		Origins: []string{"https://shop.example"}, CreatedAt: at(1)}))
	must(t, s.InsertCollection(ctx, &catalog.Collection{ID: fmt.Sprintf("pc_%03d", n), ProjectID: p, Name: "Picked", Type: catalog.CollectionStatic, CreatedAt: at(3)}))
	must(t, s.InsertRewardAssignment(ctx, rewardAssignment(p, n, fmt.Sprintf("rew_%03d", n), fmt.Sprintf("camp_%03d", n))))
	must(t, s.InsertExport(ctx, exportRow(p, n)))
	must(t, s.InsertMembers(ctx, []*project.Member{member(p, "user_1", "ann@shop.example", "ADMIN", 1)}))
	if _, err := s.ClaimConversion(ctx, conversion(p, fmt.Sprintf("camp_%03d", n), "cust_1", "cust_2", 1)); err != nil {
		t.Fatal(err)
	}
	must(t, s.InsertReferees(ctx, refereeHolder(p, fmt.Sprintf("rh_%03d", n), "v_001", "cust_1")))
}

// testProjectDeletion deletes project A of two seeded alike: A's rows are
// gone from every read, its key and token no longer found, the
// management key's grant withdrawn and the key's deletion announced; B is
// untouched; a rolled back deletion changes nothing.
func testProjectDeletion(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	seedProjectRows(t, s, a, 1)
	seedProjectRows(t, s, b, 2)
	must(t, s.InsertManagementKey(ctx, &auth.ManagementKey{ID: "mgmt_1", SecretHash: auth.Hash("m"), ProjectIDs: []string{a, b}, CreatedAt: at(0)}))

	type view struct {
		Products, SKUs, Customers, Orders, Campaigns, Vouchers, Webhooks, Schemas, CustomEvents int
		Reward, Location, Key, Token                                                            bool
		ClientKeys, Exports                                                                     int
		Collection, RewardAssignment                                                            bool
		Users, Activities                                                                       int
		Referrals, Referees                                                                     int
	}
	q := promotype.Query{Limit: 100, OrderBy: "created_at"}
	look := func(p string, n int) view {
		t.Helper()
		var v view
		var err error
		count := func(_ any, total int, e error) int {
			if e != nil {
				err = e
			}
			return total
		}
		v.Products = count(s.ListProducts(ctx, p, q))
		v.SKUs = count(s.ListSKUs(ctx, p, "", q))
		v.Customers = count(s.ListCustomers(ctx, p, q))
		v.Orders = count(s.ListOrders(ctx, p, q))
		v.Campaigns = count(s.ListCampaigns(ctx, p, q))
		v.Vouchers = count(s.ListVouchers(ctx, p, q))
		v.Webhooks = count(s.ListWebhooks(ctx, p, q))
		v.Schemas = count(s.ListMetadataSchemas(ctx, p, q))
		v.CustomEvents = count(s.ListCustomEvents(ctx, p, q))
		must(t, err)
		_, err = s.GetReward(ctx, p, fmt.Sprintf("rew_%03d", n))
		v.Reward = err == nil
		_, err = s.GetLocation(ctx, p, fmt.Sprintf("loc_%03d", n))
		v.Location = err == nil
		_, err = s.GetAppKey(ctx, fmt.Sprintf("app-%03d", n))
		v.Key = err == nil
		_, err = s.GetToken(ctx, token(p, "", n, 0).Hash)
		v.Token = err == nil
		ks, err := s.ListClientKeys(ctx, p)
		must(t, err)
		v.ClientKeys = len(ks)
		v.Exports = count(s.ListExports(ctx, p, q))
		must(t, err)
		_, err = s.GetCollection(ctx, p, fmt.Sprintf("pc_%03d", n))
		v.Collection = err == nil
		_, err = s.GetRewardAssignment(ctx, p, rewardAssignment(p, n, "", "").ID)
		v.RewardAssignment = err == nil
		us, err := s.ListMembers(ctx, p)
		must(t, err)
		v.Users = len(us)
		as, err := s.ListActivities(ctx, p, "cust_1", customer.ActivityQuery{Limit: 10})
		must(t, err)
		v.Activities = len(as)
		cs, err := s.RefereeConversions(ctx, p, "cust_1")
		must(t, err)
		v.Referrals = len(cs)
		v.Referees = count(s.ListReferees(ctx, p, "v_001", "", false, 10))
		must(t, err)
		return v
	}
	full := view{1, 1, 1, 1, 1, 1, 1, 1, 1, true, true, true, true, 1, 1, true, true, 1, 1, 1, 1}
	diff(t, "A seeded", full, look(a, 1))
	diff(t, "B seeded", full, look(b, 2))
	// Each project's event fanned out to its configuration: a sendout each.
	events, stored, err := s.FanOutEvents(ctx, 100, (&planner{}).plan)
	must(t, err)
	if events != 2 || len(stored) != 2 {
		t.Fatalf("fan-out: %d events, %d sendouts, want 2 and 2", events, len(stored))
	}

	feed := make(chan auth.Invalidation, 100)
	current, stop := s.WatchCredentials(func(inv auth.Invalidation) { feed <- inv })
	defer stop()
	for deadline := time.Now().Add(feedTimeout); !current(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the credential subscription never became current")
		}
	}

	errRollback := errors.New("rollback")
	err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		must(t, tx.DeleteProject(ctx, a))
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatalf("RunInTx = %v", err)
	}
	diff(t, "A after a rolled back deletion", full, look(a, 1))

	must(t, s.DeleteProject(ctx, a))
	// The deleted project's app key is announced (a rolled back deletion
	// may have been announced too: extra invalidations are harmless).
	for announced := false; !announced; {
		select {
		case inv := <-feed:
			announced = inv.AppID == "app-001"
			if inv.AppID == "app-002" {
				t.Errorf("B's app key announced deleted")
			}
		case <-time.After(feedTimeout):
			t.Fatal("the deleted project's app key was not announced")
		}
	}
	wantErr(t, "get deleted project", second(s.GetProject(ctx, a)), promotype.ErrNotFound)
	diff(t, "A after its deletion", view{}, look(a, 1))
	diff(t, "B after A's deletion", full, look(b, 2))
	k, err := s.GetManagementKey(ctx, "mgmt_1")
	must(t, err)
	diff(t, "grants", []string{b}, k.ProjectIDs)
	due, err := s.ClaimSendouts(ctx, at(100), at(200), 100)
	must(t, err)
	if len(due) != 1 || due[0].Sendout.ProjectID != b {
		t.Errorf("sendouts due after A's deletion: %d, want B's only", len(due))
	}
	wantErr(t, "delete twice", s.DeleteProject(ctx, a), promotype.ErrNotFound)
	wantErr(t, "delete missing", s.DeleteProject(ctx, "proj_missing"), promotype.ErrNotFound)

	// The id is free: a new project of that id starts empty (counted
	// totals included).
	newProject(t, s, a)
	diff(t, "a new project of the deleted id", view{}, look(a, 1))
	seedProjectRows(t, s, a, 1)
	diff(t, "reseeded", full, look(a, 1))
}

// member is a project user row of project p.
func member(p, userID, login, role string, sec int) *project.Member {
	first := "Ann"
	return &project.Member{ProjectID: p, UserID: userID, Login: login, FirstName: &first, Role: role, CreatedAt: at(sec)}
}

// testProjectUsers: rows are unique by user id and by login within a
// project, found by id or login within the projects asked, listed oldest
// first, and a role change or a removal touches one project's row only.
func testProjectUsers(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b, c := newProject(t, s, "proj_a"), newProject(t, s, "proj_b"), newProject(t, s, "proj_c")
	ann, bob := member(a, "user_1", "ann@shop.example", "ADMIN", 2), member(a, "user_2", "bob@shop.example", "USER", 1)
	bob.FirstName = nil
	annB := member(b, "user_1", "ann@shop.example", "VIEWER", 3)
	must(t, s.InsertMembers(ctx, []*project.Member{ann, annB}))
	must(t, s.InsertMembers(ctx, []*project.Member{bob}))
	// The same login in another project of a user of another id is c's own.
	must(t, s.InsertMembers(ctx, []*project.Member{member(c, "user_9", "ann@shop.example", "USER", 4)}))

	wantErr(t, "same user twice", s.InsertMembers(ctx, []*project.Member{member(a, "user_1", "x@shop.example", "USER", 5)}), promotype.ErrDuplicateFound)
	wantErr(t, "same login twice", s.InsertMembers(ctx, []*project.Member{member(a, "user_3", "bob@shop.example", "USER", 5)}), promotype.ErrDuplicateFound)
	// A failed multi-row insert inserts nothing.
	wantErr(t, "batch with a taken row",
		s.InsertMembers(ctx, []*project.Member{member(c, "user_4", "dan@shop.example", "USER", 5), member(a, "user_2", "bob@shop.example", "USER", 5)}),
		promotype.ErrDuplicateFound)

	list, err := s.ListMembers(ctx, a)
	must(t, err)
	diff(t, "list of A, oldest first", []*project.Member{bob, ann}, list)
	list, err = s.ListMembers(ctx, c)
	must(t, err)
	if len(list) != 1 {
		t.Errorf("C holds %d users, want 1 (the failed batch inserted nothing)", len(list))
	}

	found, err := s.FindMembers(ctx, []string{a, b}, []string{"user_1"})
	must(t, err)
	diff(t, "by id in A and B", []*project.Member{ann, annB}, found)
	found, err = s.FindMembers(ctx, []string{a, b, c}, []string{"ann@shop.example"})
	must(t, err)
	diff(t, "by login in A, B and C", []*project.Member{ann, annB, member(c, "user_9", "ann@shop.example", "USER", 4)}, found)
	found, err = s.FindMembers(ctx, []string{b}, []string{"user_2", "bob@shop.example"})
	must(t, err)
	diff(t, "a user of A asked in B", []*project.Member{}, found)

	must(t, s.UpdateMemberRole(ctx, a, "user_1", "MERCHANT"))
	found, err = s.FindMembers(ctx, []string{a, b}, []string{"user_1"})
	must(t, err)
	if found[0].Role != "MERCHANT" || found[1].Role != "VIEWER" {
		t.Errorf("roles after the update: %s in A, %s in B; want MERCHANT and VIEWER", found[0].Role, found[1].Role)
	}
	wantErr(t, "update missing", s.UpdateMemberRole(ctx, c, "user_1", "USER"), promotype.ErrNotFound)

	must(t, s.DeleteMember(ctx, a, "user_1"))
	wantErr(t, "delete twice", s.DeleteMember(ctx, a, "user_1"), promotype.ErrNotFound)
	found, err = s.FindMembers(ctx, []string{a, b}, []string{"user_1"})
	must(t, err)
	diff(t, "after the removal from A", []*project.Member{annB}, found)
	// The login is free again in A.
	must(t, s.InsertMembers(ctx, []*project.Member{member(a, "user_5", "ann@shop.example", "USER", 6)}))
}
