package promo_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/storage/bunstore"
	"github.com/promoengine/promo/storage/bunstore/bunstoretest"
	"github.com/promoengine/promo/voucher"
)

// statementCounter counts the statements run through a bun.DB, and those
// that write customer activities.
type statementCounter struct {
	mu              sync.Mutex
	all, activities int
}

func (c *statementCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	return ctx
}

func (c *statementCounter) AfterQuery(_ context.Context, ev *bun.QueryEvent) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all++
	if strings.HasPrefix(ev.Query, `INSERT INTO "promo_customer_activities"`) {
		c.activities++
	}
}

func (c *statementCounter) take() (all, activities int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	all, activities = c.all, c.activities
	c.all, c.activities = 0, 0
	return all, activities
}

// A redemption that creates its customer and order records four
// activities (customer created, order created and paid, redemption) with
// one INSERT on PostgreSQL, in its own transaction: the write path pays one
// statement for the whole log.
func TestActivityOneInsertPerRedemptionPostgres(t *testing.T) {
	db := bunstoretest.NewDB(t)
	if err := bunstore.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	eng := must[*promo.Engine](t)(promo.New(bunstore.New(db), promo.WithClock(promotype.NewManualClock(t0))))
	p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "A"})).ID
	in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100}}`)
	in.Code = promo.Ptr("ONE")
	must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
	counter := &statementCounter{}
	db.AddQueryHook(counter)
	must[*redemption.Redemptions](t)(eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, redeemBody("ONE", "alice")), redemption.RedeemOptions{}))
	all, activities := counter.take()
	if activities != 1 {
		t.Errorf("the redemption wrote customer activities with %d statements (of %d), want 1", activities, all)
	}
	log := must[*customer.ActivityList](t)(eng.Customers().Activities(ctx, p, "alice", customer.ActivityParams{Order: "created_at"}))
	var types []string
	for _, a := range log.Data {
		types = append(types, a.Type)
	}
	want := []string{customer.ActivityCreated, customer.ActivityOrderCreated, "customer.order.paid", customer.ActivityRedemptionSucceeded}
	if strings.Join(types, " ") != strings.Join(want, " ") {
		t.Errorf("alice's log = %v, want %v", types, want)
	}
	// BenchmarkRedeemHTTP's redemption, as this hook counts: 8 statements
	// on main at 085d1a7, 9 with the log.
	t.Logf("the redemption ran %d statements", all)
}
