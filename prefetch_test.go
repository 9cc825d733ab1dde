package promo_test

import (
	"testing"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// TestValidationCustomerAndVoucher: a validation that names a voucher
// and a customer answers the same on every store, whether the store reads
// the two together (redemption.VoucherCustomerReader, PostgreSQL) or one
// after the other: the rules see the stored customer found by source id
// or by id, a customer named by an unknown id is a 404, and an unknown
// code with a known customer is the voucher's own not-found.
func TestValidationCustomerAndVoucher(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		vip := must[*rule.ValidationRule](t)(f.eng.ValidationRules().Create(ctx, f.project, js[rule.Params](t,
			`{"name":"VIP","rules":{"1":{"name":"customer.metadata","property":"vip","conditions":{"$is":[true]}},"logic":"1"}}`))).ID
		in := js[voucher.Params](t, `{"type":"DISCOUNT_VOUCHER","discount":{"type":"AMOUNT","amount_off":100},"validation_rules":["`+vip+`"]}`)
		in.Code = promotype.Ptr("VIPONLY")
		must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, in))
		ann := must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promotype.Ptr("ann"),
			Metadata: promotype.Metadata{"vip": true}}))
		must[*customer.Customer](t)(f.eng.Customers().Upsert(ctx, f.project, customer.Params{SourceID: promotype.Ptr("ben"),
			Metadata: promotype.Metadata{"vip": false}}))

		validate := func(body string) (*redemption.Validation, error) {
			return f.eng.Validations().Validate(ctx, f.project, js[redemption.ValidationParams](t, body))
		}
		for _, tc := range []struct {
			name, customer, code string
			valid                bool
			key                  string // the voucher's error key when invalid
		}{
			{"a VIP by source id", `{"source_id":"ann"}`, "VIPONLY", true, ""},
			{"a VIP by id", `{"id":"` + ann.ID + `"}`, "VIPONLY", true, ""},
			{"not a VIP", `{"source_id":"ben"}`, "VIPONLY", false, "customer_rules_violated"},
			{"an unknown source id", `{"source_id":"cat"}`, "VIPONLY", false, "customer_rules_violated"},
			{"an unknown code", `{"source_id":"ann"}`, "NONE", false, "not_found"},
		} {
			v, err := validate(`{"customer":` + tc.customer + `,"redeemables":[{"object":"voucher","id":"` + tc.code + `"}],"order":{"amount":1000}}`)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			key := ""
			if len(v.InapplicableRedeemables) == 1 && v.InapplicableRedeemables[0].Result.Error != nil {
				key = v.InapplicableRedeemables[0].Result.Error.Key
			}
			if v.Valid != tc.valid || key != tc.key {
				t.Errorf("%s: valid %t, error %q; want %t, %q", tc.name, v.Valid, key, tc.valid, tc.key)
			}
		}
		_, err := validate(`{"customer":{"id":"cust_unknown"},"redeemables":[{"object":"voucher","id":"VIPONLY"}],"order":{"amount":1000}}`)
		wantErr(t, err, 404, "not_found")
	})
}
