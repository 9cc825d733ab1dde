package promo_test

import (
	"fmt"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/voucher"
)

// parallelBounded runs fn(0..n-1) concurrently (inParallel) and returns
// each call's result.
func parallelBounded[T any](t *testing.T, n int, fn func(i int) (T, error)) ([]T, []error) {
	t.Helper()
	out, errs := make([]T, n), make([]error, n)
	inParallel(t, n, func(i int) { out[i], errs[i] = fn(i) })
	return out, errs
}

// TestPublishConcurrency publishes a campaign's vouchers to many customers
// at once through two engines over one store (one database on PostgreSQL):
// every customer gets a different code, no code is given twice, the
// requests beyond the free vouchers fail with
// no_voucher_suitable_for_publication and change nothing, and concurrent
// join_once publications to one customer give one voucher.
func TestPublishConcurrency(t *testing.T) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			st := newStore(t)
			clock := promotype.NewManualClock(t0)
			eng := must[*promo.Engine](t)(promo.New(st, promo.WithClock(clock), promo.WithIDGenerator(promotype.RandomIDs{})))
			other := must[*promo.Engine](t)(promo.New(st, promo.WithClock(clock), promo.WithIDGenerator(promotype.RandomIDs{})))
			engines := []*promo.Engine{eng, other}
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"})).ID
			const free, asks = 16, 24
			must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
				fmt.Sprintf(`{"name":"Drop","type":"STATIC","vouchers_count":%d,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`, free))))
			must[int](t)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100}))

			pubs, errs := parallelBounded(t, asks, func(i int) (*publication.Publication, error) {
				return engines[i%2].Publications().Create(ctx, p, publication.CreateParams{
					Campaign: &publication.CampaignRef{Name: promotype.Ptr("Drop")},
					Customer: &customer.Params{SourceID: promotype.Ptr(fmt.Sprintf("c%02d", i))},
				})
			})
			byCode := map[string]string{}
			refused := 0
			for i, err := range errs {
				if err != nil {
					wantErr(t, err, 400, "no_voucher_suitable_for_publication")
					refused++
					continue
				}
				code := pubs[i].Voucher.Code
				if prev, ok := byCode[code]; ok {
					t.Errorf("code %s published to %s and c%02d", code, prev, i)
				}
				byCode[code] = fmt.Sprintf("c%02d", i)
				if *pubs[i].Voucher.HolderID != pubs[i].CustomerID || pubs[i].Voucher.Publish.Count != 1 {
					t.Errorf("c%02d: voucher holder %v, publish count %d", i, *pubs[i].Voucher.HolderID, pubs[i].Voucher.Publish.Count)
				}
			}
			diff(t, "published and refused", []int{free, asks - free}, []int{len(byCode), refused})

			// Every voucher of the campaign is held by the customer it was published to.
			vs := must[*promotype.List[*voucher.Voucher]](t)(eng.Vouchers().List(ctx, p, voucher.ListParams{Campaign: promotype.Ptr("Drop"),
				ListParams: promotype.ListParams{Limit: 100}}))
			for _, v := range vs.Data {
				src, ok := byCode[v.Code]
				if !ok || v.HolderID == nil {
					t.Errorf("voucher %s: holder %v, published %v", v.Code, v.HolderID, ok)
					continue
				}
				c := must[*customer.Customer](t)(eng.Customers().Get(ctx, p, src))
				if *v.HolderID != c.ID {
					t.Errorf("voucher %s held by %s, published to %s", v.Code, *v.HolderID, c.ID)
				}
				w := must[*publication.Wallet](t)(eng.Publications().Wallet(ctx, p, src, publication.WalletParams{}))
				if len(w.Data) != 1 || w.Data[0].Redeemable.Voucher.Code != v.Code {
					t.Errorf("wallet of %s: %d rows, want the one voucher %s", src, len(w.Data), v.Code)
				}
			}
			// The refused requests changed nothing: no publication, no customer.
			list := must[*promotype.List[*publication.Publication]](t)(eng.Publications().List(ctx, p, publication.ListParams{ListParams: promotype.ListParams{Limit: 100}}))
			if list.Total != free {
				t.Errorf("%d publications stored, want %d", list.Total, free)
			}

			// join_once: concurrent requests of one customer share one voucher.
			must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
				`{"name":"Once","type":"STATIC","vouchers_count":8,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)))
			must[int](t)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100}))
			must[*customer.Customer](t)(eng.Customers().Upsert(ctx, p, customer.Params{SourceID: promotype.Ptr("joiner")}))
			joined, errs := parallelBounded(t, 6, func(i int) (*publication.Publication, error) {
				return engines[i%2].Publications().Create(ctx, p, publication.CreateParams{JoinOnce: true,
					Campaign: &publication.CampaignRef{Name: promotype.Ptr("Once")},
					Customer: &customer.Params{SourceID: promotype.Ptr("joiner")},
				})
			})
			for i, err := range errs {
				must[*publication.Publication](t)(joined[i], err)
				if joined[i].ID != joined[0].ID || joined[i].Voucher.Code != joined[0].Voucher.Code {
					t.Errorf("join_once request %d got %s (%s), request 0 got %s (%s)", i, joined[i].ID, joined[i].Voucher.Code, joined[0].ID, joined[0].Voucher.Code)
				}
			}
		})
	}
}

// TestPublish walks the Go API of publications on every store: the next
// free voucher, a source id answered again, a given voucher, the refusals,
// the list and the wallet.
func TestPublish(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		e, p := f.eng, f.project
		must[*campaign.Campaign](t)(e.Campaigns().Create(ctx, p, js[campaign.Params](t,
			`{"name":"Summer","type":"STATIC","vouchers_count":0,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)))
		must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))
		for _, code := range []string{"S1", "S2", "S3"} {
			must[*voucher.Voucher](t)(e.Vouchers().CreateInCampaign(ctx, p, "Summer", voucher.CampaignParams{}, promotype.Ptr(code)))
		}
		alice := &customer.Params{SourceID: promotype.Ptr("alice"), Name: promotype.Ptr("Alice")}
		summer := &publication.CampaignRef{Name: promotype.Ptr("Summer")}

		first := must[*publication.Publication](t)(e.Publications().Create(ctx, p, publication.CreateParams{Campaign: summer, Customer: alice, SourceID: promotype.Ptr("crm-1")}))
		diff(t, "first publication", []any{"S1", "alice", "API", publication.ResultSuccess, []string{first.Voucher.ID}},
			[]any{first.Voucher.Code, *first.TrackingID, first.Channel, first.Result, first.VouchersID})
		again := must[*publication.Publication](t)(e.Publications().Create(ctx, p, publication.CreateParams{Campaign: summer, Customer: alice, SourceID: promotype.Ptr("crm-1")}))
		if again.ID != first.ID || again.Voucher.Code != "S1" {
			t.Errorf("same source id: got %s (%s), want %s (S1)", again.ID, again.Voucher.Code, first.ID)
		}
		_, err := e.Publications().Create(ctx, p, publication.CreateParams{Campaign: summer, Customer: &customer.Params{SourceID: promotype.Ptr("bob")}, SourceID: promotype.Ptr("crm-1")})
		wantErr(t, err, 400, "duplicate_source_id")

		two := must[*publication.Publication](t)(e.Publications().Create(ctx, p, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promotype.Ptr("Summer"), Count: promotype.Ptr(2)}, Customer: alice}))
		diff(t, "two vouchers", []string{"S2", "S3"}, two.Vouchers)
		if two.Voucher != nil || len(two.VouchersID) != 2 {
			t.Errorf("two vouchers: voucher %v, vouchers_id %v", two.Voucher, two.VouchersID)
		}
		_, err = e.Publications().Create(ctx, p, publication.CreateParams{Campaign: summer, Customer: alice})
		wantErr(t, err, 400, "no_voucher_suitable_for_publication")
		_, err = e.Publications().Create(ctx, p, publication.CreateParams{Voucher: promotype.Ptr("S1"), Customer: &customer.Params{SourceID: promotype.Ptr("bob")}})
		wantErr(t, err, 400, "voucher_already_published")
		_, err = e.Publications().Create(ctx, p, publication.CreateParams{Voucher: promotype.Ptr("NOPE"), Customer: alice})
		wantErr(t, err, 404, "not_found")
		_, err = e.Publications().Create(ctx, p, publication.CreateParams{Customer: alice})
		wantErr(t, err, 400, "missing_vouchers")
		if _, err := e.Customers().Get(ctx, p, "bob"); err == nil {
			t.Errorf("a refused publication created its customer")
		}
		// Publishing a voucher to its holder again counts one more publication.
		re := must[*publication.Publication](t)(e.Publications().Create(ctx, p, publication.CreateParams{Voucher: promotype.Ptr("S1"), Customer: alice}))
		if re.Voucher.Publish.Count != 2 {
			t.Errorf("publish count %d, want 2", re.Voucher.Publish.Count)
		}

		list := must[*promotype.List[*publication.Publication]](t)(e.Publications().List(ctx, p, publication.ListParams{
			ListParams: promotype.ListParams{Limit: 10, Order: "created_at"}, Voucher: promotype.Ptr("S1")}))
		diff(t, "publications of S1", []string{first.ID, re.ID}, []string{list.Data[0].ID, list.Data[1].ID})
		w := must[*publication.Wallet](t)(e.Publications().Wallet(ctx, p, "alice", publication.WalletParams{ListParams: promotype.ListParams{Limit: 2}}))
		if len(w.Data) != 2 || !w.HasMore || w.MoreStartingAfter == nil || w.Total != 3 {
			t.Fatalf("wallet page 1: %d rows, has_more %v, total %d", len(w.Data), w.HasMore, w.Total)
		}
		w2 := must[*publication.Wallet](t)(e.Publications().Wallet(ctx, p, "alice", publication.WalletParams{ListParams: promotype.ListParams{Limit: 2}, StartingAfterID: *w.MoreStartingAfter}))
		codes := []string{}
		for _, h := range append(w.Data, w2.Data...) {
			codes = append(codes, h.Redeemable.Voucher.Code)
			if h.Redeemable.Status != publication.StatusActive || h.HolderRole != publication.RoleOwner {
				t.Errorf("%s: status %s, role %s", h.Redeemable.Voucher.Code, h.Redeemable.Status, h.HolderRole)
			}
		}
		if len(codes) != 3 || w2.HasMore {
			t.Errorf("wallet: codes %v, second page has_more %v", codes, w2.HasMore)
		}
	})
}

// A publication appends voucher.published for each voucher and one
// publication.succeeded, in its transaction, with the data keys
// the hosted service documents for voucher.published; a refused publication
// appends none.
func TestPublicationEvents(t *testing.T) {
	f := newOutboxFixture(t)
	e, p := f.eng, f.project
	must[*campaign.Campaign](t)(e.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Summer","type":"STATIC","vouchers_count":0,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}}`)))
	must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))
	v1 := must[*voucher.Voucher](t)(e.Vouchers().CreateInCampaign(ctx, p, "Summer", voucher.CampaignParams{}, promotype.Ptr("S1")))
	v2 := must[*voucher.Voucher](t)(e.Vouchers().CreateInCampaign(ctx, p, "Summer", voucher.CampaignParams{}, promotype.Ptr("S2")))
	must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: promotype.Ptr("alice")}))
	from := f.count()
	pub := must[*publication.Publication](t)(e.Publications().Create(ctx, p, publication.CreateParams{
		Campaign: &publication.CampaignRef{Name: promotype.Ptr("Summer"), Count: promotype.Ptr(2)},
		Customer: &customer.Params{SourceID: promotype.Ptr("alice")}}))
	keys := []string{"customer", "campaign", "publication", "voucher", "created_at="}
	diff(t, "events", []outboxEvent{
		ev(publication.EventVoucherPublished, v1.ID, keys...),
		ev(publication.EventVoucherPublished, v2.ID, keys...),
		ev(publication.EventSucceeded, pub.ID, keys...),
	}, f.since(t, from))
	from = f.count()
	_, err := e.Publications().Create(ctx, p, publication.CreateParams{Campaign: &publication.CampaignRef{Name: promotype.Ptr("Summer")},
		Customer: &customer.Params{SourceID: promotype.Ptr("bob")}})
	wantErr(t, err, 400, "no_voucher_suitable_for_publication")
	diff(t, "events of a refused publication", []outboxEvent{}, f.since(t, from))
}
