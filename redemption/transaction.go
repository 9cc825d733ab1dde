package redemption

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promo/promotype"
)

// PrefixTransaction is the id prefix of voucher transactions.
const PrefixTransaction = "vtx_"

// Types of a voucher transaction: gift cards move credits,
// loyalty cards move points.
const (
	TxCreditsAddition   = "CREDITS_ADDITION"
	TxCreditsRemoval    = "CREDITS_REMOVAL"
	TxCreditsRedemption = "CREDITS_REDEMPTION"
	TxCreditsRefund     = "CREDITS_REFUND"
	TxPointsAddition    = "POINTS_ADDITION"
	TxPointsRemoval     = "POINTS_REMOVAL"
	TxPointsRedemption  = "POINTS_REDEMPTION"
	TxPointsRefund      = "POINTS_REFUND"
	TxPointsAccrual     = "POINTS_ACCRUAL"
	TxPointsTransferOut = "POINTS_TRANSFER_OUT"
	TxPointsTransferIn  = "POINTS_TRANSFER_IN"
	TxPendingActivation = "PENDING_POINTS_ACTIVATION"
	TxPointsExpiration  = "POINTS_EXPIRATION"
)

// OperationAutomatic is the operation type of a change the engine makes
// by itself (an earning rule's accrual).
const OperationAutomatic = "AUTOMATIC"

// SourceAutomation is the source of a transaction the engine makes by
// itself.
const SourceAutomation = "Automation"

// Balance types (the voucher kinds a balance belongs to).
const (
	BalanceGift    = "gift_voucher"
	BalanceLoyalty = "loyalty_card"
)

// The webhook events of balance movements (configuration spelling: the
// outbox delivers "aded" as "added", webhook.DeliveredType).
const (
	EventGiftBalanceAdded          = "voucher.gift.balance_aded"
	EventGiftTransactionCreated    = "voucher.gift.transaction.created"
	EventLoyaltyPointsAdded        = "voucher.loyalty_card.points_aded"
	EventLoyaltyTransactionCreated = "voucher.loyalty_card.transaction.created"
	EventLoyaltyPointsExpired      = "voucher.loyalty_card.points_expired"
)

// Transaction is one movement of a gift card's credits or a loyalty card's
// points (object of GET /v1/vouchers/{code}/transactions): a redemption
// spending them, a rollback giving them back, a manual addition or
// removal. It is written in the transaction that moves the balance and
// never changes.
type Transaction struct {
	ID                   string             `json:"id"`
	SourceID             *string            `json:"source_id"`
	VoucherID            string             `json:"voucher_id"`
	CampaignID           *string            `json:"campaign_id"`
	Source               *string            `json:"source"`
	Reason               *string            `json:"reason"`
	Type                 string             `json:"type"`
	Details              TransactionDetails `json:"details"`
	RelatedTransactionID *string            `json:"related_transaction_id"`
	CreatedAt            promotype.Time     `json:"created_at"`

	ProjectID string `json:"-"`
}

// TransactionDetails say what a transaction did to the balance and, for a
// redemption or rollback, which order, redemption and rollback moved it.
type TransactionDetails struct {
	Balance    *Balance  `json:"balance"`
	Order      *TxOrder  `json:"order,omitempty"`
	Redemption *TxRef    `json:"redemption,omitempty"`
	Rollback   *TxRef    `json:"rollback,omitempty"`
	Reward     *TxReward `json:"reward,omitempty"`
	// SourceVoucher and DestinationVoucher are the other card of a
	// transfer.
	SourceVoucher      *TxCard `json:"source_voucher,omitempty"`
	DestinationVoucher *TxCard `json:"destination_voucher,omitempty"`
	// Event and EarningRule name what earned an accrual.
	Event       *TxEvent       `json:"event,omitempty"`
	EarningRule *TxEarningRule `json:"earning_rule,omitempty"`
	CustomEvent *TxEvent       `json:"custom_event,omitempty"`
	// PendingPoints is the pending entry an activation made points of.
	PendingPoints json.RawMessage `json:"pending_points,omitempty"`
}

// TxCard is the other card of a transfer, as it was after the transfer.
type TxCard struct {
	ID             string         `json:"id"`
	Code           string         `json:"code"`
	Type           string         `json:"type"`
	Campaign       *string        `json:"campaign"`
	CampaignID     *string        `json:"campaign_id"`
	LoyaltyCard    *TxCardLoyalty `json:"loyalty_card"`
	IsReferralCode bool           `json:"is_referral_code"`
}

// TxCardLoyalty is the points of a transfer's other card.
type TxCardLoyalty struct {
	Points  int64 `json:"points"`
	Balance int64 `json:"balance"`
}

// TxEvent is the event an accrual answers (customer.order.paid, a custom
// event's name).
type TxEvent struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// TxEarningRule is the earning rule that gave an accrual, with its
// banner.
type TxEarningRule struct {
	ID     string          `json:"id"`
	Source TxEarningSource `json:"source"`
}

// TxEarningSource is an earning rule's banner.
type TxEarningSource struct {
	Banner string `json:"banner"`
}

// Balance is a card's balance after a change (object "balance"): the
// answer of POST /v1/vouchers/{code}/balance and a transaction's
// details.balance. Amount is the credits moved (gift cards), Points the
// points moved (loyalty cards; the balance answer names them amount too).
// Total is what the card received over its life less what was removed
// (gift: amount − subtracted_amount); redemptions and refunds leave it.
type Balance struct {
	Amount        *int64         `json:"amount,omitempty"`
	Points        *int64         `json:"points,omitempty"`
	Total         int64          `json:"total"`
	Balance       int64          `json:"balance"`
	Type          string         `json:"type"`
	OperationType string         `json:"operation_type,omitempty"`
	Object        string         `json:"object"`
	RelatedObject BalanceRelated `json:"related_object"`
}

// BalanceRelated is the voucher a balance belongs to.
type BalanceRelated struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// TxOrder is the order of a redemption transaction.
type TxOrder struct {
	ID       string  `json:"id"`
	SourceID *string `json:"source_id"`
}

// TxRef names a redemption or rollback.
type TxRef struct {
	ID string `json:"id"`
}

// TxReward is the reward a loyalty card paid for.
type TxReward struct {
	ID string `json:"id"`
}

// Clone returns a deep copy (through the JSON document a store keeps).
func (t *Transaction) Clone() *Transaction {
	b, err := json.Marshal(t)
	if err != nil {
		panic(fmt.Sprintf("redemption: encode %s: %v", t.ID, err)) // every field encodes
	}
	var c Transaction
	if err := json.Unmarshal(b, &c); err != nil {
		panic(fmt.Sprintf("redemption: decode %s: %v", t.ID, err))
	}
	c.ProjectID = t.ProjectID
	return &c
}

// TransactionPage is a page of transactions as a store reads it: those of
// one card (VoucherID) or of the cards of one campaign (CampaignID).
type TransactionPage struct {
	VoucherID  string
	CampaignID string
	// AfterID starts the page after this transaction of the scope ("":
	// at the start); a transaction outside the scope is not_found.
	AfterID string
	// Desc lists newest first; otherwise oldest first.
	Desc bool
	// Limit is the most transactions returned.
	Limit int
	// Filter keeps the transactions of the scope it matches (fields
	// TransactionFields); the cursor need only be in the scope.
	Filter promotype.Filter
}

// TransactionFields are the fields a transaction list filters on
// (ParametersFiltersListCampaignTransactions of the OpenAPI).
var TransactionFields = map[string]promotype.FieldKind{"id": promotype.FieldString, "voucher_id": promotype.FieldString}

// In reports whether t is in the page's scope.
func (p TransactionPage) In(t *Transaction) bool {
	if p.VoucherID != "" {
		return t.VoucherID == p.VoucherID
	}
	return t.CampaignID != nil && *t.CampaignID == p.CampaignID
}

// Matches reports whether t, of the page's scope, passes its filter.
func (p TransactionPage) Matches(t *Transaction) bool {
	return promotype.Query{Filter: p.Filter}.Match(t.Field)
}

// Field returns a filterable field of t: those of TransactionFields, and
// campaign_id and created_at (the filters and order of a transactions
// export).
func (t *Transaction) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: t.ID}
	case "voucher_id":
		return promotype.Value{Str: t.VoucherID}
	case "campaign_id":
		if t.CampaignID == nil {
			return promotype.Value{Null: true}
		}
		return promotype.Value{Str: *t.CampaignID}
	case "created_at":
		return promotype.Value{Time: t.CreatedAt}
	}
	return promotype.Value{Null: true}
}

// TransactionStore is the storage port of voucher transactions. Callers
// write a card's transactions while they hold its row (SpendVoucher or
// LockVoucher in the same transaction), so a voucher's transactions are
// numbered in the order their balance changes committed.
type TransactionStore interface {
	// InsertTransactions stores transactions, numbering them after every
	// earlier one of their voucher (duplicate_found for a taken id).
	InsertTransactions(ctx context.Context, ts ...*Transaction) error
	// ListTransactions returns a page of the transactions of a card or a
	// campaign in the order they were stored (or the reverse).
	ListTransactions(ctx context.Context, projectID string, p TransactionPage) ([]*Transaction, error)
}
