package redemption

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Id prefixes of the ledger's rows.
const (
	PrefixRedemption       = "r_"
	PrefixFailedRedemption = "rf_"
	PrefixRollback         = "rr_"
	PrefixFailedRollback   = "rrf_"
)

// Objects of the ledger's rows.
const (
	ObjectRedemption = "redemption"
	ObjectRollback   = "redemption_rollback"
)

// Results and statuses of a ledger row.
const (
	ResultSuccess = "SUCCESS"
	ResultFailure = "FAILURE"

	StatusSucceeded  = "SUCCEEDED"
	StatusFailed     = "FAILED"
	StatusRolledBack = "ROLLED_BACK"
)

// Related object types of a ledger row.
const (
	RelatedVoucher       = "voucher"
	RelatedPromotionTier = "promotion_tier"
	RelatedRedemption    = "redemption"
)

// Redemption is one row of the ledger: a redemption (object "redemption":
// a parent, a child or a single one, r_…; a failed attempt, rf_…) or a
// rollback (object "redemption_rollback": rr_…, failed rrf_…). It is
// written once, in the transaction that changes the counters it affects;
// only a redemption's status changes later (ROLLED_BACK, by
// MarkRolledBack). Ledger holds what the row spent and what it is found by.
type Redemption struct {
	ID                 string             `json:"id"`
	Object             string             `json:"object"`
	Date               promotype.Time     `json:"date"`
	CustomerID         *string            `json:"customer_id"`
	TrackingID         *string            `json:"tracking_id"`
	Metadata           promotype.Metadata `json:"metadata"`
	Amount             int64              `json:"amount"`
	Redemption         *string            `json:"redemption"` // the parent (a child), the redemption undone (a rollback)
	Reason             *string            `json:"reason,omitempty"`
	Result             string             `json:"result"`
	Status             string             `json:"status"`
	FailureCode        *string            `json:"failure_code,omitempty"`
	FailureMessage     *string            `json:"failure_message,omitempty"`
	Session            *RedemptionSession `json:"session,omitempty"` // the session whose key the request sent
	RelatedRedemptions *Related           `json:"related_redemptions,omitempty"`
	Order              *order.Order       `json:"order"`
	Channel            Channel            `json:"channel"`
	Customer           *customer.Ref      `json:"customer"`
	RelatedObjectType  string             `json:"related_object_type"`
	RelatedObjectID    string             `json:"related_object_id"`
	Voucher            *voucher.Voucher   `json:"voucher,omitempty"`
	PromotionTier      *TierRef           `json:"promotion_tier,omitempty"`
	Reward             *RewardRef         `json:"reward,omitempty"`
	Gift               *GiftAmount        `json:"gift,omitempty"`
	LoyaltyCard        *LoyaltyPoints     `json:"loyalty_card,omitempty"`

	Ledger Ledger `json:"-"`
}

// Ledger is what a row records besides its answer: its project, what it
// is found by and what it spent (a rollback: what it gave back, negative).
type Ledger struct {
	ProjectID   string   `json:"project_id"`
	ParentID    string   `json:"parent_id,omitempty"`
	Children    []string `json:"children,omitempty"`
	VoucherID   string   `json:"voucher_id,omitempty"`
	VoucherCode string   `json:"voucher_code,omitempty"`
	TierID      string   `json:"tier_id,omitempty"`
	CampaignID  string   `json:"campaign_id,omitempty"`
	OrderID     string   `json:"order_id,omitempty"`
	Spend       Spend    `json:"spend"`
	// Counters are the counter deltas the row added (AddCounters).
	Counters []CounterDelta `json:"counters,omitempty"`
	// RolledBackBy is the rollback that undid a redemption (MarkRolledBack).
	RolledBackBy   string          `json:"rolled_back_by,omitempty"`
	RolledBackAt   *promotype.Time `json:"rolled_back_at,omitempty"`
	RollbackMode   string          `json:"rollback_mode,omitempty"`
	IdempotencyKey string          `json:"idempotency_key,omitempty"`
	// Answer is the answer a parent or single redemption gave, kept only
	// when the request had an idempotency key (replayed for a retry with it).
	Answer json.RawMessage `json:"answer,omitempty"`
	// FailureDetails are the details of a failure's error.
	FailureDetails string `json:"failure_details,omitempty"`
	// FailureStatus is the HTTP status of a failure's error (404 for a
	// redeemable not found, 400 otherwise).
	FailureStatus int `json:"failure_status,omitempty"`
	// FailureErrorMessage is the custom message of a failure's error (a
	// validation rule's error.message).
	FailureErrorMessage string `json:"failure_error_message,omitempty"`
}

// Related links a redemption to its rollbacks.
type Related struct {
	Rollbacks   []RelatedRow `json:"rollbacks,omitempty"`
	Redemptions []RelatedRow `json:"redemptions,omitempty"`
}

// RelatedRow is one related row.
type RelatedRow struct {
	ID                string         `json:"id"`
	Date              promotype.Time `json:"date"`
	RollbackOrderMode string         `json:"rollback_order_mode,omitempty"`
}

// Channel is who made a redemption.
type Channel struct {
	ChannelID   string `json:"channel_id"`
	ChannelType string `json:"channel_type"`
}

// TierRef is the promotion tier a redemption used.
type TierRef struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	CampaignID *string `json:"campaign_id,omitempty"`
	Object     string  `json:"object"`
}

// RewardRef is the reward a loyalty card paid for. A reward that is not
// an order discount (COIN) also names, once given (RewardEffect), its name
// and type, the assignment it was bought through, and the voucher it gave
// (a coupon published, a gift card or loyalty card credited) or the
// product.
type RewardRef struct {
	ID           string           `json:"id"`
	Name         string           `json:"name,omitempty"`
	Type         string           `json:"type,omitempty"`
	AssignmentID string           `json:"assignment_id,omitempty"`
	Voucher      *voucher.Voucher `json:"voucher,omitempty"`
	Product      *RewardProduct   `json:"product,omitempty"`
	Object       string           `json:"object"`
}

// RewardProduct is the product (and SKU) a MATERIAL reward gave.
type RewardProduct struct {
	ID    string  `json:"id"`
	SKUID *string `json:"sku_id,omitempty"`
}

// GiftAmount is the credits a gift card paid (negative: given back).
type GiftAmount struct {
	Amount int64 `json:"amount"`
}

// LoyaltyPoints is the points a loyalty card paid (negative: given back).
type LoyaltyPoints struct {
	Points int64 `json:"points"`
}

// Spend is what one redemption takes from a voucher: a unit of its
// redemption quantity, gift credits, loyalty points. A rollback gives back
// the negation.
type Spend struct {
	Quantity int64 `json:"quantity,omitempty"`
	Credits  int64 `json:"credits,omitempty"`
	Points   int64 `json:"points,omitempty"`
}

// Neg is the spend that undoes s.
func (s Spend) Neg() Spend { return Spend{-s.Quantity, -s.Credits, -s.Points} }

// CounterDelta adds Delta to the counter Key; with Max, the sum may not
// exceed it (the whole change is refused with a *LimitError).
type CounterDelta struct {
	Key   string `json:"key"`
	Delta int64  `json:"delta"`
	Max   *int64 `json:"max,omitempty"`
}

// Limits a LimitError names.
const (
	LimitQuantity = "quantity"
	LimitGift     = "gift"
	LimitPoints   = "points"
	LimitCounter  = "counter"
)

// LimitError is a spend or counter change a limit refused: nothing of it
// was applied.
type LimitError struct {
	Limit string // LimitQuantity, LimitGift, LimitPoints or LimitCounter
	Key   string // the voucher id, or the counter key
}

func (e *LimitError) Error() string { return fmt.Sprintf("%s limit reached: %s", e.Limit, e.Key) }

// Counter keys. Customer keys count children only (never a parent).
func customerKey(id, name string) string { return "customer:" + id + ":" + name }
func tierKey(id, name string) string     { return "tier:" + id + ":" + name }

// VoucherCustomerKey counts a customer's successful redemptions of a
// voucher (the per-customer limit).
func VoucherCustomerKey(voucherID, customerID string) string {
	return "voucher:" + voucherID + ":customer:" + customerID
}

// CampaignCustomerKey counts a customer's successful redemptions in a
// campaign.
func CampaignCustomerKey(campaignID, customerID string) string {
	return "campaign:" + campaignID + ":customer:" + customerID
}

// LedgerStore is the storage port of redemptions: the rows, the conditional
// changes of the counters they affect, and the reads the history rules and
// summaries need. Callers write a row and its counter changes in one
// transaction; the store enforces the limits atomically (a conditional
// update or a row lock), never by a read the caller made earlier.
type LedgerStore interface {
	// InsertRedemptions stores ledger rows (duplicate_found for a taken id).
	InsertRedemptions(ctx context.Context, rs ...*Redemption) error
	// GetRedemption returns a row by id (not_found).
	GetRedemption(ctx context.Context, projectID, id string) (*Redemption, error)
	// FindRedemptionByIdempotencyKey returns the parent or single
	// redemption stored with key (not_found).
	FindRedemptionByIdempotencyKey(ctx context.Context, projectID, key string) (*Redemption, error)
	// ListRedemptions lists rows (RedemptionListSpec fields).
	ListRedemptions(ctx context.Context, projectID string, q promotype.Query) ([]*Redemption, int, error)
	// MarkRolledBack sets a SUCCEEDED redemption ROLLED_BACK by rollback
	// rollbackID at at; it reports false (and changes nothing) when the
	// redemption is not SUCCEEDED. not_found for a missing one.
	MarkRolledBack(ctx context.Context, projectID, id, rollbackID string, at promotype.Time) (bool, error)

	// SpendVoucher takes s from the live voucher id: redeemed quantity +=
	// Quantity (at most its redemption quantity when it has one), gift
	// balance −= Credits (not below 0), loyalty balance −= Points (not
	// below 0). A positive part that would break its limit refuses the
	// whole change with a *LimitError; negative parts (rollbacks) always
	// apply. not_found for a missing voucher. A spend with a positive part
	// on a voucher whose ReservedUntil is set is refused with ErrReserved
	// (nothing changed): the caller spends through SpendReserved. It
	// returns the voucher as the spend left it (read in the same
	// statement on a database).
	SpendVoucher(ctx context.Context, projectID, id string, s Spend) (*voucher.Voucher, error)
	// AddCounters applies the deltas, each atomically; one whose Max would
	// be exceeded refuses with a *LimitError (the caller's transaction
	// undoes the others).
	AddCounters(ctx context.Context, projectID string, ds ...CounterDelta) error
	// AddCountersRead is AddCounters that also returns the values, after
	// it, of the keys in read (0 for a counter never added to), as
	// Counters would in the same transaction; on a database the keys ds
	// changes are read by the same statements.
	AddCountersRead(ctx context.Context, projectID string, read []string, ds ...CounterDelta) (map[string]int64, error)
	// AddCountersReadSpend is AddCountersRead then SpendVoucher of
	// voucherID, as one step for a redemption that spends one voucher (on
	// a database, one statement). No delta of ds has a Max (the caller
	// uses AddCountersRead for those). The deltas apply whatever the
	// spend's outcome, and the values of read are returned with the
	// spend's error too (ErrReserved, a *LimitError, not_found): the
	// caller's transaction keeps or undoes them.
	AddCountersReadSpend(ctx context.Context, projectID string, read []string, ds []CounterDelta, voucherID string, s Spend) (map[string]int64, *voucher.Voucher, error)
	// SpendVouchers is SpendVoucher of each of ss, in their order (by
	// voucher id, distinct: the order a group transaction locks them in),
	// as one step (on a database, one statement). It returns the vouchers
	// the spends left, in the order of ss. At a refused spend it returns
	// the vouchers spent before it (so the refused one is ss[len(spent)])
	// and SpendVoucher's error for it; spends after it may have applied:
	// the caller's transaction undoes them.
	SpendVouchers(ctx context.Context, projectID string, ss []VoucherSpend) ([]*voucher.Voucher, error)
	// Counters returns the values of keys (0 for a counter never added to).
	Counters(ctx context.Context, projectID string, keys ...string) (map[string]int64, error)
	// LockOrder holds the order id until the transaction ends, so that
	// one redemption or rollback at a time changes it (no-op for a store
	// that serializes transactions). not_found for a missing order.
	LockOrder(ctx context.Context, projectID, id string) error
	// Savepoint runs fn inside the current transaction so that when fn
	// fails, what it wrote is undone and the transaction goes on usable
	// (SAVEPOINT / ROLLBACK TO SAVEPOINT); fn's error is returned. Outside
	// a transaction it only runs fn. The combiner (combine.go) runs several
	// redemptions in one transaction through it.
	Savepoint(ctx context.Context, fn func(ctx context.Context) error) error

	SessionStore
}

// Capped reports whether a delta of ds has a limit (a Max): such deltas
// are added one by one, each under its limit, not with the others.
func Capped(ds []CounterDelta) bool {
	return slices.ContainsFunc(ds, func(d CounterDelta) bool { return d.Max != nil })
}

// CountThenSpend is AddCountersReadSpend as two calls of st:
// AddCountersRead, then SpendVoucher (whose error it returns with the
// counters' values). A store whose one call costs nothing more answers
// AddCountersReadSpend with it.
func CountThenSpend(ctx context.Context, st LedgerStore, projectID string, read []string, ds []CounterDelta, voucherID string, s Spend) (map[string]int64, *voucher.Voucher, error) {
	now, err := st.AddCountersRead(ctx, projectID, read, ds...)
	if err != nil {
		return nil, nil, err
	}
	v, err := st.SpendVoucher(ctx, projectID, voucherID, s)
	return now, v, err
}

// VoucherSpend is what a spend takes from one voucher (SpendVouchers).
type VoucherSpend struct {
	VoucherID string
	Spend     Spend
}

// SpendEach is SpendVouchers as one SpendVoucher call of st per spend,
// stopping at the first refused. A store whose one call costs nothing
// more answers SpendVouchers with it.
func SpendEach(ctx context.Context, st LedgerStore, projectID string, ss []VoucherSpend) ([]*voucher.Voucher, error) {
	spent := make([]*voucher.Voucher, 0, len(ss))
	for _, s := range ss {
		v, err := st.SpendVoucher(ctx, projectID, s.VoucherID, s.Spend)
		if err != nil {
			return spent, err
		}
		spent = append(spent, v)
	}
	return spent, nil
}

// RedemptionListSpec is what redemption lists accept (GET /v1/redemptions).
var RedemptionListSpec = promotype.ListSpec{
	Orders:       []string{"created_at", "id", "voucher_code", "tracking_id", "customer_id"},
	DefaultOrder: "-created_at",
	Fields: map[string]promotype.FieldKind{
		"id":                       promotype.FieldString,
		"object":                   promotype.FieldString,
		"result":                   promotype.FieldString,
		"status":                   promotype.FieldString,
		"voucher_code":             promotype.FieldString,
		"voucher_id":               promotype.FieldString,
		"related_object_id":        promotype.FieldString,
		"related_object_type":      promotype.FieldString,
		"related_object_parent_id": promotype.FieldString,
		"parent_redemption_id":     promotype.FieldString,
		"failure_code":             promotype.FieldString,
		"customer_id":              promotype.FieldString,
		"order_id":                 promotype.FieldString,
		"tracking_id":              promotype.FieldString,
		"created_at":               promotype.FieldTime,
	},
}

// Field returns the value of a RedemptionListSpec field of r (stores
// filter and order through it or through columns holding the same).
func (r *Redemption) Field(name string) promotype.Value {
	s := func(v string) promotype.Value {
		if v == "" {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Str: v}
	}
	p := func(v *string) promotype.Value {
		if v == nil {
			return promotype.Value{Null: true}
		}
		return s(*v)
	}
	switch name {
	case "id":
		return s(r.ID)
	case "object":
		return s(r.Object)
	case "result":
		return s(r.Result)
	case "status":
		return s(r.Status)
	case "voucher_code":
		return s(r.Ledger.VoucherCode)
	case "voucher_id":
		return s(r.Ledger.VoucherID)
	case "related_object_id":
		return s(r.RelatedObjectID)
	case "related_object_type":
		return s(r.RelatedObjectType)
	case "related_object_parent_id":
		return s(r.Ledger.CampaignID)
	case "parent_redemption_id":
		return s(r.Ledger.ParentID)
	case "failure_code":
		return p(r.FailureCode)
	case "customer_id":
		return p(r.CustomerID)
	case "order_id":
		return s(r.Ledger.OrderID)
	case "tracking_id":
		return p(r.TrackingID)
	case "created_at":
		return promotype.Value{Time: r.Date}
	}
	return promotype.Value{Null: true}
}

// Clone returns a deep copy, field by field (a store keeps it, so the
// caller's value and the stored one never share memory). The copy holds
// what a store that keeps the JSON document returns: the fields of the
// voucher, order and customer that are not part of the JSON (`json:"-"`)
// are left out, as decoding the document leaves them out.
func (r *Redemption) Clone() *Redemption {
	c := *r
	c.CustomerID = promotype.ClonePtr(r.CustomerID)
	c.TrackingID = promotype.ClonePtr(r.TrackingID)
	if r.Metadata != nil {
		c.Metadata = r.Metadata.Clone()
	}
	c.Redemption = promotype.ClonePtr(r.Redemption)
	c.Reason = promotype.ClonePtr(r.Reason)
	c.FailureCode = promotype.ClonePtr(r.FailureCode)
	c.FailureMessage = promotype.ClonePtr(r.FailureMessage)
	if r.RelatedRedemptions != nil {
		c.RelatedRedemptions = &Related{Rollbacks: slices.Clone(r.RelatedRedemptions.Rollbacks), Redemptions: slices.Clone(r.RelatedRedemptions.Redemptions)}
	}
	if r.Order != nil {
		c.Order = r.Order.Clone()
		c.Order.ProjectID = ""
		c.Order.Customer, c.Order.Referrer = promotype.ClonePtr(r.Order.Customer), promotype.ClonePtr(r.Order.Referrer)
	}
	c.Customer = promotype.ClonePtr(r.Customer)
	if r.Voucher != nil {
		c.Voucher = clonePresented(r.Voucher)
	}
	if r.PromotionTier != nil {
		t := *r.PromotionTier
		t.CampaignID = promotype.ClonePtr(t.CampaignID)
		c.PromotionTier = &t
	}
	c.Reward = promotype.ClonePtr(r.Reward)
	if r.Reward != nil {
		if r.Reward.Voucher != nil {
			c.Reward.Voucher = clonePresented(r.Reward.Voucher)
		}
		if r.Reward.Product != nil {
			c.Reward.Product = &RewardProduct{ID: r.Reward.Product.ID, SKUID: promotype.ClonePtr(r.Reward.Product.SKUID)}
		}
	}
	c.Gift = promotype.ClonePtr(r.Gift)
	c.LoyaltyCard = promotype.ClonePtr(r.LoyaltyCard)
	c.Ledger = r.Ledger
	c.Ledger.Children = slices.Clone(r.Ledger.Children)
	c.Ledger.Counters = slices.Clone(r.Ledger.Counters)
	for i := range c.Ledger.Counters {
		c.Ledger.Counters[i].Max = promotype.ClonePtr(r.Ledger.Counters[i].Max)
	}
	c.Ledger.RolledBackAt = promotype.ClonePtr(r.Ledger.RolledBackAt)
	c.Ledger.Answer = slices.Clone(r.Ledger.Answer)
	return &c
}
