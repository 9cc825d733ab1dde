package promo_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/segment"
)

// segmentIDs is the ids of the segments GET /v1/customers/{id}/segments
// lists for ref.
func segmentIDs(t *testing.T, f fixture, ref string) []string {
	t.Helper()
	l := must[*segment.CustomerList](t)(f.eng.Segments().ForCustomer(ctx, f.project, ref))
	ids := []string{}
	for _, s := range l.Data {
		ids = append(ids, s.ID)
	}
	if l.Total != len(l.Data) {
		t.Errorf("total %d for %d segments", l.Total, len(l.Data))
	}
	return ids
}

// segmentEvents is the customer's segment entries and exits, oldest first,
// as "entered seg_…" / "left seg_…".
func segmentEvents(t *testing.T, f fixture, customerID string) []string {
	t.Helper()
	acts, err := f.store.ListActivities(ctx, f.project, customerID, customer.ActivityQuery{Limit: 100,
		Types: []string{segment.EventEntered, segment.EventLeft}})
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, a := range acts {
		var data struct {
			Customer struct{ ID string } `json:"customer"`
			Segment  segment.Simple      `json:"segment"`
		}
		if err := json.Unmarshal(a.Data, &data); err != nil {
			t.Fatal(err)
		}
		if data.Customer.ID != customerID {
			t.Errorf("%s names customer %s", a.Type, data.Customer.ID)
		}
		verb := "entered"
		if a.Type == segment.EventLeft {
			verb = "left"
		}
		out = append(out, verb+" "+data.Segment.ID)
	}
	return out
}

func goldFilter(typ string) segment.Params {
	return segment.Params{Name: promo.Ptr("Gold club"), Type: promo.Ptr(typ),
		Filter: json.RawMessage(`{"junction":"and","metadata.club":{"conditions":{"$in":["gold","platinum"]}}}`)}
}

func TestSegmentMembershipFollowsCustomerChanges(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs, segs := f.eng.Customers(), f.eng.Segments()
		early := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("early"), Metadata: promo.Metadata{"club": "gold"}}))
		plain := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("plain")}))

		gold := must[*segment.Segment](t)(segs.Create(ctx, f.project, goldFilter(segment.AutoUpdate)))
		quiet := must[*segment.Segment](t)(segs.Create(ctx, f.project, segment.Params{Name: promo.Ptr("Warsaw"), Type: promo.Ptr(segment.Passive),
			Filter: json.RawMessage(`{"address.city":{"conditions":{"$is":"Warsaw"}}}`)}))
		static := must[*segment.Segment](t)(segs.Create(ctx, f.project, segment.Params{Name: promo.Ptr("Picked"), Type: promo.Ptr(segment.Static),
			Customers: []string{plain.ID, "early"}}))
		want := &segment.Segment{ID: gold.ID, Name: "Gold club", CreatedAt: at(0), Type: segment.AutoUpdate,
			Filter:            json.RawMessage(`{"junction":"and","metadata.club":{"conditions":{"$in":["gold","platinum"]}}}`),
			InitialSyncStatus: segment.SyncDone, Object: "segment", ProjectID: f.project}
		diff(t, "created", want, gold)
		diff(t, "get", want, must[*segment.Segment](t)(segs.Get(ctx, f.project, gold.ID)))
		if string(static.Filter) != "null" {
			t.Errorf("static filter %s", static.Filter)
		}

		// The create filled the segments with the customers already there,
		// telling nobody.
		diff(t, "early's segments", []string{gold.ID, static.ID}, segmentIDs(t, f, "early"))
		diff(t, "plain's segments", []string{static.ID}, segmentIDs(t, f, plain.ID))
		diff(t, "early's events", []string{}, segmentEvents(t, f, early.ID))

		// A create, an update, an upsert and a bulk upsert move customers.
		newbie := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("newbie"),
			Metadata: promo.Metadata{"club": "platinum"}, Address: &customer.Address{City: promo.Ptr("Warsaw")}}))
		diff(t, "newbie's segments", []string{gold.ID, quiet.ID}, segmentIDs(t, f, newbie.ID))
		must[*customer.Customer](t)(cs.Update(ctx, f.project, "plain", customer.UpdateParams{Params: customer.Params{Metadata: promo.Metadata{"club": "gold"}}}))
		must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("early"), Metadata: promo.Metadata{"club": "bronze"}}))
		must[[]*customer.Customer](t)(cs.UpsertMany(ctx, f.project, []customer.Params{
			{SourceID: promo.Ptr("newbie"), Metadata: promo.Metadata{}, Address: &customer.Address{City: promo.Ptr("Cracow")}}}))
		diff(t, "plain's segments after the update", []string{gold.ID, static.ID}, segmentIDs(t, f, "plain"))
		diff(t, "early's segments after the upsert", []string{static.ID}, segmentIDs(t, f, "early"))
		diff(t, "newbie's segments after the bulk upsert", []string{}, segmentIDs(t, f, "newbie"))

		// Only the auto-update segment tells, once per entry and exit.
		diff(t, "plain's events", []string{"entered " + gold.ID}, segmentEvents(t, f, plain.ID))
		diff(t, "early's events", []string{"left " + gold.ID}, segmentEvents(t, f, early.ID))
		diff(t, "newbie's events", []string{"entered " + gold.ID, "left " + gold.ID}, segmentEvents(t, f, newbie.ID))

		// A customer the project does not have: the filter segments a
		// customer with that source id alone would be in.
		diff(t, "unknown customer", []string{}, segmentIDs(t, f, "ghost"))

		// Deleting a segment takes its members out.
		if err := segs.Delete(ctx, f.project, gold.ID); err != nil {
			t.Fatal(err)
		}
		_, err := segs.Get(ctx, f.project, gold.ID)
		if e := wantErr(t, err, 404, "not_found"); e.ResourceType != "segment" {
			t.Errorf("404 names %s", e.ResourceType)
		}
		wantErr(t, segs.Delete(ctx, f.project, gold.ID), 404, "not_found")
		diff(t, "plain's segments after the delete", []string{static.ID}, segmentIDs(t, f, "plain"))
	})
}

func TestSegmentBadInputChangesNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		segs := f.eng.Segments()
		for name, in := range map[string]segment.Params{
			"no name":          {Type: promo.Ptr(segment.Static), Customers: []string{"a"}},
			"no type":          {Name: promo.Ptr("x")},
			"unknown type":     {Name: promo.Ptr("x"), Type: promo.Ptr("dynamic"), Filter: json.RawMessage(`{"name":{"conditions":{"$is":"a"}}}`)},
			"static no list":   {Name: promo.Ptr("x"), Type: promo.Ptr(segment.Static)},
			"static filter":    {Name: promo.Ptr("x"), Type: promo.Ptr(segment.Static), Customers: []string{"a"}, Filter: json.RawMessage(`{}`)},
			"no filter":        {Name: promo.Ptr("x"), Type: promo.Ptr(segment.AutoUpdate)},
			"empty filter":     {Name: promo.Ptr("x"), Type: promo.Ptr(segment.AutoUpdate), Filter: json.RawMessage(`{"junction":"and"}`)},
			"unknown field":    {Name: promo.Ptr("x"), Type: promo.Ptr(segment.AutoUpdate), Filter: json.RawMessage(`{"shoe_size":{"conditions":{"$is":"42"}}}`)},
			"unknown operator": {Name: promo.Ptr("x"), Type: promo.Ptr(segment.AutoUpdate), Filter: json.RawMessage(`{"birthdate":{"conditions":{"$next_month":[true]}}}`)},
			"bad date":         {Name: promo.Ptr("x"), Type: promo.Ptr(segment.AutoUpdate), Filter: json.RawMessage(`{"created_at":{"conditions":{"$after":["soon"]}}}`)},
			"bad junction":     {Name: promo.Ptr("x"), Type: promo.Ptr(segment.AutoUpdate), Filter: json.RawMessage(`{"junction":"xor","name":{"conditions":{"$is":"a"}}}`)},
		} {
			_, err := segs.Create(ctx, f.project, in)
			if e := wantErr(t, err, 400, "invalid_payload"); e.Details == "" {
				t.Errorf("%s: no details", name)
			}
		}
		_, err := segs.Create(ctx, f.project, segment.Params{Name: promo.Ptr("x"), Type: promo.Ptr(segment.Static), Customers: []string{"nobody"}})
		wantErr(t, err, 404, "not_found")
		l, _, err := f.store.ListSegments(ctx, f.project, promotype.Query{Limit: 10, OrderBy: "created_at"})
		if err != nil || len(l) != 0 {
			t.Errorf("segments after bad input: %v, %v", l, err)
		}
	})
}

// TestSegmentConcurrentUpdates moves one customer across an auto-update
// segment's boundary from many goroutines: it ends in the segment exactly
// when its final state matches, with entries and exits alternating (one
// entered per actual entry).
func TestSegmentConcurrentUpdates(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs, segs := f.eng.Customers(), f.eng.Segments()
		gold := must[*segment.Segment](t)(segs.Create(ctx, f.project, goldFilter(segment.AutoUpdate)))
		c := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr("flip")}))
		const workers, rounds = 8, 10
		var wg sync.WaitGroup
		errs := make(chan error, workers*rounds)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					club := "bronze"
					if (w+r)%2 == 0 {
						club = "gold"
					}
					_, err := cs.Update(ctx, f.project, c.ID, customer.UpdateParams{Params: customer.Params{
						Metadata: promo.Metadata{"club": club, "n": fmt.Sprint(w*rounds + r)}}})
					if err != nil {
						errs <- err
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		final := must[*customer.Customer](t)(cs.Get(ctx, f.project, c.ID))
		in := final.Metadata["club"] == "gold"
		got := segmentIDs(t, f, c.ID)
		if in != (len(got) == 1 && got[0] == gold.ID) {
			t.Errorf("final club %v, segments %v", final.Metadata["club"], got)
		}
		evs := segmentEvents(t, f, c.ID)
		for i, e := range evs {
			want := "entered " + gold.ID
			if i%2 == 1 {
				want = "left " + gold.ID
			}
			if e != want {
				t.Fatalf("event %d is %q, want %q (all: %v)", i, e, want, evs)
			}
		}
		if (len(evs)%2 == 1) != in {
			t.Errorf("%d events for a customer that ends in the segment: %v", len(evs), in)
		}
	})
}

// GET /v1/customers?segment_id= keeps the segment's members, paged, with
// the total of members; an unknown segment, or another project's, has
// none.
func TestCustomerListBySegment(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		cs, segs := f.eng.Customers(), f.eng.Segments()
		var picked []string
		for i, name := range []string{"ann", "ben", "cid", "dee", "eve"} {
			c := must[*customer.Customer](t)(cs.Upsert(ctx, f.project, customer.Params{SourceID: promo.Ptr(name),
				Metadata: promo.Metadata{"club": []string{"gold", "none"}[i%2]}}))
			if i != 2 {
				picked = append(picked, c.ID)
			}
		}
		static := must[*segment.Segment](t)(segs.Create(ctx, f.project, segment.Params{Name: promo.Ptr("Picked"), Type: promo.Ptr(segment.Static),
			Customers: picked}))
		gold := must[*segment.Segment](t)(segs.Create(ctx, f.project, goldFilter(segment.AutoUpdate)))
		list := func(seg string, limit, page int) ([]string, int) {
			t.Helper()
			l := must[*promotype.List[*customer.Customer]](t)(cs.List(ctx, f.project, customer.ListParams{SegmentID: &seg,
				ListParams: promotype.ListParams{Limit: limit, Page: page, Order: "created_at"}}))
			names := []string{}
			for _, c := range l.Data {
				names = append(names, *c.SourceID)
			}
			return names, l.Total
		}
		names, total := list(static.ID, 10, 1)
		diff(t, "static segment", []any{[]string{"ann", "ben", "dee", "eve"}, 4}, []any{names, total})
		names, total = list(static.ID, 2, 2)
		diff(t, "its second page of two", []any{[]string{"dee", "eve"}, 4}, []any{names, total})
		names, total = list(gold.ID, 10, 1)
		diff(t, "filter segment", []any{[]string{"ann", "cid", "eve"}, 3}, []any{names, total})
		names, total = list("seg_nope", 10, 1)
		diff(t, "unknown segment", []any{[]string{}, 0}, []any{names, total})
		other := must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Other"}))
		l := must[*promotype.List[*customer.Customer]](t)(cs.List(ctx, other.ID, customer.ListParams{SegmentID: &static.ID}))
		if len(l.Data) != 0 || l.Total != 0 {
			t.Errorf("another project lists %d of the segment's members (total %d)", len(l.Data), l.Total)
		}
	})
}
