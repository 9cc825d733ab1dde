package promo_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/segment"
	"github.com/promoengine/promo/storage"
)

// BenchmarkSegmentRule measures Engine.Promotions().Validate for a
// customer named by source id, against a promotion tier gated on
// customer.metadata (metadata: the baseline, which reads the customer
// too) and on customer.segment (segment), each in a project of its own
// with 10 or 10,000
// static segments of 100 members each (1M members for 10,000); the
// customer is a member of 5 of them. The difference between the two is
// what a segment rule adds: one read of the customer's segment ids (an
// index range of the members' primary key on PostgreSQL) and the rule.
func BenchmarkSegmentRule(b *testing.B) {
	for _, name := range sortedStores() {
		for _, n := range []int{10, 10_000} {
			st := storeFactories[name](b)
			for _, kind := range []struct{ name, rule string }{
				{"metadata", `{"name":"customer.metadata","property":"club","conditions":{"$is":["gold"]}}`},
				{"segment", `{"name":"customer.segment","conditions":{"$is":["seg_bench_000003"]}}`},
			} {
				b.Run(fmt.Sprintf("%s/segments=%d/%s", name, n, kind.name), func(b *testing.B) {
					eng, p := benchProject(b, func(testing.TB) storage.Store { return st })
					alice, err := eng.Customers().Upsert(ctx, p.ID, customer.Params{SourceID: promo.Ptr("alice"), Metadata: promo.Metadata{"club": "gold"}})
					if err != nil {
						b.Fatal(err)
					}
					seedSegments(b, st, p.ID, alice.ID, n)
					var rp rule.Params
					if err := json.Unmarshal([]byte(`{"name":"`+kind.name+`","rules":{"logic":"1","1":`+kind.rule+`}}`), &rp); err != nil {
						b.Fatal(err)
					}
					vr, err := eng.ValidationRules().Create(ctx, p.ID, rp)
					if err != nil {
						b.Fatal(err)
					}
					c, err := eng.Campaigns().Create(ctx, p.ID, campaign.Params{Name: promo.Ptr("Promos"), CampaignType: promo.Ptr(campaign.Promotion)})
					if err != nil {
						b.Fatal(err)
					}
					var tp campaign.TierParams
					if err := json.Unmarshal([]byte(`{"name":"gold","action":{"discount":{"type":"AMOUNT","amount_off":100}},"validation_rules":["`+vr.ID+`"]}`), &tp); err != nil {
						b.Fatal(err)
					}
					if _, err := eng.PromotionTiers().Create(ctx, p.ID, c.ID, tp); err != nil {
						b.Fatal(err)
					}
					var in promotion.ValidationParams
					if err := json.Unmarshal([]byte(`{"customer":{"source_id":"alice"},"order":{"amount":1000}}`), &in); err != nil {
						b.Fatal(err)
					}
					v, err := eng.Promotions().Validate(ctx, p.ID, in, promotion.ValidationQuery{})
					if err != nil || len(v.Promotions) != 1 {
						b.Fatalf("validation: %v, %+v", err, v)
					}
					b.ReportAllocs()
					for b.Loop() {
						if _, err := eng.Promotions().Validate(ctx, p.ID, in, promotion.ValidationQuery{}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// seedSegments stores n static segments (seg_bench_000000, ...) of 100
// members each, straight through the store; customerID is a member of
// the first 5.
func seedSegments(b *testing.B, st storage.Store, projectID, customerID string, n int) {
	b.Helper()
	at := promotype.NewTime(t0)
	members := make([]string, 100)
	for i := range n {
		sg := &segment.Segment{ID: fmt.Sprintf("seg_bench_%06d", i), ProjectID: projectID, Name: fmt.Sprint("bench ", i),
			Type: segment.Static, CreatedAt: at, InitialSyncStatus: segment.SyncDone}
		if err := st.InsertSegment(ctx, sg); err != nil {
			b.Fatal(err)
		}
		for j := range members {
			members[j] = fmt.Sprintf("cust_bench_%06d_%03d", i, j)
		}
		if i < 5 {
			members[0] = customerID
		}
		if err := st.AddSegmentMembers(ctx, projectID, sg.ID, members, at); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSegmentMembershipUpdate measures Engine.Customers().Update of
// a customer whose every update moves it into or out of 100 auto-update
// segments (each writes 100 membership rows or deletes them, and 100
// customer.segment.entered or left events), and, for the baseline, of a
// customer in a project without segments.
func BenchmarkSegmentMembershipUpdate(b *testing.B) {
	for _, name := range sortedStores() {
		for _, n := range []int{0, segment.MaxDynamic} {
			b.Run(fmt.Sprintf("%s/segments=%d", name, n), func(b *testing.B) { benchMembershipUpdate(b, name, n) })
		}
	}
}

// benchMembershipUpdate runs BenchmarkSegmentMembershipUpdate with n
// segments (0: the update alone, the baseline).
func benchMembershipUpdate(b *testing.B, name string, n int) {
	{
		{
			eng, p := benchProject(b, storeFactories[name])
			for i := range n {
				if _, err := eng.Segments().Create(ctx, p.ID, segment.Params{Name: promo.Ptr(fmt.Sprint("flip ", i)), Type: promo.Ptr(segment.AutoUpdate),
					Filter: json.RawMessage(`{"metadata.flip":{"conditions":{"$is":["yes"]}}}`)}); err != nil {
					b.Fatal(err)
				}
			}
			c, err := eng.Customers().Upsert(ctx, p.ID, customer.Params{SourceID: promo.Ptr("flipper")})
			if err != nil {
				b.Fatal(err)
			}
			flip := []string{"yes", "no"}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				if _, err := eng.Customers().Update(ctx, p.ID, c.ID, customer.UpdateParams{Params: customer.Params{Metadata: promo.Metadata{"flip": flip[i%2]}}}); err != nil {
					b.Fatal(err)
				}
			}
			segs, err := eng.Segments().ForCustomer(ctx, p.ID, c.ID)
			if err != nil || (segs.Total == n) != (i%2 == 0) {
				b.Fatalf("after %d updates the customer is in %d segments (%v)", i, segs.Total, err)
			}
		}
	}
}

// sortedStores is the names of storeFactories in order.
func sortedStores() []string {
	var out []string
	for name := range storeFactories {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
