package promo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/voucher"
)

// progressSpy records the progress each save of an async action writes,
// and can cancel a run after a number of saves (a crash mid-action).
type progressSpy struct {
	storage.Store
	mu       sync.Mutex
	progress map[string][]int
	cancelAt int // cancel after this many saves of in-progress actions (0: never)
	saves    int
	cancel   context.CancelFunc
}

type spyTx struct {
	storage.Tx
	s *progressSpy
}

func (s *progressSpy) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	return s.Store.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return fn(ctx, spyTx{tx, s}) })
}

// RunInBulkTx is the inner store's bulk transaction, when it has one (the
// imports' chunks take it: COPY on PostgreSQL).
func (s *progressSpy) RunInBulkTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) error {
	b, ok := s.Store.(storage.BulkTxStore)
	if !ok {
		return s.RunInTx(ctx, fn)
	}
	return b.RunInBulkTx(ctx, func(ctx context.Context, tx storage.Tx) error { return fn(ctx, spyTx{tx, s}) })
}

func (t spyTx) UpdateAsyncAction(ctx context.Context, a *async.Action) error {
	if err := t.Tx.UpdateAsyncAction(ctx, a); err != nil {
		return err
	}
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	t.s.progress[a.ID] = append(t.s.progress[a.ID], a.Progress)
	if a.Status == async.StatusInProgress {
		t.s.saves++
		if t.s.cancelAt > 0 && t.s.saves == t.s.cancelAt && t.s.cancel != nil {
			t.s.cancel()
			return context.Canceled // the chunk does not commit: a crash before its commit
		}
	}
	return nil
}

// importFixture is an engine over a spied store.
type importFixture struct {
	eng     *promo.Engine
	spy     *progressSpy
	clock   *promotype.ManualClock
	project string
}

func eachImportStore(t *testing.T, fn func(t *testing.T, f importFixture)) {
	for name, newStore := range storeFactories {
		t.Run(name, func(t *testing.T) {
			spy := &progressSpy{Store: newStore(t), progress: map[string][]int{}}
			clock := promotype.NewManualClock(t0)
			eng := must[*promo.Engine](t)(promo.New(spy, promo.WithClock(clock), promo.WithIDGenerator(&promotype.SequentialIDs{})))
			p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
			fn(t, importFixture{eng: eng, spy: spy, clock: clock, project: p.ID})
		})
	}
}

// runAction runs the pending actions and returns the action ref names.
func (f importFixture) run(t *testing.T, ref *async.Ref) *async.Action {
	t.Helper()
	if _, err := f.eng.AsyncActions().RunPending(ctx, async.Config{}); err != nil {
		t.Fatal(err)
	}
	a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
	if a.Status != async.StatusDone {
		t.Fatalf("action %s: %s %s", a.Type, a.Status, a.Result)
	}
	f.checkProgress(t, a.ID)
	return a
}

// checkProgress checks that the saved progress of an action never goes
// down and moves by 10 at most per save, ending at 100.
func (f importFixture) checkProgress(t *testing.T, id string) {
	t.Helper()
	f.spy.mu.Lock()
	defer f.spy.mu.Unlock()
	ps := f.spy.progress[id]
	if len(ps) == 0 || ps[len(ps)-1] != 100 {
		t.Fatalf("progress %v does not end at 100", ps)
	}
	// Below 10 rows a chunk (one row at least) is more than 10%.
	small := len(ps) < 11
	prev := 0
	for _, p := range ps {
		if p < prev || (!small && p-prev > 10 && !(prev == 99 && p == 100)) {
			t.Fatalf("progress %v: a step from %d to %d", ps, prev, p)
		}
		prev = p
	}
}

// crashAt runs the pending actions until the saves-th save of an
// in-progress action, which does not commit (a runner dying mid-chunk).
func (f importFixture) crashAt(saves int) {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	f.spy.mu.Lock()
	f.spy.cancelAt, f.spy.cancel, f.spy.saves = saves, cancel, 0
	f.spy.mu.Unlock()
	_, _ = f.eng.AsyncActions().RunPending(cctx, async.Config{})
	f.spy.mu.Lock()
	f.spy.cancelAt = 0
	f.spy.mu.Unlock()
}

// resume runs the action of ref after a crash of its runner: on
// PostgreSQL the crashed transaction's rollback may still hold the action's
// row for a moment, and a claim skips locked rows, so it claims again until
// a run takes the action (bounded in time), then checks it as run does.
func (f importFixture) resume(t *testing.T, ref *async.Ref) *async.Action {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		n, err := f.eng.AsyncActions().RunPending(ctx, async.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 || time.Now().After(deadline) {
			break
		}
		runtime.Gosched()
	}
	return f.run(t, ref)
}

func result[T any](t *testing.T, a *async.Action) T {
	t.Helper()
	var out T
	if err := json.Unmarshal(a.Result, &out); err != nil {
		t.Fatalf("result %s: %v", a.Result, err)
	}
	return out
}

func TestImportProductsCSV(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		var b strings.Builder
		b.WriteString("name,source_id,price,color\n")
		for i := range 30 {
			fmt.Fprintf(&b, "Product %d,p-%d,%d,red\n", i, i, 100+i)
		}
		b.WriteString(",p-noname,1,\n")     // line 32: no name
		b.WriteString("Bad,p-bad,abc,\n")   // line 33: bad price
		b.WriteString("Again,p-3,5,\n")     // line 34: p-3 exists in the file: its name is updated... in another chunk
		b.WriteString("Twice,p-new,5,\n")   // line 35
		b.WriteString("Twice 2,p-new,6,\n") // line 36: the same new source id in one chunk
		ref := must[*async.Ref](t)(f.eng.Imports().ImportProductsCSV(ctx, f.project, strings.NewReader(b.String())))
		a := f.run(t, ref)
		res := result[imports.Result](t, a)
		if res.DoneCount != 32 || res.FailedCount != 3 || len(res.Failed) != 3 {
			t.Fatalf("result %s", a.Result)
		}
		want := []imports.Failed{
			{SourceID: "p-noname", Row: 32, Reason: "Column name is required"},
			{SourceID: "p-bad", Row: 33, Reason: `Column price must be an integer, not "abc"`},
			{SourceID: "p-new", Row: 36, Reason: "Duplicated product exists with source_id p-new"},
		}
		diff(t, "failed", want, res.Failed)
		p := must[*catalog.Product](t)(f.eng.Catalog().GetProduct(ctx, f.project, "p-3"))
		if *p.Name != "Again" || *p.Price != 103 || p.Metadata["color"] != "red" {
			t.Errorf("p-3 = %+v", p)
		}
		if a.Type != imports.ActionProductsImportCSV {
			t.Errorf("type %s", a.Type)
		}
	})
}

func TestImportSKUsCSV(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		src := "shirt"
		must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: &src, Attributes: []string{"color"}}))
		csv := "product_id,source_id,sku,price,attributes\n" +
			"shirt,s-1,Red shirt,100,\"{\"\"color\"\":\"\"red\"\"}\"\n" +
			"shirt,s-2,Blue shirt,100,\"{\"\"size\"\":\"\"L\"\"}\"\n" +
			"nope,s-3,X,1,\n" +
			"shirt,,X,1,\n"
		ref := must[*async.Ref](t)(f.eng.Imports().ImportSKUsCSV(ctx, f.project, strings.NewReader(csv)))
		res := result[imports.Result](t, f.run(t, ref))
		if res.DoneCount != 1 || res.FailedCount != 3 || res.Message != "1 sku(s) imported successfully, 3 failed." {
			t.Fatalf("result %+v", res)
		}
		for i, row := range []int{3, 4, 5} {
			if res.Failed[i].Row != row {
				t.Errorf("failed %+v", res.Failed)
			}
		}
		must[*catalog.SKU](t)(f.eng.Catalog().GetSKU(ctx, f.project, "s-1"))
	})
}

func TestImportVouchers(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		csv := "Code,Voucher Type,Value,Discount Type,Active,Tier\n" +
			"A-1,DISCOUNT_VOUCHER,10,PERCENT,true,gold\n" +
			"A-2,GIFT_VOUCHER,500,,,\n" +
			"A-1,DISCOUNT_VOUCHER,10,PERCENT,,\n" + // taken
			"A-3,LOYALTY_CARD,1,,,\n" +
			"A-4,DISCOUNT_VOUCHER,5,WEIRD,,\n"
		ref := must[*async.Ref](t)(f.eng.Imports().ImportVouchersCSV(ctx, f.project, strings.NewReader(csv)))
		res := result[imports.Result](t, f.run(t, ref))
		if res.DoneCount != 2 || res.FailedCount != 3 {
			t.Fatalf("result %+v", res)
		}
		diff(t, "failed codes", []string{"A-1", "A-3", "A-4"}, []string{res.Failed[0].Code, res.Failed[1].Code, res.Failed[2].Code})
		v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "A-1"))
		if v.Metadata["Tier"] != "gold" || v.CampaignID != nil {
			t.Errorf("A-1 = %+v", v)
		}
		code, typ := "J-1", campaign.DiscountVoucher
		items := []voucher.StandaloneItem{{Code: &code, Type: &typ}, {Code: &code}}
		ref = must[*async.Ref](t)(f.eng.Imports().ImportVouchers(ctx, f.project, items))
		res = result[imports.Result](t, f.run(t, ref))
		if res.FailedCount != 2 {
			// J-1 has no discount: it is refused; the second has no type.
			t.Logf("result %+v", res)
		}
		// Metadata updates: merged into the vouchers'.
		ref = must[*async.Ref](t)(f.eng.Imports().UpdateVouchersMetadata(ctx, f.project, imports.MetadataUpdate{Codes: []string{"A-1", "nope"}, Metadata: promotype.Metadata{"x": "y"}}))
		br := result[imports.BulkResult](t, f.run(t, ref))
		if br.DoneCount != 1 || br.FailedCount != 1 || br.Errors[0].Code != "nope" || br.Errors[0].Key != "not_found" {
			t.Fatalf("metadata update %+v", br)
		}
		v = must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "A-1"))
		if v.Metadata["Tier"] != "gold" || v.Metadata["x"] != "y" {
			t.Errorf("A-1 metadata %v", v.Metadata)
		}
	})
}

func TestImportCustomersAndUpdates(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		csv := "Source_id,Name,Email,Address_City,Level\nc-1,Ann,ann@example.com,Paris,3\nc-2,Bob,,,\n"
		ref := must[*async.Ref](t)(f.eng.Imports().ImportCustomersCSV(ctx, f.project, strings.NewReader(csv)))
		res := result[imports.Result](t, f.run(t, ref))
		if res.DoneCount != 2 || res.FailedCount != 0 {
			t.Fatalf("result %+v", res)
		}
		c := must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "c-1"))
		if *c.Name != "Ann" || *c.Address.City != "Paris" || c.Metadata["Level"] != "3" {
			t.Errorf("c-1 = %+v", c)
		}
		ref = must[*async.Ref](t)(f.eng.Imports().UpdateCustomersMetadata(ctx, f.project, imports.MetadataUpdate{SourceIDs: []string{"c-1", "c-9"}, Metadata: promotype.Metadata{"vip": true}}))
		br := result[imports.BulkResult](t, f.run(t, ref))
		if br.DoneCount != 2 {
			t.Fatalf("metadata update %+v", br)
		}
		c = must[*customer.Customer](t)(f.eng.Customers().Get(ctx, f.project, "c-1"))
		if c.Metadata["vip"] != true || c.Metadata["Level"] != "3" {
			t.Errorf("c-1 metadata %v", c.Metadata)
		}
		name := "Prod"
		long := strings.Repeat("x", 400)
		ref = must[*async.Ref](t)(f.eng.Imports().UpdateProductsInBulk(ctx, f.project, []catalog.ProductParams{
			{SourceID: promotype.Ptr("b-1"), Name: &name}, {SourceID: promotype.Ptr("b-2"), Name: &long}}))
		br = result[imports.BulkResult](t, f.run(t, ref))
		if br.DoneCount != 1 || br.FailedCount != 1 || br.Errors[0].SourceID != "b-2" || br.Errors[0].Key != "invalid_payload" {
			t.Fatalf("bulk update %+v", br)
		}
	})
}

func TestImportRefusesBadInput(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		im := f.eng.Imports()
		for name, call := range map[string]func() error{
			"no header": func() error { _, err := im.ImportProductsCSV(ctx, f.project, strings.NewReader("")); return err },
			"no name": func() error {
				_, err := im.ImportProductsCSV(ctx, f.project, strings.NewReader("source_id\nx\n"))
				return err
			},
			"bad csv": func() error {
				_, err := im.ImportProductsCSV(ctx, f.project, strings.NewReader("name\n\"x\n"))
				return err
			},
			"extra fields": func() error {
				_, err := im.ImportProductsCSV(ctx, f.project, strings.NewReader("name\na,b\n"))
				return err
			},
			"no sku cols": func() error { _, err := im.ImportSKUsCSV(ctx, f.project, strings.NewReader("sku\nx\n")); return err },
			"no items":    func() error { _, err := im.ImportVouchers(ctx, f.project, nil); return err },
			"empty source id": func() error {
				_, err := im.UpdateProductsMetadata(ctx, f.project, imports.MetadataUpdate{SourceIDs: []string{"a", ""}, Metadata: promo.Metadata{"k": 1}})
				return err
			},
		} {
			if err := call(); err == nil {
				t.Errorf("%s: no error", name)
			} else {
				wantErr(t, err, 400, "invalid_payload")
			}
		}
		big := strings.NewReader("name\n" + strings.Repeat("x", imports.MaxCSVBytes+1))
		_, err := im.ImportProductsCSV(ctx, f.project, big)
		wantErr(t, err, 413, "payload_too_large")
		l := must[*promo.List[*async.Action]](t)(f.eng.AsyncActions().List(ctx, f.project, promo.ListParams{}))
		if l.Total != 0 {
			t.Errorf("%d actions after refused requests", l.Total)
		}
	})
}

// A runner that dies mid-import (its chunk not committed) leaves the
// action to another runner once the lease runs out; it resumes from the
// last committed chunk and stores each row once.
func TestImportResumesAfterCrash(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		var b strings.Builder
		b.WriteString("name,source_id\n")
		for i := range 5000 {
			fmt.Fprintf(&b, "P%d,r-%d\n", i, i)
		}
		ref := must[*async.Ref](t)(f.eng.Imports().ImportProductsCSV(ctx, f.project, strings.NewReader(b.String())))
		f.crashAt(3)
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		if a.Status != async.StatusInProgress || a.Progress == 0 || a.Progress >= 100 {
			t.Fatalf("after the crash: %s %d", a.Status, a.Progress)
		}
		// Before the lease ends no runner takes it; after, one resumes it.
		if n, _ := f.eng.AsyncActions().RunPending(ctx, async.Config{}); n != 0 {
			t.Fatalf("taken while leased")
		}
		f.clock.Advance(time.Minute)
		a = f.resume(t, ref)
		res := result[imports.Result](t, a)
		if res.DoneCount != 5000 || res.FailedCount != 0 || a.Attempts != 2 {
			t.Fatalf("resumed: %s attempts %d", a.Result, a.Attempts)
		}
		l := must[*promo.List[*catalog.Product]](t)(f.eng.Catalog().ListProducts(ctx, f.project, promo.ListParams{}))
		if l.Total != 5001 { // and the shipping product
			t.Errorf("%d products", l.Total)
		}
	})
}

// An import whose campaign is deleted before it runs ends FAILED, with
// its input pages removed; a campaign import that runs stores its rows.
func TestImportCampaignCSV(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		c := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, discountCampaign("Spring", 1)))
		gone := must[*campaign.Campaign](t)(f.eng.Campaigns().Create(ctx, f.project, discountCampaign("Gone", 1)))
		must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
		ok := must[*async.Ref](t)(f.eng.Imports().ImportCampaignVouchersCSV(ctx, f.project, c.ID, strings.NewReader("Code,Tier\nSPRING-1,gold\nSPRING-1,\n")))
		res := result[imports.Result](t, f.run(t, ok))
		if res.DoneCount != 1 || res.FailedCount != 1 || res.Failed[0].Row != 3 {
			t.Fatalf("result %+v", res)
		}
		v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "SPRING-1"))
		if v.CampaignID == nil || *v.CampaignID != c.ID || v.Discount == nil {
			t.Errorf("imported voucher %+v", v)
		}
		c = must[*campaign.Campaign](t)(f.eng.Campaigns().Get(ctx, f.project, c.ID))
		if c.VouchersCount != 2 {
			t.Errorf("vouchers_count %d", c.VouchersCount)
		}
		ref := must[*async.Ref](t)(f.eng.Imports().ImportCampaignVouchersCSV(ctx, f.project, gone.ID, strings.NewReader("Code\nGONE-1\n")))
		must[*async.Ref](t)(f.eng.Campaigns().Delete(ctx, f.project, gone.ID, true))
		must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID))
		if a.Status != async.StatusFailed {
			t.Fatalf("import into a deleted campaign: %s %s", a.Status, a.Result)
		}
		wantErr(t, second(f.spy.GetImportPage(ctx, f.project, ref.AsyncActionID, 0)), 404, "not_found")
	})
}

func second[T any](_ T, err error) error { return err }

// Bulk actions of project B never reach project A's rows: A's source ids
// and codes name nothing in B (a product upsert makes B's own product, a
// voucher update fails not_found), and A's rows stay as they were.
func TestImportsProjectIsolation(t *testing.T) {
	eachImportStore(t, func(t *testing.T, f importFixture) {
		b := must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Other"}))
		name := "A's"
		aProd := must[*catalog.Product](t)(f.eng.Catalog().CreateProduct(ctx, f.project, catalog.ProductParams{SourceID: promotype.Ptr("shared"), Name: &name}))
		ref := must[*async.Ref](t)(f.eng.Imports().ImportVouchersCSV(ctx, f.project, strings.NewReader("Code,Value\nA-CODE,5\n")))
		f.run(t, ref)

		ref = must[*async.Ref](t)(f.eng.Imports().ImportProductsCSV(ctx, b.ID, strings.NewReader("name,source_id\nB's,shared\n")))
		must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
		if _, err := f.eng.AsyncActions().Get(ctx, f.project, ref.AsyncActionID); err == nil {
			t.Errorf("project A reads B's action")
		}
		ref = must[*async.Ref](t)(f.eng.Imports().UpdateVouchersMetadata(ctx, b.ID, imports.MetadataUpdate{Codes: []string{"A-CODE"}, Metadata: promotype.Metadata{"x": 1}}))
		must[int](t)(f.eng.AsyncActions().RunPending(ctx, async.Config{}))
		a := must[*async.Action](t)(f.eng.AsyncActions().Get(ctx, b.ID, ref.AsyncActionID))
		if br := result[imports.BulkResult](t, a); br.FailedCount != 1 || br.Errors[0].Key != "not_found" {
			t.Errorf("B's update of A's code: %s", a.Result)
		}
		got := must[*catalog.Product](t)(f.eng.Catalog().GetProduct(ctx, f.project, "shared"))
		if got.ID != aProd.ID || *got.Name != "A's" {
			t.Errorf("A's product %+v", got)
		}
		if bp := must[*catalog.Product](t)(f.eng.Catalog().GetProduct(ctx, b.ID, "shared")); bp.ID == aProd.ID || *bp.Name != "B's" {
			t.Errorf("B's product %+v", bp)
		}
		if v := must[*voucher.Voucher](t)(f.eng.Vouchers().Get(ctx, f.project, "A-CODE")); len(v.Metadata) != 0 {
			t.Errorf("A's voucher metadata %v", v.Metadata)
		}
	})
}
