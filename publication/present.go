package publication

import (
	"context"
	"errors"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// presentCreated fills p as a create answers it: the customer, and the
// full voucher when one was published (else the codes).
func (s *Service) presentCreated(ctx context.Context, st ServiceStore, p *Publication) (*Publication, error) {
	p.Object = "publication"
	if err := s.fillCustomer(ctx, st, p, nil); err != nil {
		return nil, err
	}
	if len(p.VouchersID) != 1 {
		p.Vouchers = append([]string{}, p.VoucherCodes...)
		return p, nil
	}
	v, err := st.GetVoucher(ctx, p.ProjectID, p.VouchersID[0])
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		return p, nil // deleted since
	case err != nil:
		return nil, err
	}
	if p.Voucher, err = s.vouchers.Present(ctx, st, v); err != nil {
		return nil, err
	}
	return p, nil
}

// presentListed fills p as a list shows it: the customer and the short
// voucher. customers caches the customers of one page.
func (s *Service) presentListed(ctx context.Context, st ServiceStore, p *Publication, customers map[string]*Customer) error {
	p.Object = "publication"
	if err := s.fillCustomer(ctx, st, p, customers); err != nil {
		return err
	}
	if len(p.VouchersID) > 1 {
		p.Vouchers = append([]string{}, p.VoucherCodes...)
	}
	if len(p.VouchersID) == 0 {
		return nil
	}
	v, err := st.GetVoucher(ctx, p.ProjectID, p.VouchersID[0])
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		p.ListedVoucher = &ListedVoucher{Code: p.VoucherCode(), Object: "voucher", IsReferralCode: p.IsReferralCode}
		return nil
	case err != nil:
		return err
	}
	if v, err = s.vouchers.Present(ctx, st, v); err != nil {
		return err
	}
	p.ListedVoucher = &ListedVoucher{
		Code: v.Code, Object: "voucher", Campaign: v.Campaign, Discount: v.Discount, Gift: v.Gift,
		LoyaltyCard: v.LoyaltyCard, IsReferralCode: v.IsReferralCode,
	}
	return nil
}

// fillCustomer sets p.Customer from the stored customer (cache may be nil).
func (s *Service) fillCustomer(ctx context.Context, st customer.Reader, p *Publication, cache map[string]*Customer) error {
	if c, ok := cache[p.CustomerID]; ok {
		p.Customer = c
		return nil
	}
	c, err := st.GetCustomer(ctx, p.ProjectID, p.CustomerID)
	switch {
	case errors.Is(err, promotype.ErrNotFound):
		p.Customer = &Customer{ID: p.CustomerID, SourceID: promotype.ClonePtr(p.TrackingID), Metadata: promotype.Metadata{}, Object: "customer"}
	case err != nil:
		return err
	default:
		p.Customer = shortCustomer(c)
	}
	if cache != nil {
		cache[p.CustomerID] = p.Customer
	}
	return nil
}

func shortCustomer(c *customer.Customer) *Customer {
	m := c.Metadata.Clone()
	if m == nil {
		m = promotype.Metadata{}
	}
	return &Customer{ID: c.ID, Name: promotype.ClonePtr(c.Name), Email: promotype.ClonePtr(c.Email),
		SourceID: promotype.ClonePtr(c.SourceID), Metadata: m, Object: "customer"}
}

// heldStatus is the status of a held voucher at now.
func heldStatus(v *voucher.Voucher, now promotype.Time) string {
	switch {
	case !v.Active:
		return StatusDisabled
	case v.StartDate != nil && now.Before(v.StartDate.Time):
		return StatusNotActiveYet
	case v.ExpirationDate != nil && now.After(v.ExpirationDate.Time):
		return StatusExpired
	case v.RedemptionQuantity != nil && v.RedeemedQuantity >= *v.RedemptionQuantity:
		return StatusUsed
	case v.Gift != nil && v.Gift.Balance <= 0, v.LoyaltyCard != nil && v.LoyaltyCard.Balance <= 0:
		return StatusNoBalance
	}
	return StatusActive
}
