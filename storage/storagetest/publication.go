package storagetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// testPublications covers publication.Store: rows, the wallet and the
// conditional updates that give vouchers their holder, alone and under
// concurrency.
func testPublications(t *testing.T, newStore Factory) {
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, storage.Store)
	}{
		{"Rows", testPublicationRows},
		{"Wallet", testHolderRows},
		{"PublishVoucher", testPublishVoucher},
		{"ClaimCampaignVouchers", testClaimCampaignVouchers},
		{"ClaimConcurrency", testClaimConcurrency},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func pubRow(projectID string, n int, customerID string, campaignID *string, codes ...string) *publication.Publication {
	p := &publication.Publication{
		ID: fmt.Sprintf("pub_%03d", n), ProjectID: projectID, CreatedAt: at(n), CustomerID: customerID,
		TrackingID: ptr("src-" + customerID), CampaignID: campaignID, Metadata: promotype.Metadata{"n": float64(n)},
		Channel: "API", Result: publication.ResultSuccess, VoucherType: campaign.DiscountVoucher,
	}
	for _, c := range codes {
		p.VouchersID = append(p.VouchersID, "v_"+c)
		p.VoucherCodes = append(p.VoucherCodes, c)
	}
	return p
}

func pubID(p *publication.Publication) string { return p.ID }

func testPublicationRows(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	one := pubRow(p, 1, "cust_1", ptr("camp_1"), "A1")
	one.SourceID = ptr("src-1")
	must(t, s.InsertPublication(ctx, one))
	two := pubRow(p, 2, "cust_1", ptr("camp_1"), "A2", "A3")
	two.IsReferralCode, two.Channel = true, "myown"
	must(t, s.InsertPublication(ctx, two))
	must(t, s.InsertPublication(ctx, pubRow(p, 3, "cust_2", nil, "S1")))

	dup := pubRow(p, 4, "cust_2", nil, "S2")
	dup.SourceID = ptr("src-1")
	wantErr(t, "a taken source id", s.InsertPublication(ctx, dup), promotype.ErrDuplicateFound)
	wantErr(t, "a taken id", s.InsertPublication(ctx, pubRow(p, 1, "cust_3", nil, "S3")), promotype.ErrDuplicateFound)
	elsewhere := pubRow(other, 1, "cust_1", nil, "A1")
	elsewhere.SourceID = ptr("src-1")
	must(t, s.InsertPublication(ctx, elsewhere)) // another project's source ids are its own

	got, err := s.FindPublicationBySourceID(ctx, p, "src-1")
	must(t, err)
	diff(t, "found by source id", one, got)
	got.Metadata["n"] = "changed"
	again, err := s.FindPublicationBySourceID(ctx, p, "src-1")
	must(t, err)
	diff(t, "after changing the returned value", one, again)
	_, err = s.FindPublicationBySourceID(ctx, p, "src-9")
	wantErr(t, "unknown source id", err, promotype.ErrNotFound)

	latest, err := s.FindCampaignPublication(ctx, p, "cust_1", "camp_1")
	must(t, err)
	diff(t, "latest campaign publication", two, latest)
	_, err = s.FindCampaignPublication(ctx, p, "cust_2", "camp_1")
	wantErr(t, "no publication of the campaign", err, promotype.ErrNotFound)
	_, err = s.FindCampaignPublication(ctx, other, "cust_1", "camp_1")
	wantErr(t, "another project's publication", err, promotype.ErrNotFound)

	for _, tc := range []struct {
		name string
		q    promotype.Query
		want []string
		n    int
	}{
		{"newest first", promotype.Query{Limit: 10, OrderBy: "created_at", Desc: true}, []string{"pub_003", "pub_002", "pub_001"}, 3},
		{"page", promotype.Query{Limit: 1, Offset: 1, OrderBy: "created_at"}, []string{"pub_002"}, 3},
		{"by voucher code", promotype.Query{Limit: 10, OrderBy: "voucher_code", Desc: true}, []string{"pub_003", "pub_002", "pub_001"}, 3},
		{"customer", promotype.Query{Limit: 10, OrderBy: "id", Must: []promotype.Condition{cond("customer_id", promotype.OpIs, "cust_1")}}, []string{"pub_001", "pub_002"}, 2},
		{"voucher code", promotype.Query{Limit: 10, OrderBy: "id", Must: []promotype.Condition{cond("voucher_code", promotype.OpIs, "A2")}}, []string{"pub_002"}, 1},
		{"campaign", promotype.Query{Limit: 10, OrderBy: "id", Must: []promotype.Condition{cond("campaign_id", promotype.OpIs, "camp_1")}}, []string{"pub_001", "pub_002"}, 2},
		{"referral", promotype.Query{Limit: 10, OrderBy: "id", Must: []promotype.Condition{cond("is_referral_code", promotype.OpIs, "true")}}, []string{"pub_002"}, 1},
		{"channel", promotype.Query{Limit: 10, OrderBy: "channel", Must: []promotype.Condition{cond("channel", promotype.OpIs, "API")}}, []string{"pub_001", "pub_003"}, 2},
		{"source id", promotype.Query{Limit: 10, OrderBy: "id", Must: []promotype.Condition{cond("source_id", promotype.OpIs, "src-1")}}, []string{"pub_001"}, 1},
	} {
		items, total, err := s.ListPublications(ctx, p, tc.q)
		must(t, err)
		diff(t, tc.name, tc.want, ids(items, pubID))
		if total != tc.n {
			t.Errorf("%s: total %d, want %d", tc.name, total, tc.n)
		}
	}
	items, _, err := s.ListPublications(ctx, p, promotype.Query{Limit: 10, OrderBy: "id"})
	must(t, err)
	diff(t, "listed rows", []*publication.Publication{one, two, pubRow(p, 3, "cust_2", nil, "S1")}, items)
}

func holderRow(projectID string, n int, customerID, voucherID string) *publication.Holder {
	return &publication.Holder{
		ID: fmt.Sprintf("rh_%03d", n), ProjectID: projectID, CreatedAt: at(n), RedeemableID: voucherID,
		RedeemableObject: "voucher", CustomerID: customerID, HolderRole: publication.RoleOwner,
		CampaignID: ptr("camp_1"), CampaignType: ptr(campaign.DiscountCoupons), VoucherType: campaign.DiscountVoucher,
	}
}

func holderID(h *publication.Holder) string { return h.ID }

func testHolderRows(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	for i := 1; i <= 5; i++ {
		must(t, s.InsertHolder(ctx, holderRow(p, i, "cust_1", fmt.Sprintf("v_%d", i))))
	}
	must(t, s.InsertHolder(ctx, holderRow(p, 6, "cust_2", "v_6")))
	must(t, s.InsertHolder(ctx, holderRow(p, 7, "cust_1", "v_1"))) // held already: kept as it was
	must(t, s.InsertHolder(ctx, holderRow(other, 8, "cust_1", "v_8")))

	page := func(after string, q promotype.Query) ([]string, int) {
		t.Helper()
		items, total, err := s.ListHolders(ctx, p, "cust_1", after, q)
		must(t, err)
		return ids(items, holderID), total
	}
	got, total := page("", promotype.Query{Limit: 2, OrderBy: "id"})
	diff(t, "first page", []string{"rh_001", "rh_002"}, got)
	if total != 5 {
		t.Errorf("total %d, want 5", total)
	}
	got, total = page("rh_002", promotype.Query{Limit: 2, OrderBy: "id"})
	diff(t, "after rh_002", []string{"rh_003", "rh_004"}, got)
	if total != 5 {
		t.Errorf("total after the cursor %d, want 5", total)
	}
	got, _ = page("rh_004", promotype.Query{Limit: 2, OrderBy: "id", Desc: true})
	diff(t, "descending after rh_004", []string{"rh_003", "rh_002"}, got)
	got, total = page("", promotype.Query{Limit: 10, OrderBy: "id", Filter: promotype.Filter{Conditions: []promotype.Condition{cond("redeemable_id", promotype.OpIn, "v_2", "v_5")}}})
	diff(t, "filtered", []string{"rh_002", "rh_005"}, got)
	if total != 2 {
		t.Errorf("filtered total %d, want 2", total)
	}
	items, _, err := s.ListHolders(ctx, p, "cust_1", "", promotype.Query{Limit: 1, OrderBy: "id"})
	must(t, err)
	diff(t, "stored row", []*publication.Holder{holderRow(p, 1, "cust_1", "v_1")}, items)
	items, _, err = s.ListHolders(ctx, other, "cust_2", "", promotype.Query{Limit: 10, OrderBy: "id"})
	must(t, err)
	if len(items) != 0 {
		t.Errorf("another project's wallet: %v", ids(items, holderID))
	}
}

func testPublishVoucher(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	v := discountVoucher(p, "camp_1", 1)
	must(t, s.InsertVoucher(ctx, v))
	must(t, second(s.InsertBatch(ctx, batchOf(p, "camp_1", 1, 2, at(0)))))

	got, held, err := s.PublishVoucher(ctx, p, v.ID, "cust_1", at(10))
	must(t, err)
	want := v.Clone()
	want.HolderID, want.PublishCount, want.UpdatedAt = ptr("cust_1"), 1, at(10).Ptr()
	if held {
		t.Errorf("a free voucher answered held")
	}
	diff(t, "published", want, got)
	got, held, err = s.PublishVoucher(ctx, p, v.ID, "cust_1", at(11))
	must(t, err)
	if held || got.PublishCount != 2 {
		t.Errorf("again to its holder: held %v, publish count %d; want false, 2", held, got.PublishCount)
	}
	got, held, err = s.PublishVoucher(ctx, p, v.ID, "cust_2", at(12))
	must(t, err)
	if !held || *got.HolderID != "cust_1" {
		t.Errorf("to another customer: held %v, holder %v; want true, cust_1", held, *got.HolderID)
	}
	stored, err := s.GetVoucher(ctx, p, v.ID)
	must(t, err)
	if *stored.HolderID != "cust_1" || stored.PublishCount != 2 {
		t.Errorf("stored holder %s, publish count %d; want cust_1, 2", *stored.HolderID, stored.PublishCount)
	}
	// A generated voucher (a slab row in memory) is published alone.
	got, _, err = s.PublishVoucher(ctx, p, "v_b1_0001", "cust_3", at(13))
	must(t, err)
	if *got.HolderID != "cust_3" || got.Code != "B1-0001" {
		t.Errorf("generated voucher: holder %v, code %s", got.HolderID, got.Code)
	}
	sibling, err := s.GetVoucher(ctx, p, "v_b1_0000")
	must(t, err)
	if sibling.HolderID != nil || sibling.PublishCount != 0 {
		t.Errorf("the batch's other voucher changed: holder %v, count %d", sibling.HolderID, sibling.PublishCount)
	}
	_, _, err = s.PublishVoucher(ctx, other, v.ID, "cust_1", at(14))
	wantErr(t, "another project's voucher", err, promotype.ErrNotFound)
	_, _, err = s.PublishVoucher(ctx, p, "v_none", "cust_1", at(14))
	wantErr(t, "unknown voucher", err, promotype.ErrNotFound)
}

// seedFreeCampaign stores campaign camp_free's vouchers: n free ones (a
// generated batch and some held alone) and one each that is not free
// (inactive, held, binned, of another campaign). It returns the free ids.
func seedFreeCampaign(t *testing.T, s storage.Store, p string, n int) []string {
	t.Helper()
	alone := min(3, n)
	var free []string
	for i := range alone {
		v := discountVoucher(p, "camp_free", 100+i)
		must(t, s.InsertVoucher(ctx, v))
		free = append(free, v.ID)
	}
	if n > alone {
		b := batchOf(p, "camp_free", 7, n-alone, at(0))
		must(t, second(s.InsertBatch(ctx, b)))
		for i := range n - alone {
			free = append(free, fmt.Sprintf("v_b7_%04d", i))
		}
	}
	inactive := discountVoucher(p, "camp_free", 200)
	inactive.Active = false
	heldV := discountVoucher(p, "camp_free", 201)
	heldV.HolderID, heldV.PublishCount = ptr("cust_x"), 1
	binned := discountVoucher(p, "camp_free", 202)
	otherCamp := discountVoucher(p, "camp_other", 203)
	for _, v := range []*voucher.Voucher{inactive, heldV, binned, otherCamp} {
		must(t, s.InsertVoucher(ctx, v))
	}
	must(t, s.BinVoucher(ctx, p, binned.ID, at(1)))
	slices.Sort(free)
	return free
}

func voucherIDOf(v *voucher.Voucher) string { return v.ID }

func testClaimCampaignVouchers(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	other := newProject(t, s, "proj_b")
	free := seedFreeCampaign(t, s, p, 6)

	// A claim that rolls back leaves its vouchers free.
	errRollback := fmt.Errorf("roll back")
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		got, err := tx.ClaimCampaignVouchers(ctx, p, "camp_free", "cust_1", 2, at(10))
		must(t, err)
		diff(t, "claimed in the rolled back transaction", free[:2], ids(got, voucherIDOf))
		return errRollback
	})
	if err != errRollback {
		t.Fatalf("rollback: %v", err)
	}
	got, err := s.ClaimCampaignVouchers(ctx, p, "camp_free", "cust_1", 2, at(11))
	must(t, err)
	diff(t, "the lowest free ids", free[:2], ids(got, voucherIDOf))
	for _, v := range got {
		if *v.HolderID != "cust_1" || v.PublishCount != 1 || !v.UpdatedAt.Equal(at(11)) {
			t.Errorf("%s: holder %v, count %d, updated_at %v", v.ID, v.HolderID, v.PublishCount, v.UpdatedAt)
		}
	}
	stored, err := s.GetVoucher(ctx, p, free[0])
	must(t, err)
	if stored.HolderID == nil || *stored.HolderID != "cust_1" {
		t.Errorf("stored holder %v, want cust_1", stored.HolderID)
	}
	got, err = s.ClaimCampaignVouchers(ctx, other, "camp_free", "cust_1", 2, at(12))
	must(t, err)
	if len(got) != 0 {
		t.Errorf("another project's campaign gave %v", ids(got, voucherIDOf))
	}
	got, err = s.ClaimCampaignVouchers(ctx, p, "camp_free", "cust_2", 10, at(12))
	must(t, err)
	diff(t, "the rest", free[2:], ids(got, voucherIDOf))
	got, err = s.ClaimCampaignVouchers(ctx, p, "camp_free", "cust_3", 1, at(13))
	must(t, err)
	if len(got) != 0 {
		t.Errorf("a campaign without free vouchers gave %v", ids(got, voucherIDOf))
	}
}

// testClaimConcurrency: concurrent claims of one voucher each give every
// customer a different voucher, never one twice; the claims beyond the
// free vouchers get none. Each claim runs in its own transaction.
func testClaimConcurrency(t *testing.T, s storage.Store) {
	p := newProject(t, s, "proj_a")
	const free, claims = 24, 40
	want := seedFreeCampaign(t, s, p, free)
	var mu sync.Mutex
	got := map[string]string{} // voucher id → customer
	empty := 0
	var wg sync.WaitGroup
	errs := make(chan error, claims)
	for i := range claims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cust := fmt.Sprintf("cust_%02d", i)
			err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				vs, err := tx.ClaimCampaignVouchers(ctx, p, "camp_free", cust, 1, at(20))
				if err != nil {
					return err
				}
				mu.Lock()
				defer mu.Unlock()
				switch len(vs) {
				case 0:
					empty++
				case 1:
					if prev, ok := got[vs[0].ID]; ok {
						return fmt.Errorf("voucher %s given to %s and %s", vs[0].ID, prev, cust)
					}
					got[vs[0].ID] = cust
				default:
					return fmt.Errorf("%s got %d vouchers, asked 1", cust, len(vs))
				}
				return nil
			})
			errs <- err
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%d concurrent claims did not finish in 60s", claims)
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	claimed := make([]string, 0, len(got))
	for id := range got {
		claimed = append(claimed, id)
	}
	slices.Sort(claimed)
	diff(t, "claimed vouchers", want, claimed)
	if empty != claims-free {
		t.Errorf("%d claims got nothing, want %d", empty, claims-free)
	}
	for id, cust := range got {
		v, err := s.GetVoucher(ctx, p, id)
		must(t, err)
		if v.HolderID == nil || *v.HolderID != cust || v.PublishCount != 1 {
			t.Errorf("%s: holder %v, publish count %d; want %s, 1", id, v.HolderID, v.PublishCount, cust)
		}
	}
}
