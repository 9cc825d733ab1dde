package redemption

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotion"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// VoucherCustomerReader is the optional ability of a ServiceStore to make
// the first two reads of a request in one (on a database, one statement):
// the live voucher with code and its assignments, as VoucherRulesReader
// reads them, and the live customer customerRef names, as customer.Resolve
// finds it (by id when the ref has the engine's customer prefix and a
// customer has that id, else by source id). A validation or a redemption
// of a voucher for a named customer, the usual checkout, then makes one
// round trip before its transaction instead of two. storage/storagetest
// checks that the answers are those of the separate reads.
type VoucherCustomerReader interface {
	FindVoucherAndCustomer(ctx context.Context, projectID, code, customerRef string) (VoucherAndCustomer, error)
}

// VoucherAndCustomer is what FindVoucherAndCustomer read; a missing one is
// nil, not an error.
type VoucherAndCustomer struct {
	Voucher     *voucher.Voucher   // the live voucher with the code
	Assignments []*rule.Assignment // of the voucher and of its campaign, oldest first
	Customer    *customer.Customer // the live customer the ref names
}

// prefetch is a request's first voucher and its customer read together:
// the resolver's read of code and the customer lookup of ref answer from
// it.
type prefetch struct {
	code, ref string
	VoucherAndCustomer
}

// prefetch reads the request's first voucher together with its customer
// when the store can (VoucherCustomerReader) and the request would read
// both; nil otherwise.
func (s *Service) prefetch(ctx context.Context, projectID string, in ValidationParams) (*prefetch, error) {
	vc, ok := s.store.(VoucherCustomerReader)
	if !ok || in.Customer == nil {
		return nil, nil
	}
	ref := promotion.CustomerRef(in.Customer)
	code := ""
	for _, p := range in.Redeemables {
		if p.Object == ObjectVoucher && p.ID != "" {
			code = p.ID
			break
		}
	}
	if ref == "" || code == "" {
		return nil, nil
	}
	got, err := vc.FindVoucherAndCustomer(ctx, projectID, code, ref)
	if err != nil {
		return nil, err
	}
	return &prefetch{code: code, ref: ref, VoucherAndCustomer: got}, nil
}

// customers is st whose lookups of p's customer ref answer from p.
func (p *prefetch) customers(st customer.Reader) customer.Reader {
	if p == nil {
		return st
	}
	return prefetchedCustomers{Reader: st, p: p}
}

// prefetchedCustomers answers customer.Resolve's reads of the prefetched
// ref as the store would have: by id only the customer with that id, by
// source id only the one with that source id.
type prefetchedCustomers struct {
	customer.Reader
	p *prefetch
}

func (c prefetchedCustomers) GetCustomer(ctx context.Context, projectID, id string) (*customer.Customer, error) {
	if id != c.p.ref {
		return c.Reader.GetCustomer(ctx, projectID, id)
	}
	if found := c.p.Customer; found != nil && found.ID == id {
		return found, nil
	}
	return nil, promotype.NotFound("customer", id)
}

func (c prefetchedCustomers) FindCustomerBySourceID(ctx context.Context, projectID, sourceID string) (*customer.Customer, error) {
	if sourceID != c.p.ref {
		return c.Reader.FindCustomerBySourceID(ctx, projectID, sourceID)
	}
	if found := c.p.Customer; found != nil && found.SourceID != nil && *found.SourceID == sourceID {
		return found, nil
	}
	return nil, promotype.NotFound("customer", sourceID)
}
