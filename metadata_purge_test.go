package promo_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// TestMetadataKeyPurge purges one metadata key from each entity type
// through the Go API (the hosted service's dashboard-only
// *.METADATA_KEY_PURGE actions): the key leaves every row of the project,
// the other keys and the other project stay, the result is {message,
// done_count}, and progress moves by 10% at most.
func TestMetadataKeyPurge(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		e, p := f.eng, f.project
		other := must[*project.Project](t)(e.Projects().Create(ctx, project.Params{Name: "Other"})).ID
		meta := func(i int) promotype.Metadata { return promotype.Metadata{"color": "red", "keep": fmt.Sprint(i)} }
		for _, proj := range []string{p, other} {
			for i := range 12 {
				must[*catalog.Product](t)(e.Catalog().CreateProduct(ctx, proj, catalog.ProductParams{Name: promo.Ptr(fmt.Sprintf("P%d", i)), Metadata: meta(i)}))
				must[*customer.Customer](t)(e.Customers().Upsert(ctx, proj, customer.Params{SourceID: promo.Ptr(fmt.Sprintf("c%d", i)), Metadata: meta(i)}))
				must[*order.Order](t)(e.Orders().Create(ctx, proj, order.Params{Amount: promo.Ptr[int64](100), Metadata: meta(i)}))
			}
			in := discountCampaign("Spring", 25)
			in.Metadata = meta(0)
			c := must[*campaign.Campaign](t)(e.Campaigns().Create(ctx, proj, in))
			must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))
			var csv strings.Builder
			csv.WriteString("Code,color,keep\n")
			for i := range 3 {
				fmt.Fprintf(&csv, "IMP-%d,red,%d\n", i, i)
			}
			must[*async.Ref](t)(e.Imports().ImportCampaignVouchersCSV(ctx, proj, c.ID, strings.NewReader(csv.String())))
			must[*voucher.Voucher](t)(e.Vouchers().Create(ctx, proj, voucher.Params{Code: promo.Ptr("ALONE"), Type: promo.Ptr(campaign.DiscountVoucher),
				Discount: percentOff("5"), Common: voucher.Common{Metadata: meta(2)}}))
		}
		must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))

		_, err := e.Imports().PurgeMetadataKey(ctx, p, "SKUS", "color")
		wantErr(t, err, 400, "invalid_payload")
		_, err = e.Imports().PurgeMetadataKey(ctx, p, imports.PurgeProducts, "")
		wantErr(t, err, 400, "invalid_payload")

		for _, tc := range []struct {
			entity imports.MetadataEntity
			done   int64
		}{
			{imports.PurgeProducts, 12}, {imports.PurgeCustomers, 12}, {imports.PurgeOrders, 12},
			{imports.PurgeCampaigns, 1}, {imports.PurgeVouchers, 4},
		} {
			ref := must[*async.Ref](t)(e.Imports().PurgeMetadataKey(ctx, p, tc.entity, "color"))
			a := f.run(t, ref)
			if a.Type != string(tc.entity)+".METADATA_KEY_PURGE" {
				t.Errorf("action type %s", a.Type)
			}
			res := result[async.CountResult](t, a)
			want := async.CountResult{DoneCount: tc.done,
				Message: fmt.Sprintf("The metadata key color was removed from %d %s.", tc.done, strings.ToLower(string(tc.entity)))}
			diff(t, string(tc.entity)+" result", want, res)
		}
		// Every row lost the key and kept the other; the other project's
		// rows kept both.
		check := func(proj, what string, m promotype.Metadata) {
			t.Helper()
			_, has := m["color"]
			if has != (proj == other) || m["keep"] == nil {
				t.Errorf("%s of %s: %v", what, proj, m)
			}
		}
		for _, proj := range []string{p, other} {
			ps := must[*promo.List[*catalog.Product]](t)(e.Catalog().ListProducts(ctx, proj, promo.ListParams{Limit: 100}))
			for _, pr := range ps.Data {
				if pr.Name != nil && strings.HasPrefix(*pr.Name, "P") { // not the shipping product
					check(proj, "product "+pr.ID, pr.Metadata)
				}
			}
			cs := must[*promo.List[*customer.Customer]](t)(e.Customers().List(ctx, proj, customer.ListParams{ListParams: promo.ListParams{Limit: 100}}))
			for _, c := range cs.Data {
				check(proj, "customer "+c.ID, c.Metadata)
			}
			os := must[*promo.List[*order.Order]](t)(e.Orders().List(ctx, proj, promo.ListParams{Limit: 100}))
			for _, o := range os.Data {
				check(proj, "order "+o.ID, o.Metadata)
			}
			check(proj, "campaign", must[*campaign.Campaign](t)(e.Campaigns().Get(ctx, proj, "Spring")).Metadata)
			vs := must[*promo.List[*voucher.Voucher]](t)(e.Vouchers().List(ctx, proj, voucher.ListParams{ListParams: promo.ListParams{Limit: 100}}))
			if vs.Total != 29 {
				t.Fatalf("%d vouchers", vs.Total)
			}
			for _, v := range vs.Data {
				if !strings.HasPrefix(v.Code, "IMP-") && v.Code != "ALONE" {
					continue // generated: no metadata
				}
				check(proj, "voucher "+v.Code, v.Metadata)
			}
		}
		// A key no row holds: done at once, nothing changed.
		a := f.run(t, must[*async.Ref](t)(e.Imports().PurgeMetadataKey(ctx, p, imports.PurgeProducts, "nope")))
		if res := result[async.CountResult](t, a); res.DoneCount != 0 {
			t.Errorf("purge of a missing key: %+v", res)
		}
	})
}

// A purge whose runner dies mid-chunk resumes from its last committed
// chunk: every row loses the key and done_count counts each once.
func TestMetadataKeyPurgeResumes(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		e, p := f.eng, f.project
		for i := range 30 {
			must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: promo.Ptr(fmt.Sprintf("c%02d", i)),
				Metadata: promotype.Metadata{"color": "red"}}))
		}
		ref := must[*async.Ref](t)(e.Imports().PurgeMetadataKey(ctx, p, imports.PurgeCustomers, "color"))
		f.crashAt(4)
		a := must[*async.Action](t)(e.AsyncActions().Get(ctx, p, ref.AsyncActionID))
		if a.Status != async.StatusInProgress || a.Progress == 0 {
			t.Fatalf("after the crash: %s %d", a.Status, a.Progress)
		}
		f.clock.Advance(time.Minute)
		a = f.resume(t, ref)
		if res := result[async.CountResult](t, a); res.DoneCount != 30 || a.Attempts != 2 {
			t.Fatalf("resumed: %s attempts %d", a.Result, a.Attempts)
		}
		cs := must[*promo.List[*customer.Customer]](t)(e.Customers().List(ctx, p, customer.ListParams{ListParams: promo.ListParams{Limit: 100}}))
		for _, c := range cs.Data {
			if len(c.Metadata) != 0 {
				t.Errorf("customer %s kept %v", c.ID, c.Metadata)
			}
		}
	})
}
