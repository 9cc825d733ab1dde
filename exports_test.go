package promo_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/export"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// download opens an export with its token and returns its file's rows.
func download(t *testing.T, f fixture, e *export.Export) [][]string {
	t.Helper()
	token := strings.TrimPrefix(e.Result.URL, export.DownloadPath(e.ID, ""))
	opened := must[*export.Export](t)(f.eng.Exports().Open(ctx, e.ID, token))
	var buf bytes.Buffer
	if err := f.eng.Exports().WriteFile(ctx, opened, &buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("the file is not CSV: %v\n%s", err, buf.String())
	}
	return rows
}

// TestExportsGoAPI exports through the Go API, with chunks and pages much
// smaller than the defaults so that a file spans many chunks and a chunk
// many pages: the rows come out whole and in order, metadata keys are
// columns, a campaign's export holds its vouchers only, a wrong token
// opens nothing, and a delete removes the file (also before the job ran).
func TestExportsGoAPI(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		e, p := f.eng, f.project
		e.Exports().SetSizes(150, 2)
		must[*campaign.Campaign](t)(e.Campaigns().Create(ctx, p, js[campaign.Params](t,
			`{"name":"Summer","vouchers_count":40,"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":15}}}`)))
		must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))
		for i, color := range []string{"red", "blue, \"dark\""} {
			must[*voucher.Voucher](t)(e.Vouchers().Create(ctx, p, js[voucher.Params](t, fmt.Sprintf(
				`{"code":"SOLO-%d","type":"GIFT_VOUCHER","gift":{"amount":2500},"metadata":{"color":%q}}`, i, color))))
		}
		all := must[*export.Export](t)(e.Exports().Create(ctx, p, export.CreateParams{ExportedObject: promotype.Ptr("voucher"),
			Parameters: &export.RequestParameters{Order: promotype.Ptr("code"), Fields: []string{"code", "value", "metadata.color", "campaign"}}}))
		if all.Status != export.StatusScheduled || all.Result != nil {
			t.Fatalf("a new export: %+v", all)
		}
		camp := must[*campaign.Campaign](t)(e.Campaigns().Get(ctx, p, "Summer"))
		summer := must[*export.Export](t)(e.Exports().Create(ctx, p, export.CreateParams{ExportedObject: promotype.Ptr("voucher"),
			Parameters: &export.RequestParameters{Order: promotype.Ptr("-code"), Fields: []string{"code"}, CampaignID: &camp.ID}}))
		gone := must[*export.Export](t)(e.Exports().Create(ctx, p, export.CreateParams{ExportedObject: promotype.Ptr("order")}))
		// An export whose job fails (its stored parameters broken behind the
		// service's back) ends ERROR, with no result, and its action FAILED.
		broken := must[*export.Export](t)(e.Exports().Create(ctx, p, export.CreateParams{ExportedObject: promotype.Ptr("customer")}))
		row := must[*export.Export](t)(f.store.GetExport(ctx, p, broken.ID))
		row.Parameters.Fields = []string{"no_such_field"}
		must[struct{}](t)(struct{}{}, f.store.UpdateExport(ctx, row))
		must[struct{}](t)(struct{}{}, e.Exports().Delete(ctx, p, gone.ID))
		must[int](t)(e.AsyncActions().RunPending(ctx, async.Config{}))

		broken = must[*export.Export](t)(e.Exports().Get(ctx, p, broken.ID))
		if broken.Status != export.StatusError || broken.Result != nil {
			t.Errorf("a failed export: %+v", broken)
		}
		failed := must[*promotype.List[*async.Action]](t)(e.AsyncActions().List(ctx, p, promotype.ListParams{Filter: promotype.Filter{
			Conditions: []promotype.Condition{{Field: "status", Op: promotype.OpIs, Values: []string{"FAILED"}}}}}))
		if failed.Total != 1 || failed.Data[0].Type != export.KindExport {
			t.Errorf("failed actions: %+v", failed.Data)
		}
		all = must[*export.Export](t)(e.Exports().Get(ctx, p, all.ID))
		if all.Status != export.StatusDone || all.Result == nil {
			t.Fatalf("after the job: %+v", all)
		}
		rows := download(t, f, all)
		if len(rows) != 43 {
			t.Fatalf("%d rows, want a header and 42", len(rows))
		}
		diff(t, "header", []string{"Code", "Value", "metadata.color", "Campaign"}, rows[0])
		var solo [][]string
		for i, r := range rows[1:] {
			if i > 0 && r[0] <= rows[i][0] {
				t.Errorf("row %d: %v after %v", i+1, r, rows[i])
			}
			if strings.HasPrefix(r[0], "SOLO-") {
				solo = append(solo, r)
			} else if r[1] != "15" || r[3] != "Summer" || r[2] != "" {
				t.Errorf("row %d: %v", i+1, r)
			}
		}
		diff(t, "SOLO rows", [][]string{{"SOLO-0", "25.00", "red", ""}, {"SOLO-1", "25.00", `blue, "dark"`, ""}}, solo)
		stored := must[[]*export.Export](t)(f.store.FindExports(ctx, all.ID))
		if len(stored) != 1 || stored[0].Chunks < 5 || stored[0].Rows != 42 {
			t.Errorf("the file is in %d chunks of %d rows, want many chunks of 42", stored[0].Chunks, stored[0].Rows)
		}

		summer = must[*export.Export](t)(e.Exports().Get(ctx, p, summer.ID))
		rows = download(t, f, summer)
		if len(rows) != 41 || rows[1][0] <= rows[40][0] {
			t.Errorf("campaign export: %d rows, first %v last %v", len(rows), rows[1], rows[len(rows)-1])
		}

		_, err := e.Exports().Open(ctx, all.ID, "wrong")
		wantErr(t, err, 404, "not_found")
		_, err = e.Exports().Open(ctx, all.ID, "")
		wantErr(t, err, 404, "not_found")
		_, err = e.Exports().Get(ctx, p, gone.ID)
		wantErr(t, err, 404, "not_found")

		list := must[*promotype.List[*export.Export]](t)(e.Exports().List(ctx, p, promotype.ListParams{}))
		if list.Total != 3 {
			t.Errorf("list total %d, want 3", list.Total)
		}
		must[struct{}](t)(struct{}{}, e.Exports().Delete(ctx, p, all.ID))
		token := strings.TrimPrefix(all.Result.URL, export.DownloadPath(all.ID, ""))
		_, err = e.Exports().Open(ctx, all.ID, token)
		wantErr(t, err, 404, "not_found")
		_, err = f.store.ExportChunk(ctx, p, all.ID, 0)
		wantErr(t, err, 404, "not_found")
	})
}
