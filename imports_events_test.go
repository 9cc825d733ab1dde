package promo_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// outbox takes the project's events appended since the last call (a
// fan-out that plans no sendouts), on either store.
func (f importFixture) outbox(t *testing.T) []*promotype.Event {
	t.Helper()
	var out []*promotype.Event
	_, _, err := f.spy.FanOutEvents(ctx, 1_000_000, func(e *promotype.Event, _ []*webhook.Webhook) []*webhook.Sendout {
		if e.ProjectID == f.project {
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// createdCodes returns the codes of the voucher.created events among evs,
// in order, and checks each one's data is what a voucher created alone
// tells: {voucher, campaign}, the voucher as a Get shows it.
func (f importFixture) createdCodes(t *testing.T, evs []*promotype.Event) []string {
	t.Helper()
	codes := []string{}
	for _, e := range evs {
		if e.Type != voucher.EventCreated {
			continue
		}
		var data struct {
			Voucher  json.RawMessage `json:"voucher"`
			Campaign json.RawMessage `json:"campaign"`
		}
		if err := json.Unmarshal(e.Data, &data); err != nil {
			t.Fatal(err)
		}
		var v voucher.Voucher
		if err := json.Unmarshal(data.Voucher, &v); err != nil {
			t.Fatal(err)
		}
		got := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, v.Code))
		var want, have any
		if err := json.Unmarshal(must[[]byte](t)(json.Marshal(got)), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data.Voucher, &have); err != nil {
			t.Fatal(err)
		}
		diff(t, "voucher.created data.voucher of "+v.Code, want, have)
		if e.EntityID != got.ID {
			t.Errorf("%s: entity %s, want %s", v.Code, e.EntityID, got.ID)
		}
		hasCampaign := got.CampaignID != nil
		if (string(data.Campaign) == "null") == hasCampaign {
			t.Errorf("%s: data.campaign %s, the voucher's campaign %v", v.Code, data.Campaign, got.CampaignID)
		}
		codes = append(codes, v.Code)
	}
	return codes
}

// Every voucher an import creates puts voucher.created in the outbox, in
// the chunk's transaction, with the payload of a voucher created alone,
// when a webhook listens; without one the outbox stays empty. Customers an
// import creates tell customer.created as a customer created alone does.
func TestImportsEmitCreatedEvents(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		e, p := f.eng, f.project
		c := must[*campaign.Campaign](t)(e.Campaigns().Create(ctx, p, discountCampaign("Spring", 1)))
		must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))
		f.outbox(t)
		f.run(t, must[*async.Ref](t)(e.Imports().ImportVouchersCSV(ctx, p, strings.NewReader("Code,Value\nQUIET-1,5\n"))))
		if evs := f.outbox(t); len(evs) != 0 {
			t.Fatalf("with no webhook the import appended %d events", len(evs))
		}

		must[*webhook.Webhook](t)(e.Webhooks().Create(ctx, p, webhook.Params{TargetURL: promotype.Ptr("https://hooks.example.com/v"),
			Events: []string{"voucher.created", "campaign.vouchers.aded", "customer.created"}}))
		f.clock.Advance(1e9)

		ref := must[*async.Ref](t)(e.Imports().ImportVouchersCSV(ctx, p, strings.NewReader(
			"Code,Voucher Type,Value,Tier\nCSV-1,DISCOUNT_VOUCHER,10,gold\nCSV-2,GIFT_VOUCHER,500,\nQUIET-1,DISCOUNT_VOUCHER,1,\nCSV-3,LOYALTY_CARD,1,\n")))
		if res := result[imports.Result](t, f.run(t, ref)); res.DoneCount != 2 {
			t.Fatalf("csv import %+v", res)
		}
		diff(t, "VOUCHERS.IMPORT_CSV events", []string{"CSV-1", "CSV-2"}, f.createdCodes(t, f.outbox(t)))

		typ := campaign.DiscountVoucher
		items := []voucher.StandaloneItem{
			{Code: promotype.Ptr("JSON-1"), Type: &typ, Discount: js[*campaign.Discount](t, `{"type":"AMOUNT","amount_off":100}`)},
			{Code: promotype.Ptr("CSV-1"), Type: &typ, Discount: js[*campaign.Discount](t, `{"type":"AMOUNT","amount_off":100}`)},
		}
		f.run(t, must[*async.Ref](t)(e.Imports().ImportVouchers(ctx, p, items)))
		diff(t, "VOUCHERS.IMPORT events", []string{"JSON-1"}, f.createdCodes(t, f.outbox(t)))

		f.run(t, must[*async.Ref](t)(e.Imports().ImportCampaignVouchersCSV(ctx, p, c.ID, strings.NewReader("Code\nSPRING-1\nSPRING-2\nCSV-2\n"))))
		evs := f.outbox(t)
		diff(t, "CAMPAIGN.VOUCHERS_IMPORT_CSV events", []string{"SPRING-1", "SPRING-2"}, f.createdCodes(t, evs))
		added := 0 // campaign.vouchers.aded: one per chunk that stored vouchers
		for _, e := range evs {
			if e.Type == campaign.EventVouchersAdded {
				var data struct{ Count int }
				if err := json.Unmarshal(e.Data, &data); err != nil {
					t.Fatal(err)
				}
				added += data.Count
			}
		}
		if added != 2 {
			t.Errorf("campaign.vouchers.aded of the CSV import count %d vouchers, want 2", added)
		}

		f.run(t, must[*async.Ref](t)(e.Vouchers().ImportToCampaign(ctx, p, c.ID, []voucher.ImportItem{{Code: promotype.Ptr("SPRING-3")}})))
		diff(t, "CAMPAIGN.VOUCHERS_IMPORT events", []string{"SPRING-3"}, f.createdCodes(t, f.outbox(t)))

		f.run(t, must[*async.Ref](t)(e.Imports().ImportCustomersCSV(ctx, p, strings.NewReader("source_id,name\nann,Ann\n"))))
		evs = f.outbox(t)
		if len(evs) != 1 || evs[0].Type != "customer.created" {
			t.Errorf("CUSTOMERS.IMPORT_CSV events: %v", evs)
		}
	})
}

// A crash mid-import leaves no event of the chunk that did not commit:
// once resumed, each imported voucher has exactly one voucher.created,
// with the payload of a voucher created alone.
func TestImportEventsSurviveCrash(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		must[*webhook.Webhook](t)(f.eng.Webhooks().Create(ctx, f.project, webhook.Params{TargetURL: promotype.Ptr("https://hooks.example.com/v"),
			Events: []string{"voucher.created"}}))
		f.clock.Advance(1e9)
		var b strings.Builder
		b.WriteString("Code,Value\n")
		for i := range 2000 {
			fmt.Fprintf(&b, "C-%04d,5\n", i)
		}
		ref := must[*async.Ref](t)(f.eng.Imports().ImportVouchersCSV(ctx, f.project, strings.NewReader(b.String())))
		f.crashAt(3)
		f.clock.Advance(time.Minute)
		if res := result[imports.Result](t, f.resume(t, ref)); res.DoneCount != 2000 {
			t.Fatalf("resumed: %+v", res)
		}
		seen := map[string]int{}
		evs := f.outbox(t)
		// Chunks of 200 vouchers: on PostgreSQL their events are copied
		// (COPY), and read back as a single create writes them.
		if codes := f.createdCodes(t, evs); len(codes) != 2000 {
			t.Errorf("%d voucher.created", len(codes))
		}
		for _, e := range evs {
			if e.Type == voucher.EventCreated {
				seen[e.EntityID]++
			}
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("voucher %s: %d voucher.created", id, n)
			}
		}
		if len(seen) != 2000 {
			t.Errorf("%d vouchers told of, want 2000", len(seen))
		}
	})
}
