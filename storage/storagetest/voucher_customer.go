package storagetest

import (
	"errors"
	"strings"
	"testing"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// testVoucherCustomerReader covers the optional
// redemption.VoucherCustomerReader on every store that has it: the
// voucher and its assignments are FindVoucherByCodeWithAssignments's, the
// customer the one customer.Resolve reads, and a missing one (binned, unknown, another
// project's, text no row can hold) is nil, not an error.
func testVoucherCustomerReader(t *testing.T, newStore Factory) {
	s := newStore(t)
	r, ok := s.(redemption.VoucherCustomerReader)
	if !ok {
		t.Skip("the store reads no voucher with its customer (redemption.VoucherCustomerReader)")
	}
	p := newProject(t, s, "proj_a")
	q := newProject(t, s, "proj_b")
	live, binned := discountVoucher(p, "camp_1", 1), discountVoucher(p, "", 2)
	for _, v := range []*voucher.Voucher{live, binned, discountVoucher(q, "", 3)} {
		must(t, s.InsertVoucher(ctx, v))
	}
	must(t, s.BinVoucher(ctx, p, binned.ID, at(4)))
	must(t, s.InsertAssignment(ctx, assignment(p, "val_001", 5, rule.RelatedCampaign, "camp_1")))
	must(t, s.InsertAssignment(ctx, assignment(p, "val_002", 3, rule.RelatedVoucher, live.ID)))
	alice, bob, gone := customerFixture(p, 1), customerFixture(p, 2), customerFixture(p, 3)
	bob.SourceID = ptr(alice.ID) // bob's source id is alice's id: the id wins
	carol := customerFixture(p, 4)
	carol.SourceID = ptr("cust_not_an_id") // a source id with the engine's prefix
	for _, c := range []*customer.Customer{alice, bob, gone, carol, customerFixture(q, 5)} {
		must(t, s.InsertCustomer(ctx, c))
	}
	must(t, s.BinCustomer(ctx, p, gone.ID, at(6)))

	for _, tc := range []struct {
		name, code, ref string
		voucher         bool   // whether it is found
		customer        string // the id of the customer found, "" for none
	}{
		{"by source id", live.Code, *alice.SourceID, true, alice.ID},
		{"by id, which is another's source id", live.Code, alice.ID, true, alice.ID},
		{"a source id with the id prefix", live.Code, "cust_not_an_id", true, carol.ID},
		{"an unknown code", "NONE", *alice.SourceID, false, alice.ID},
		{"an unknown customer", live.Code, "nobody", true, ""},
		{"binned ones", binned.Code, *gone.SourceID, false, ""},
		{"another project's", discountVoucher(q, "", 3).Code, *customerFixture(q, 5).SourceID, false, ""},
		{"text no row holds", "NO\x00NE", "no\x00body", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.FindVoucherAndCustomer(ctx, p, tc.code, tc.ref)
			must(t, err)
			var want redemption.VoucherAndCustomer
			v, as, err := s.(redemption.VoucherRulesReader).FindVoucherByCodeWithAssignments(ctx, p, tc.code)
			if !errors.Is(err, promotype.ErrNotFound) {
				must(t, err)
				want.Voucher, want.Assignments = v, as
			}
			// customer.Resolve's reads: by id when the ref is an engine
			// id, else (or when no customer has it) by source id.
			c, err := s.GetCustomer(ctx, p, tc.ref)
			if !strings.HasPrefix(tc.ref, promotype.PrefixCustomer) || errors.Is(err, promotype.ErrNotFound) {
				c, err = s.FindCustomerBySourceID(ctx, p, tc.ref)
			}
			if !errors.Is(err, promotype.ErrNotFound) {
				must(t, err)
				want.Customer = c
			}
			diff(t, "what the separate reads give", want, got)
			diff(t, "voucher found", tc.voucher, got.Voucher != nil)
			id := ""
			if got.Customer != nil {
				id = got.Customer.ID
			}
			diff(t, "the customer found", tc.customer, id)
		})
	}
}
