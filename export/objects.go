package export

import (
	"context"
	"slices"
	"strings"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// Exported objects.
const (
	ObjectVoucher          = "voucher"
	ObjectRedemption       = "redemption"
	ObjectCustomer         = "customer"
	ObjectPublication      = "publication"
	ObjectOrder            = "order"
	ObjectPointsExpiration = "points_expiration"
	ObjectTransactions     = "voucher_transactions"
)

// object is what an exported object accepts and how its records become
// rows.
type object struct {
	// spec holds the accepted orders and filterable fields.
	spec promotype.ListSpec
	// defaults are the columns of a request without fields.
	defaults []string
	// fields are the columns a request may name (metadata.<key> too when
	// metadata is among them).
	fields []string
	// page reads the records after a cursor and appends their rows; it
	// returns the cursor after the last record and how many it read.
	page func(ctx context.Context, r *reader, q promotype.Query, after *Cursor) (*Cursor, int, error)
}

// reader is one export's read of its records: the store, the project, the
// columns and where rows go.
type reader struct {
	tx        JobStore
	projectID string
	fields    []string
	metadata  bool // a column shows metadata
	row       func(cells []string) error
	cells     []string
	campaigns map[string]string // campaign id -> name, read once per export
}

// pageOf adapts a store page of T to object.page: cell writes one field of
// a record, key is the record's order key.
func pageOf[T any](read func(Store) func(context.Context, string, Page) ([]T, error),
	key func(T, string) promotype.Value, id func(T) string,
	cell func(ctx context.Context, r *reader, v T, field string) (string, error),
) func(ctx context.Context, r *reader, q promotype.Query, after *Cursor) (*Cursor, int, error) {
	return func(ctx context.Context, r *reader, q promotype.Query, after *Cursor) (*Cursor, int, error) {
		items, err := read(r.tx)(ctx, r.projectID, Page{Query: q, After: after, Metadata: r.metadata})
		if err != nil || len(items) == 0 {
			return after, 0, err
		}
		for _, v := range items {
			r.cells = r.cells[:0]
			for _, f := range r.fields {
				c, err := cell(ctx, r, v, f)
				if err != nil {
					return nil, 0, err
				}
				r.cells = append(r.cells, safeCell(c))
			}
			if err := r.row(r.cells); err != nil {
				return nil, 0, err
			}
		}
		last := items[len(items)-1]
		return &Cursor{Key: key(last, q.OrderBy), ID: id(last)}, len(items), nil
	}
}

// objects are the exported objects this engine produces: every one of the
// hosted enum of POST /v1/exports.
var objects = map[string]*object{
	ObjectVoucher: {
		spec: promotype.ListSpec{
			Orders:       []string{"created_at", "updated_at", "code", "id"},
			DefaultOrder: "-created_at",
			Fields:       voucher.ListSpec.Fields,
		},
		defaults: []string{"code", "voucher_type", "value", "discount_type"},
		fields: []string{"id", "code", "voucher_type", "value", "discount_type", "campaign", "campaign_id", "category",
			"start_date", "expiration_date", "gift_balance", "loyalty_balance", "redemption_quantity", "redemption_count",
			"active", "qr_code", "bar_code", "metadata", "is_referral_code", "created_at", "updated_at",
			"validity_timeframe_interval", "validity_timeframe_duration", "validity_day_of_week", "discount_amount_limit",
			"additional_info", "customer_id", "discount_effect", "discount_unit_type", "discount_unit_effect"},
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*voucher.Voucher, error) {
			return s.VoucherPage
		}, (*voucher.Voucher).Field, func(v *voucher.Voucher) string { return v.ID }, voucherCell),
	},
	ObjectRedemption: {
		spec: promotype.ListSpec{
			Orders:       []string{"created_at", "id", "voucher_code", "tracking_id", "customer_id"},
			DefaultOrder: "-created_at",
			Fields:       redemption.RedemptionListSpec.Fields,
		},
		defaults: []string{"id", "object", "voucher_code", "customer_id", "date", "result"},
		fields: []string{"id", "object", "date", "voucher_code", "campaign", "promotion_tier_id", "customer_id",
			"tracking_id", "order_id", "order_amount", "gift_amount", "loyalty_points", "result", "failure_code",
			"failure_message", "metadata"},
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*redemption.Redemption, error) {
			return s.RedemptionPage
		}, (*redemption.Redemption).Field, func(r *redemption.Redemption) string { return r.ID }, redemptionCell),
	},
	ObjectCustomer: {
		spec:     CustomerSpec,
		defaults: []string{"name", "source_id"},
		fields: []string{"id", "name", "description", "email", "source_id", "phone", "birthdate", "birthday",
			"address_city", "address_state", "address_line_1", "address_line_2", "address_country", "address_postal_code",
			"created_at", "updated_at", "metadata"},
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*customer.Customer, error) {
			return s.CustomerPage
		}, (*customer.Customer).Field, func(c *customer.Customer) string { return c.ID }, customerCell),
	},
	ObjectOrder: {
		spec: promotype.ListSpec{
			Orders:       []string{"created_at", "updated_at", "status", "id"},
			DefaultOrder: "-created_at",
			Fields:       order.ListSpec.Fields,
		},
		defaults: []string{"id", "source_id", "status"},
		fields: []string{"id", "source_id", "created_at", "updated_at", "status", "amount", "discount_amount",
			"items_discount_amount", "total_discount_amount", "total_amount", "customer_id", "referrer_id", "metadata"},
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*order.Order, error) {
			return s.OrderPage
		}, (*order.Order).Field, func(o *order.Order) string { return o.ID }, orderCell),
	},
	ObjectPublication: {
		spec: promotype.ListSpec{
			Orders:       publication.ListSpec.Orders,
			DefaultOrder: "-created_at",
			Fields:       publication.ListSpec.Fields,
		},
		defaults: []string{"voucher_code", "customer_id", "date", "channel"},
		fields: []string{"id", "voucher_code", "customer_id", "customer_source_id", "date", "channel", "campaign",
			"is_winner", "metadata"},
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*publication.Publication, error) {
			return s.PublicationPage
		}, (*publication.Publication).Field, func(p *publication.Publication) string { return p.ID }, publicationCell),
	},
	ObjectTransactions: {
		// The gift and loyalty card ledger (GET /v1/vouchers/{code}/
		// transactions), with the filters, orders and fields of the
		// OpenAPI's VoucherTransactionsExportParameters and
		// ExportVoucherTransactionsFilters.
		spec: promotype.ListSpec{
			Orders:       []string{"created_at"},
			DefaultOrder: "-created_at",
			Fields: map[string]promotype.FieldKind{
				"created_at":  promotype.FieldTime,
				"voucher_id":  promotype.FieldString,
				"campaign_id": promotype.FieldString,
			},
		},
		defaults: transactionFields,
		fields:   transactionFields,
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*redemption.Transaction, error) {
			return s.TransactionPage
		}, (*redemption.Transaction).Field, func(t *redemption.Transaction) string { return t.ID }, transactionCell),
	},
	ObjectPointsExpiration: {
		// Loyalty points buckets, ACTIVE and EXPIRED (GET .../members/
		// {memberId}/points-expiration lists a card's ACTIVE ones).
		// expires_at orders and filters by the instant a bucket is gone
		// (the start of the day after its date); a never-expiring
		// bucket's is null.
		spec: promotype.ListSpec{
			Orders:       []string{"created_at", "expires_at", "id"},
			DefaultOrder: "-expires_at",
			Fields: map[string]promotype.FieldKind{
				"campaign_id": promotype.FieldString,
				"voucher_id":  promotype.FieldString,
				"expires_at":  promotype.FieldTime,
			},
		},
		defaults: []string{"id", "campaign_id", "voucher_id", "status", "expires_at", "points"},
		fields:   []string{"id", "campaign_id", "voucher_id", "status", "expires_at", "points"},
		page: pageOf(func(s Store) func(context.Context, string, Page) ([]*voucher.PointsBucket, error) {
			return s.BucketPage
		}, (*voucher.PointsBucket).Field, func(b *voucher.PointsBucket) string { return b.ID }, bucketCell),
	},
}

// transactionFields are the columns of a transactions export, in the
// order of the OpenAPI's example (every one by default).
var transactionFields = []string{"id", "type", "source_id", "reason", "balance", "amount", "created_at",
	"voucher_id", "campaign_id", "details", "related_transaction_id", "source"}

// allowed reports whether obj may export field.
func (o *object) allowed(field string) bool {
	if key, ok := strings.CutPrefix(field, "metadata."); ok {
		return key != "" && slices.Contains(o.fields, "metadata")
	}
	return slices.Contains(o.fields, field)
}

// campaignName returns the name of a campaign, read once per export.
func (r *reader) campaignName(ctx context.Context, id *string) (string, error) {
	if id == nil {
		return "", nil
	}
	if n, ok := r.campaigns[*id]; ok {
		return n, nil
	}
	var n string
	c, err := r.tx.GetCampaign(ctx, r.projectID, *id)
	if err == nil {
		n = c.Name
	} else {
		if promotype.AsError(err).Code == 404 {
			n = "" // deleted since: the cell stays empty
		} else {
			return "", err
		}
	}
	if len(r.campaigns) < 10_000 {
		r.campaigns[*id] = n
	}
	return n, nil
}
