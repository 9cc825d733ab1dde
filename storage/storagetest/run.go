package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// Factory returns a fresh, empty store for one test.
type Factory func(t testing.TB) storage.Store

// Run runs the whole suite against stores made by newStore.
func Run(t *testing.T, newStore Factory) {
	t.Helper()
	suites := []struct {
		name string
		fn   func(*testing.T, Factory)
	}{
		{"Projects", testProjects},
		{"Keys", testKeys},
		{"Products", testProducts},
		{"ProductBin", testProductBin},
		{"SKUs", testSKUs},
		{"Rewards", testRewards},
		{"Locations", testLocations},
		{"Aliasing", testAliasing},
		{"ListOrderAndPaging", testListOrderAndPaging},
		{"ListFilters", testListFilters},
		{"ProjectIsolation", testProjectIsolation},
		{"Transactions", testTransactions},
		{"BulkTransactions", testBulkTransactions}, // bulk.go: storage.BulkTxStore only
		{"Concurrency", testConcurrency},
		// Joined by later issues, each in its own file.
		{"Tokens", testTokens},                   // access.go
		{"Customers", testCustomers},             // sales.go
		{"Orders", testOrders},                   // sales.go
		{"Campaigns", testCampaigns},             // campaigns.go
		{"Vouchers", testVouchers},               // campaigns.go
		{"AsyncActions", testAsyncActions},       // campaigns.go
		{"ValidationRules", testValidationRules}, // rules.go
		{"Assignments", testAssignments},         // rules.go
		{"PromotionTiers", testPromotionTiers},   // promotions.go
		{"Stacks", testStacks},                   // promotions.go

		// Webhook configurations and project settings.
		{"Webhooks", testWebhooks},                     // management.go
		{"MetadataSchemas", testMetadataSchemas},       // management.go
		{"CustomEventSchemas", testCustomEventSchemas}, // management.go
		{"Brandings", testBrandings},                   // management.go
		{"CustomEvents", testCustomEvents},             // management.go
		{"Outbox", testOutbox},                         // outbox.go: webhook delivery
	}
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) { s.fn(t, newStore) })
	}
}

// base is the fixed instant fixtures count from.
var base = time.Date(2026, 1, 2, 3, 4, 5, 6_000_000, time.UTC)

func at(minutes int) promotype.Time {
	return promotype.NewTime(base.Add(time.Duration(minutes) * time.Minute))
}

var ctx = context.Background()

// cmpOpts compare stored values: domain types have Equal methods for times
// and decimals; an empty collection and a nil one are the same to a store.
var cmpOpts = []cmp.Option{cmpopts.EquateEmpty()}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func diff(t testing.TB, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got, cmpOpts...); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", what, d)
	}
}

// wantErr checks that err is a *promotype.Error of the kind of sentinel.
func wantErr(t testing.TB, what string, err error, sentinel *promotype.Error) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: got no error, want %s", what, sentinel.Key)
	}
	e := promotype.AsError(err)
	if e.Key != sentinel.Key || e.Code != sentinel.Code {
		t.Fatalf("%s: got %v (code %d), want key %s code %d", what, err, e.Code, sentinel.Key, sentinel.Code)
	}
}
