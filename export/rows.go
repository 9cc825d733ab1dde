package export

import (
	"context"
	"strconv"
	"strings"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/discount"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// voucherCell writes one column of a voucher's row.
func voucherCell(ctx context.Context, r *reader, v *voucher.Voucher, f string) (string, error) {
	d := v.Discount
	switch f {
	case "id":
		return v.ID, nil
	case "code":
		return v.Code, nil
	case "voucher_type":
		return string(v.Type), nil
	case "value":
		return voucherValue(v), nil
	case "discount_type":
		if d == nil {
			return "", nil
		}
		return string(d.Type), nil
	case "campaign":
		if v.Campaign != nil {
			return *v.Campaign, nil
		}
		return r.campaignName(ctx, v.CampaignID)
	case "campaign_id":
		return strCell(v.CampaignID), nil
	case "category":
		return strCell(v.Category), nil
	case "start_date":
		return timeCell(v.StartDate), nil
	case "expiration_date":
		return timeCell(v.ExpirationDate), nil
	case "gift_balance":
		if v.Gift == nil {
			return "", nil
		}
		return moneyCell(v.Gift.Balance), nil
	case "loyalty_balance":
		if v.LoyaltyCard == nil {
			return "", nil
		}
		return intCell(v.LoyaltyCard.Balance), nil
	case "redemption_quantity":
		return intPtrCell(v.RedemptionQuantity), nil
	case "redemption_count":
		return intCell(v.RedeemedQuantity), nil
	case "active":
		return boolCell(v.Active), nil
	case "qr_code":
		if v.Assets == nil {
			return "", nil
		}
		return v.Assets.QR.URL, nil
	case "bar_code":
		if v.Assets == nil {
			return "", nil
		}
		return v.Assets.Barcode.URL, nil
	case "is_referral_code":
		return boolCell(v.IsReferralCode), nil
	case "created_at":
		return timeCell(&v.CreatedAt), nil
	case "updated_at":
		return timeCell(v.UpdatedAt), nil
	case "validity_timeframe_interval", "validity_timeframe_duration":
		if v.ValidityTimeframe == nil {
			return "", nil
		}
		if f == "validity_timeframe_interval" {
			return v.ValidityTimeframe.Interval, nil
		}
		return v.ValidityTimeframe.Duration, nil
	case "validity_day_of_week":
		if v.ValidityDayOfWeek == nil {
			return "", nil
		}
		return jsonCell(v.ValidityDayOfWeek), nil
	case "discount_amount_limit":
		if d == nil {
			return "", nil
		}
		return decimalMoneyCell(d.AmountLimit), nil
	case "additional_info":
		return strCell(v.AdditionalInfo), nil
	case "customer_id":
		return strCell(v.HolderID), nil
	case "discount_effect":
		if d == nil {
			return "", nil
		}
		return string(d.Effect), nil
	case "discount_unit_type":
		if d == nil {
			return "", nil
		}
		return d.UnitType, nil
	case "discount_unit_effect":
		if d == nil || d.Type != discount.Unit {
			return "", nil
		}
		return string(d.Effect), nil
	}
	return metadataCell(v.Metadata, f), nil
}

// voucherValue is a voucher's value column: a discount's amount (main
// unit), percent or units; a gift card's amount (main unit); a loyalty
// card's points.
func voucherValue(v *voucher.Voucher) string {
	switch {
	case v.Gift != nil:
		return moneyCell(v.Gift.Amount)
	case v.LoyaltyCard != nil:
		return intCell(v.LoyaltyCard.Points)
	case v.Discount != nil:
		d := v.Discount
		switch d.Type {
		case discount.Amount:
			return decimalMoneyCell(d.AmountOff)
		case discount.Percent:
			return decimalCell(d.PercentOff)
		case discount.Fixed:
			return decimalMoneyCell(d.FixedAmount)
		case discount.Unit:
			return intPtrCell(d.UnitOff)
		}
	}
	return ""
}

// redemptionCell writes one column of a redemption's row.
func redemptionCell(ctx context.Context, r *reader, x *redemption.Redemption, f string) (string, error) {
	switch f {
	case "id":
		return x.ID, nil
	case "object":
		return x.Object, nil
	case "date":
		return timeCell(&x.Date), nil
	case "voucher_code":
		return x.Ledger.VoucherCode, nil
	case "campaign":
		if x.Ledger.CampaignID == "" {
			return "", nil
		}
		return r.campaignName(ctx, &x.Ledger.CampaignID)
	case "promotion_tier_id":
		return x.Ledger.TierID, nil
	case "customer_id":
		return strCell(x.CustomerID), nil
	case "tracking_id":
		return strCell(x.TrackingID), nil
	case "order_id":
		return x.Ledger.OrderID, nil
	case "order_amount":
		if x.Order == nil {
			return "", nil
		}
		return moneyCell(x.Order.Amount), nil
	case "gift_amount":
		if x.Gift == nil {
			return "", nil
		}
		return moneyCell(x.Gift.Amount), nil
	case "loyalty_points":
		if x.LoyaltyCard == nil {
			return "", nil
		}
		return intCell(x.LoyaltyCard.Points), nil
	case "result":
		return x.Result, nil
	case "failure_code":
		return strCell(x.FailureCode), nil
	case "failure_message":
		return strCell(x.FailureMessage), nil
	}
	return metadataCell(x.Metadata, f), nil
}

// CustomerSpec is what a customer export accepts: its orders and filters.
var CustomerSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "updated_at", "id", "name", "email", "source_id"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"id":         promotype.FieldString,
		"name":       promotype.FieldString,
		"email":      promotype.FieldString,
		"source_id":  promotype.FieldString,
		"phone":      promotype.FieldString,
		"created_at": promotype.FieldTime,
		"updated_at": promotype.FieldTime,
	},
}

// customerCell writes one column of a customer's row.
func customerCell(_ context.Context, _ *reader, c *customer.Customer, f string) (string, error) {
	a := c.Address
	if a == nil {
		a = &customer.Address{}
	}
	switch f {
	case "id":
		return c.ID, nil
	case "name":
		return strCell(c.Name), nil
	case "description":
		return strCell(c.Description), nil
	case "email":
		return strCell(c.Email), nil
	case "source_id":
		return strCell(c.SourceID), nil
	case "phone":
		return strCell(c.Phone), nil
	case "birthdate", "birthday":
		return strCell(c.Birthdate), nil
	case "address_city":
		return strCell(a.City), nil
	case "address_state":
		return strCell(a.State), nil
	case "address_line_1":
		return strCell(a.Line1), nil
	case "address_line_2":
		return strCell(a.Line2), nil
	case "address_country":
		return strCell(a.Country), nil
	case "address_postal_code":
		return strCell(a.PostalCode), nil
	case "created_at":
		return timeCell(&c.CreatedAt), nil
	case "updated_at":
		return timeCell(c.UpdatedAt), nil
	}
	return metadataCell(c.Metadata, f), nil
}

// orderCell writes one column of an order's row.
func orderCell(_ context.Context, _ *reader, o *order.Order, f string) (string, error) {
	switch f {
	case "id":
		return o.ID, nil
	case "source_id":
		return strCell(o.SourceID), nil
	case "created_at":
		return timeCell(&o.CreatedAt), nil
	case "updated_at":
		return timeCell(o.UpdatedAt), nil
	case "status":
		return string(o.Status), nil
	case "amount":
		return moneyCell(o.Amount), nil
	case "discount_amount":
		return moneyCell(o.DiscountAmount), nil
	case "items_discount_amount":
		return moneyCell(o.ItemsDiscountAmount), nil
	case "total_discount_amount":
		return moneyCell(o.TotalDiscountAmount), nil
	case "total_amount":
		return moneyCell(o.TotalAmount), nil
	case "customer_id":
		return strCell(o.CustomerID), nil
	case "referrer_id":
		return strCell(o.ReferrerID), nil
	}
	return metadataCell(o.Metadata, f), nil
}

// publicationCell writes one column of a publication's row.
func publicationCell(ctx context.Context, r *reader, p *publication.Publication, f string) (string, error) {
	switch f {
	case "id":
		return p.ID, nil
	case "voucher_code":
		return strings.Join(p.VoucherCodes, ","), nil
	case "customer_id":
		return p.CustomerID, nil
	case "customer_source_id":
		return strCell(p.TrackingID), nil
	case "date":
		return timeCell(&p.CreatedAt), nil
	case "channel":
		return p.Channel, nil
	case "campaign":
		return r.campaignName(ctx, p.CampaignID)
	case "is_winner":
		return "", nil // no draws: never a winner
	}
	return metadataCell(p.Metadata, f), nil
}

// transactionCell writes one column of a voucher transaction's row. A gift
// card's balance and amount are in the main unit (as a voucher export's
// gift_balance), a loyalty card's in points; amount is signed (negative
// when the card lost credits or points); details is the JSON object the
// transaction lists show.
func transactionCell(_ context.Context, _ *reader, t *redemption.Transaction, f string) (string, error) {
	b := t.Details.Balance
	switch f {
	case "id":
		return t.ID, nil
	case "type":
		return t.Type, nil
	case "source_id":
		return strCell(t.SourceID), nil
	case "reason":
		return strCell(t.Reason), nil
	case "source":
		return strCell(t.Source), nil
	case "balance", "amount":
		if b == nil {
			return "", nil
		}
		n, gift := b.Balance, b.Type == redemption.BalanceGift
		if f == "amount" {
			switch {
			case b.Amount != nil:
				n = *b.Amount
			case b.Points != nil:
				n = *b.Points
			default:
				return "", nil
			}
		}
		if gift {
			return moneyCell(n), nil
		}
		return intCell(n), nil
	case "created_at":
		return timeCell(&t.CreatedAt), nil
	case "voucher_id":
		return t.VoucherID, nil
	case "campaign_id":
		return strCell(t.CampaignID), nil
	case "related_transaction_id":
		return strCell(t.RelatedTransactionID), nil
	case "details":
		return jsonCell(t.Details), nil
	}
	return "", nil
}

// bucketCell is field f of a points_expiration export's row.
func bucketCell(_ context.Context, _ *reader, b *voucher.PointsBucket, f string) (string, error) {
	switch f {
	case "id":
		return b.ID, nil
	case "campaign_id":
		return b.CampaignID, nil
	case "voucher_id":
		return b.VoucherID, nil
	case "status":
		return b.Status, nil
	case "expires_at":
		return strCell(b.ExpiresAt), nil
	case "points":
		return strconv.FormatInt(b.Bucket.TotalPoints, 10), nil
	}
	return "", nil
}
