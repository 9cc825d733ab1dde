package storagetest

import (
	"testing"

	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// binIDs lists the project's bin entry ids for q after after.
func binIDs(t *testing.T, s storage.Store, p string, q promotype.Query, after string) []string {
	t.Helper()
	es, err := s.ListBinEntries(ctx, p, q, after)
	must(t, err)
	return ids(es, func(e *bin.Entry) string { return e.ID })
}

// testBinEntries: the bin lists the binned campaigns, products, SKUs of
// live products and vouchers of live campaigns (or of none), not what was
// binned with its campaign or product; by id in either direction, after a
// cursor, with filters; one project's bin is not another's; an entry is
// found by its id only while binned.
func testBinEntries(t *testing.T, newStore Factory) {
	s := newStore(t)
	a, b := newProject(t, s, "proj_a"), newProject(t, s, "proj_b")
	gone, live := bareCampaign(a, 1, campaign.DiscountCoupons), bareCampaign(a, 2, campaign.DiscountCoupons)
	must(t, s.InsertCampaign(ctx, gone))
	must(t, s.InsertCampaign(ctx, live))
	for n, camp := range map[int]string{1: gone.ID, 2: live.ID, 3: live.ID, 4: ""} {
		must(t, s.InsertVoucher(ctx, discountVoucher(a, camp, n)))
	}
	_, err := s.InsertBatch(ctx, batchOf(a, gone.ID, 1, 2, at(5)))
	must(t, err)
	hat, shoe := product(a, 1), product(a, 2)
	must(t, s.InsertProduct(ctx, hat))
	must(t, s.InsertProduct(ctx, shoe))
	must(t, s.InsertSKU(ctx, sku(a, hat.ID, 1)))
	must(t, s.InsertSKU(ctx, sku(a, shoe.ID, 2)))
	must(t, s.InsertSKU(ctx, sku(a, shoe.ID, 3)))

	must(t, s.BinCampaign(ctx, a, gone.ID, at(10)))
	n, err := s.BinCampaignVouchers(ctx, a, gone.ID, at(10), 100)
	must(t, err)
	if n != 3 {
		t.Fatalf("binned %d vouchers of the campaign, want 3", n)
	}
	must(t, s.BinVoucher(ctx, a, "v_002", at(11)))
	must(t, s.BinVoucher(ctx, a, "v_004", at(12)))
	must(t, s.BinProduct(ctx, a, hat.ID, at(13)))
	must(t, s.BinSKU(ctx, a, "sku_002", at(14)))
	must(t, s.InsertVoucher(ctx, discountVoucher(b, "", 9)))
	must(t, s.BinVoucher(ctx, b, "v_009", at(15)))

	all := []string{"bin_camp_001", "bin_prod_001", "bin_sku_002", "bin_v_002", "bin_v_004"}
	diff(t, "all", all, binIDs(t, s, a, promotype.Query{Limit: 10}, ""))
	diff(t, "descending after bin_v_002", []string{"bin_sku_002", "bin_prod_001"},
		binIDs(t, s, a, promotype.Query{Limit: 2, Desc: true, OrderBy: "id"}, "bin_v_002"))
	diff(t, "ascending after bin_prod_001", []string{"bin_sku_002", "bin_v_002", "bin_v_004"},
		binIDs(t, s, a, promotype.Query{Limit: 10, OrderBy: "id"}, "bin_prod_001"))
	vouchers := promotype.Query{Limit: 10, Filter: promotype.Filter{Conditions: []promotype.Condition{
		{Field: "resource_type", Op: promotype.OpIs, Values: []string{bin.TypeVoucher}}}}}
	diff(t, "vouchers", []string{"bin_v_002", "bin_v_004"}, binIDs(t, s, a, vouchers, ""))
	diff(t, "project b", []string{"bin_v_009"}, binIDs(t, s, b, promotype.Query{Limit: 10}, ""))

	e, err := s.GetBinEntry(ctx, a, "bin_v_002")
	must(t, err)
	diff(t, "voucher entry", &bin.Entry{ID: "bin_v_002", CreatedAt: at(11), ResourceID: "v_002", ResourceType: bin.TypeVoucher,
		ResourceName: "CODE-002", ResourceParentID: ptr(live.ID), Object: bin.TypeVoucher, ProjectID: a}, e)
	e, err = s.GetBinEntry(ctx, a, "bin_sku_002")
	must(t, err)
	diff(t, "SKU entry", &bin.Entry{ID: "bin_sku_002", CreatedAt: at(14), ResourceID: "sku_002", ResourceType: bin.TypeSKU,
		ResourceName: "SKU 002", ResourceParentID: ptr(shoe.ID), Object: bin.TypeSKU, ProjectID: a}, e)
	for _, id := range []string{"bin_v_001", "bin_v_003", "bin_v_009", "v_002", "bin_sku_001"} {
		_, err = s.GetBinEntry(ctx, a, id)
		wantErr(t, "entry "+id, err, promotype.ErrNotFound)
	}
	must(t, s.DeleteVoucher(ctx, a, "v_002"))
	must(t, s.DeleteCampaign(ctx, a, gone.ID))
	diff(t, "after deletes", []string{"bin_prod_001", "bin_sku_002", "bin_v_004"}, binIDs(t, s, a, promotype.Query{Limit: 10}, ""))
}
