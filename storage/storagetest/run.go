package storagetest

import (
	"context"
	"slices"
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
	// Each port's subtests live in the file named after its package
	// (auth.go, catalog.go, campaign.go, ...), as the stores' own files
	// are; the cross-cutting ones are in contract.go.
	suites := []struct {
		name string
		fn   func(*testing.T, Factory)
	}{
		{"Projects", testProjects},
		{"ProjectManagement", testProjectManagement},
		{"ProjectDeletion", testProjectDeletion},
		{"ProjectUsers", testProjectUsers},
		{"Keys", testKeys},
		{"ClientKeys", testClientKeys},
		{"Tokens", testTokens},
		{"Products", testProducts},
		{"ProductBin", testProductBin},
		{"SKUs", testSKUs},
		{"Collections", testCollections},
		{"Rewards", testRewards},
		{"RewardAssignments", testRewardAssignments},
		{"Locations", testLocations},
		{"EarningRules", testEarningRules},
		{"Segments", testSegments},                     // segment.go
		{"SegmentConcurrency", testSegmentConcurrency}, // segment.go
		{"Referrals", testReferrals},                   // referral.go
		{"Customers", testCustomers},
		{"CustomerList", testCustomerList},
		{"CustomerActivities", testCustomerActivities},
		{"Orders", testOrders},
		{"Campaigns", testCampaigns},
		{"CategoryWrites", testCategoryWrites},
		{"Vouchers", testVouchers},
		{"AsyncActions", testAsyncActions},
		{"AsyncSerialKeys", testAsyncSerialKeys},
		{"ValidationRules", testValidationRules},
		{"Assignments", testAssignments},
		{"PromotionTiers", testPromotionTiers},
		{"Stacks", testStacks},
		{"StackingRules", testStackingRules},
		{"RedemptionLedger", testRedemptionLedger},
		{"VoucherSpend", testVoucherSpend},
		{"RedemptionCounters", testRedemptionCounters},
		{"CampaignTotals", testCampaignTotals},
		{"BinEntries", testBinEntries}, // bin.go
		{"CampaignTemplates", testCampaignTemplates},
		{"RedemptionConcurrency", testRedemptionConcurrency},
		{"VoucherTransactions", testVoucherTransactions},
		{"VoucherTransactionConcurrency", testVoucherTransactionConcurrency},
		{"Savepoint", testSavepoint},   // savepoint.go
		{"HotVoucher", testHotVoucher}, // savepoint.go
		{"CounterReadBack", testCounterReadBack},
		{"CountAndSpend", testCountAndSpend}, // count_spend.go
		{"SpendVouchers", testSpendVouchers}, // spend_many.go
		{"SpendVouchersConcurrency", testSpendVouchersConcurrency},
		{"QualificationStore", testQualificationStore},       // redemption.go
		{"VoucherRulesReader", testVoucherRulesReader},       // voucher_rules.go: redemption.VoucherRulesReader only
		{"VoucherCustomerReader", testVoucherCustomerReader}, // voucher_customer.go: redemption.VoucherCustomerReader only
		{"Publications", testPublications},                   // publication.go
		{"Sessions", testSessions},                           // sessions.go
		{"Exports", testExports},                             // export.go
		{"Webhooks", testWebhooks},
		{"MetadataSchemas", testMetadataSchemas},
		{"CustomEventSchemas", testCustomEventSchemas},
		{"Brandings", testBrandings},
		{"CustomEvents", testCustomEvents},
		{"Outbox", testOutbox},
		{"Imports", testImports},             // imports.go
		{"MetadataPurge", testMetadataPurge}, // metadata_purge.go

		{"Aliasing", testAliasing},
		{"ListOrderAndPaging", testListOrderAndPaging},
		{"ListFilters", testListFilters},
		{"ListTotals", testListTotals}, // totals.go
		{"ProjectIsolation", testProjectIsolation},
		{"Transactions", testTransactions},
		{"BulkTransactions", testBulkTransactions}, // bulk.go: storage.BulkTxStore only
		{"WriteBehind", testWriteBehind},           // writebehind.go: storage.WriteBehindStore only
		{"Concurrency", testConcurrency},
		{"Health", testHealth}, // health.go: storage.Pinger and storage.BacklogReporter only
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

func ids[V any](items []*V, id func(*V) string) []string {
	out := make([]string, len(items))
	for i, v := range items {
		out[i] = id(v)
	}
	return out
}

// ids2 returns the ids of items, sorted (batch reads have no order).
func ids2[V any](items []*V, id func(*V) string) []string {
	out := ids(items, id)
	slices.Sort(out)
	return out
}
