package promo_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// walkQualifications pages through body's qualification with limit,
// the cursor carried through JSON as a client would, and returns the
// redeemables' "object:id" in page order.
func walkQualifications(t *testing.T, fx fixture, body string, limit int) []string {
	t.Helper()
	var got []string
	var after *redemption.Cursor
	for page := 0; ; page++ {
		if page > 2000 {
			t.Fatal("the pages never end")
		}
		in := js[redemption.QualificationParams](t, body)
		if in.Options == nil {
			in.Options = &redemption.QualificationOptions{}
		}
		in.Options.Limit, in.Options.StartingAfter = &limit, after
		q := must[*redemption.Qualification](t)(fx.eng.Qualifications().Qualify(ctx, fx.project, in))
		for _, r := range q.Redeemables.Data {
			got = append(got, r.Object+":"+r.ID)
		}
		if !q.Redeemables.HasMore {
			return got
		}
		if len(q.Redeemables.Data) == 0 {
			t.Fatalf("page %d: has_more without redeemables", page)
		}
		raw := must[[]byte](t)(json.Marshal(q.Redeemables.MoreStartingAfter))
		after = new(redemption.Cursor)
		must[struct{}](t)(struct{}{}, json.Unmarshal(raw, after))
	}
}

// TestQualificationPagingTies: redeemables (vouchers and campaigns)
// sharing one created_at, paged one at a time, come each exactly once, in
// the order of one page holding them all (created_at descending, then id).
func TestQualificationPagingTies(t *testing.T) {
	eachStore(t, func(t *testing.T, fx fixture) {
		for i := range 4 { // one instant: CODE0..3
			in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`)
			in.Code = promotype.Ptr(fmt.Sprintf("CODE%d", i))
			createVoucher(t, fx, in)
		}
		for i := range 2 { // campaigns of codes at the same instant
			must[*campaign.Campaign](t)(fx.eng.Campaigns().Create(ctx, fx.project, js[campaign.Params](t, fmt.Sprintf(
				`{"name":"Tied %d","vouchers_count":1,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}}`, i))))
		}
		must[int](t)(fx.eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 10}))
		fx.clock.Advance(1e9)
		for i := range 3 { // a later instant: LATER0..2
			in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`)
			in.Code = promotype.Ptr(fmt.Sprintf("LATER%d", i))
			createVoucher(t, fx, in)
		}
		body := `{"order":{"amount":1000}}`
		want := walkQualifications(t, fx, body, 50)
		if len(want) != 9 {
			t.Fatalf("one page: %v", want)
		}
		for _, limit := range []int{1, 2, 3} {
			diff(t, fmt.Sprintf("pages of %d", limit), want, walkQualifications(t, fx, body, limit))
		}
		// A client giving a page's last created_at (no count) gets what
		// was created strictly before it, as the hosted service does.
		in := js[redemption.QualificationParams](t, body)
		at := must[*voucher.Voucher](t)(fx.eng.Vouchers().Get(ctx, fx.project, "LATER0")).CreatedAt
		in.Options = &redemption.QualificationOptions{Limit: promotype.Ptr(50), StartingAfter: redemption.CursorAt(at)}
		q := must[*redemption.Qualification](t)(fx.eng.Qualifications().Qualify(ctx, fx.project, in))
		diff(t, "before the later instant", want[3:], qualifiedIDsInOrder(q))
		for _, limit := range []int{1, 2} { // BEST_DEAL pages by created_at too: nothing is lost or repeated here
			got := walkQualifications(t, fx, `{"order":{"amount":1000},"options":{"sorting_rule":"BEST_DEAL"}}`, limit)
			slices.Sort(got)
			sorted := slices.Sorted(slices.Values(want))
			diff(t, fmt.Sprintf("BEST_DEAL pages of %d", limit), sorted, got)
		}
	})
}

func qualifiedIDsInOrder(q *redemption.Qualification) []string {
	out := []string{}
	for _, r := range q.Redeemables.Data {
		out = append(out, r.Object+":"+r.ID)
	}
	return out
}

// TestQualificationLargeWallet: a wallet larger than one read of a source
// (redemption.MaxQualificationSource) loses nothing: every voucher of it
// qualifies and the pages reach each one once, though they all share one
// created_at.
func TestQualificationLargeWallet(t *testing.T) {
	if testing.Short() {
		t.Skip("publishes over a thousand vouchers")
	}
	eachStore(t, func(t *testing.T, fx fixture) {
		n := redemption.MaxQualificationSource + 30
		must[*campaign.Campaign](t)(fx.eng.Campaigns().Create(ctx, fx.project, js[campaign.Params](t, fmt.Sprintf(
			`{"name":"Many","vouchers_count":%d,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":10}}}`, n))))
		must[int](t)(fx.eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 500}))
		var codes []string
		for len(codes) < n {
			pub := must[*publication.Publication](t)(fx.eng.Publications().Create(ctx, fx.project, publication.CreateParams{
				Campaign: &publication.CampaignRef{Name: promotype.Ptr("Many"), Count: promotype.Ptr(min(50, n-len(codes)))},
				Customer: &customer.Params{SourceID: promotype.Ptr("hoarder")}}))
			for _, code := range pub.Vouchers {
				codes = append(codes, "voucher:"+code)
			}
		}
		body := `{"scenario":"CUSTOMER_WALLET","customer":{"source_id":"hoarder"},"order":{"amount":1000}}`
		got := walkQualifications(t, fx, body, 50)
		slices.Sort(got)
		slices.Sort(codes)
		diff(t, "the wallet, page by page", codes, got)

		in := js[redemption.QualificationParams](t, body)
		in.Options = &redemption.QualificationOptions{Limit: promotype.Ptr(50), SortingRule: promotype.Ptr(redemption.SortBestDeal)}
		q := must[*redemption.Qualification](t)(fx.eng.Qualifications().Qualify(ctx, fx.project, in))
		if len(q.Redeemables.Data) != 50 || !q.Redeemables.HasMore {
			t.Errorf("BEST_DEAL: %d redeemables, has_more %v", len(q.Redeemables.Data), q.Redeemables.HasMore)
		}
	})
}
