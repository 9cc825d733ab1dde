package auth

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/promotype"
)

// specScopes is the hosted API's list of accepted scope values, verbatim.
const specScopes = "api, assets, async-actions, campaigns, categories, client_api, client_consents, client_customers, " +
	"client_events, client_promotions, client_publish, client_qualifications, client_redeem, client_redemptions, " +
	"client_validate, client_validations, client_vouchers, consents, customers, events, exports, locations, loyalties, " +
	"metadata-schemas, orders, product-collections, products, promotions, publications, qualifications, redemptions, " +
	"referrals, rewards, segments, skus, task-results, templates, trash-bin, validation-rules-assignments, " +
	"validation-rules, validations, vouchers"

func TestScopeNames(t *testing.T) {
	t.Parallel()
	want := strings.Split(specScopes, ", ")
	if diff := cmp.Diff(want, ScopeNames()); diff != "" {
		t.Errorf("scope names (-want +got):\n%s", diff)
	}
	if len(want) != 42 || ScopeAPI.String() != "api" || ScopeClientAPI.String() != "client_api" {
		t.Errorf("%d scopes; api = %s, client_api = %s", len(want), ScopeAPI, ScopeClientAPI)
	}
}

// scopeCase is one scope and paths it must and must not cover (with any
// method).
type scopeCase struct {
	scope string
	allow []string
	deny  []string
}

// scopeTable covers every one of the 42 scopes.
var scopeTable = []scopeCase{
	{"api",
		[]string{"/v1/vouchers", "/v1/rewards/rew_1", "/v1/SKUs/sku_1", "/v1/validation-rules-assignments", "/v1/anything/at/all", "/v1/"},
		[]string{"/v1/oauth/token", "/v1/oauth/introspect", "/v1/oauth/token/revoke", "/v1/oauth", "/client/v1/validate", "/management/v1/projects/p",
			"/v1", "/v2/vouchers", "/v1/../management/v1/projects", "/v1//vouchers", "/v1/./vouchers", "", "v1/vouchers"}},
	{"client_api",
		[]string{"/client/v1/validate", "/client/v1/redeem", "/client/v1/anything/else"},
		[]string{"/v1/vouchers", "/client/v2/validate", "/client/v1", "/management/v1/projects/p", "/client/v1/../../v1/vouchers"}},
	{"assets", []string{"/v1/assets", "/v1/assets/qr/x"}, []string{"/v1/assetsx", "/v1/vouchers", "/client/v1/assets"}},
	{"async-actions", []string{"/v1/async-actions", "/v1/async-actions/aa_1"}, []string{"/v1/async-action", "/v1/async-actions-x/1"}},
	{"campaigns", []string{"/v1/campaigns", "/v1/campaigns/camp_1/vouchers/CODE", "/v1/campaigns/camp_1/enable"}, []string{"/v1/vouchers", "/v1/campaign", "/client/v1/campaigns"}},
	{"categories", []string{"/v1/categories", "/v1/categories/cat_1"}, []string{"/v1/campaigns", "/v1/category"}},
	{"client_consents", []string{"/client/v1/consents", "/client/v1/consents/x"}, []string{"/v1/consents", "/client/v1/customers"}},
	{"client_customers", []string{"/client/v1/customers/cust_1/consents"}, []string{"/v1/customers", "/client/v1/consents"}},
	{"client_events", []string{"/client/v1/events"}, []string{"/v1/events", "/client/v1/eventsx"}},
	{"client_promotions", []string{"/client/v1/promotions/tiers"}, []string{"/v1/promotions", "/client/v1/promotion"}},
	{"client_publish", []string{"/client/v1/publish"}, []string{"/v1/publications", "/client/v1/publications"}},
	{"client_qualifications", []string{"/client/v1/qualifications"}, []string{"/v1/qualifications", "/client/v1/validate"}},
	{"client_redeem", []string{"/client/v1/redeem"}, []string{"/client/v1/redemptions", "/v1/redemptions"}},
	{"client_redemptions", []string{"/client/v1/redemptions", "/client/v1/redemptions/r_1/rollback"}, []string{"/client/v1/redeem", "/v1/redemptions"}},
	{"client_validate", []string{"/client/v1/validate"}, []string{"/client/v1/validations", "/v1/validations"}},
	{"client_validations", []string{"/client/v1/validations"}, []string{"/client/v1/validate", "/v1/validations"}},
	{"client_vouchers", []string{"/client/v1/vouchers/CODE"}, []string{"/v1/vouchers", "/client/v1/vouchersx"}},
	{"consents", []string{"/v1/consents"}, []string{"/client/v1/consents", "/v1/customers"}},
	{"customers", []string{"/v1/customers", "/v1/customers/cust_1"}, []string{"/v1/customer", "/client/v1/customers", "/v1/orders"}},
	{"events", []string{"/v1/events"}, []string{"/client/v1/events", "/v1/eventsx"}},
	{"exports", []string{"/v1/exports", "/v1/exports/exp_1"}, []string{"/v1/export"}},
	{"locations", []string{"/v1/locations", "/v1/locations/loc_1"}, []string{"/v1/location", "/v1/locations-x"}},
	{"loyalties", []string{"/v1/loyalties/camp_1/members"}, []string{"/v1/loyalty"}},
	{"metadata-schemas", []string{"/v1/metadata-schemas/ms_1"}, []string{"/management/v1/projects/p/metadata-schemas", "/v1/metadata"}},
	{"orders", []string{"/v1/orders", "/v1/orders/ord_1"}, []string{"/v1/order", "/v1/customers"}},
	{"product-collections", []string{"/v1/product-collections/pc_1/products"}, []string{"/v1/products", "/v1/product"}},
	{"products", []string{"/v1/products", "/v1/products/prod_1/skus/sku_1"}, []string{"/v1/skus/sku_1", "/v1/product-collections", "/v1/Products"}},
	{"promotions", []string{"/v1/promotions/tiers", "/v1/promotions/validation", "/v1/promotions/camp_1/stacks"}, []string{"/v1/promotion", "/client/v1/promotions"}},
	{"publications", []string{"/v1/publications"}, []string{"/client/v1/publish"}},
	{"qualifications", []string{"/v1/qualifications"}, []string{"/client/v1/qualifications"}},
	{"redemptions", []string{"/v1/redemptions/r_1/rollback"}, []string{"/client/v1/redeem"}},
	{"referrals", []string{"/v1/referrals/members"}, []string{"/v1/referral"}},
	{"rewards", []string{"/v1/rewards", "/v1/rewards/rew_1", "/v1/rewards/"}, []string{"/v1/rewardsx", "/v1/reward", "/v1/oauth/token", "/v1/rewards/../vouchers"}},
	{"segments", []string{"/v1/segments/seg_1"}, []string{"/v1/segment"}},
	{"skus", []string{"/v1/skus", "/v1/skus/sku_1", "/v1/SKUs/sku_1", "/v1/Skus"}, []string{"/v1/products/prod_1/skus", "/v1/skusx", "/client/v1/skus"}},
	{"task-results", []string{"/v1/task-results/t_1"}, []string{"/v1/tasks"}},
	{"templates", []string{"/v1/templates/campaigns"}, []string{"/v1/template"}},
	{"trash-bin", []string{"/v1/trash-bin"}, []string{"/v1/trash"}},
	{"validation-rules-assignments", []string{"/v1/validation-rules-assignments"}, []string{"/v1/validation-rules", "/v1/validation-rules/val_1/assignments"}},
	{"validation-rules", []string{"/v1/validation-rules", "/v1/validation-rules/val_1/assignments/asgm_1"}, []string{"/v1/validation-rules-assignments", "/v1/validation-rule"}},
	{"validations", []string{"/v1/validations"}, []string{"/v1/validation-rules", "/client/v1/validations"}},
	{"vouchers", []string{"/v1/vouchers", "/v1/vouchers/CODE/enable"}, []string{"/v1/voucher", "/v1/campaigns/camp_1/vouchers", "/client/v1/vouchers"}},
}

func TestAllowsEveryScope(t *testing.T) {
	t.Parallel()
	var covered []string
	for _, tc := range scopeTable {
		covered = append(covered, tc.scope)
		set, _, err := ParseScope(tc.scope)
		if err != nil {
			t.Fatalf("%s: %v", tc.scope, err)
		}
		for _, method := range []string{"GET", "POST", "PUT", "DELETE"} {
			for _, p := range tc.allow {
				if !Allows(set, method, p) {
					t.Errorf("%s does not cover %s %s", tc.scope, method, p)
				}
			}
			for _, p := range tc.deny {
				if Allows(set, method, p) {
					t.Errorf("%s covers %s %s", tc.scope, method, p)
				}
			}
		}
	}
	slices.Sort(covered)
	want := ScopeNames()
	slices.Sort(want)
	if diff := cmp.Diff(want, covered); diff != "" {
		t.Errorf("scopes in the table (-want +got):\n%s", diff)
	}
}

// Each allowed path of a scope is covered by that scope (and api or
// client_api) and by no other single scope.
func TestAllowsOnlyItsOwnScope(t *testing.T) {
	t.Parallel()
	for _, tc := range scopeTable {
		if tc.scope == "api" || tc.scope == "client_api" {
			continue // their paths belong to other scopes too
		}
		for _, p := range tc.allow {
			for i, name := range scopeNames {
				single := Scopes(0).With(Scope(i))
				whole := (strings.HasPrefix(p, "/v1/") && Scope(i) == ScopeAPI) ||
					(strings.HasPrefix(p, "/client/v1/") && Scope(i) == ScopeClientAPI)
				want := name == tc.scope || whole
				if got := Allows(single, "GET", p); got != want {
					t.Errorf("Allows(%s, GET, %s) = %v, want %v", name, p, got, want)
				}
			}
		}
	}
}

func TestAllowsSets(t *testing.T) {
	t.Parallel()
	set, _, err := ParseScope("vouchers rewards client_validate")
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"/v1/vouchers/X": true, "/v1/rewards": true, "/client/v1/validate": true,
		"/v1/campaigns": false, "/client/v1/vouchers": false, "/v1/oauth/token": false,
	} {
		if got := Allows(set, "GET", p); got != want {
			t.Errorf("Allows(%s, %s) = %v, want %v", set, p, got, want)
		}
	}
	if Allows(0, "GET", "/v1/vouchers") {
		t.Error("the empty set covers a path")
	}
	all := Scopes(1<<len(scopeNames) - 1)
	if Allows(all, "GET", "/v1/oauth/token") || Allows(all, "GET", "/management/v1/projects") {
		t.Error("every scope covers a path no token may call")
	}
}

func TestParseScope(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, errMessage string
	}{
		{"api", "api", ""},
		{"  rewards   api\trewards\nvouchers ", "rewards api vouchers", ""},
		{"skus products", "skus products", ""},
		{"vouchers,campaigns", "", "Invalid scope: vouchers,campaigns"},
		{"api vouchers,", "", "Invalid scope: vouchers,"},
		{"api foo bar", "", "Invalid scope: foo"},
		{"API", "", "Invalid scope: API"},
		{"client_", "", "Invalid scope: client_"},
		{"", "", "Invalid scope"},
		{" \t ", "", "Invalid scope"},
	}
	for _, tc := range tests {
		set, got, err := ParseScope(tc.in)
		if tc.errMessage != "" {
			var e *promotype.Error
			if !errors.As(err, &e) || e.Key != "invalid_scope" || e.Code != 400 || e.Message != tc.errMessage {
				t.Errorf("ParseScope(%q) error = %v, want 400 invalid_scope %q", tc.in, err, tc.errMessage)
			}
			continue
		}
		if err != nil || got != tc.want || set.Len() != len(strings.Fields(tc.want)) {
			t.Errorf("ParseScope(%q) = %s, %q, %v; want %q", tc.in, set, got, err, tc.want)
		}
	}
}
