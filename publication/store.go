package publication

import (
	"context"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// Store is the storage port of publications and wallets, scoped by project.
// Returned values are the caller's own. The two voucher methods are the
// conditional updates that give a voucher its holder: the condition is in
// the update, so of concurrent publications exactly one gets a free voucher
// (on PostgreSQL the free vouchers of a campaign are claimed with FOR
// UPDATE SKIP LOCKED).
type Store interface {
	promotype.EventStore

	// InsertPublication stores p; a live source id held by another
	// publication of the project is duplicate_found.
	InsertPublication(ctx context.Context, p *Publication) error
	// FindPublicationBySourceID returns the publication with source id
	// sourceID (not found when there is none).
	FindPublicationBySourceID(ctx context.Context, projectID, sourceID string) (*Publication, error)
	// FindCampaignPublication returns the latest publication (greatest
	// created_at, then id) of vouchers of campaignID to customerID (not found
	// when there is none): what join_once answers again.
	FindCampaignPublication(ctx context.Context, projectID, customerID, campaignID string) (*Publication, error)
	// LockCustomerPublications holds the publications of customer
	// customerID until the transaction ends, so that two join_once
	// publications to one customer run one after the other and the second
	// finds the first's. A store that runs one transaction at a time may do
	// nothing.
	LockCustomerPublications(ctx context.Context, projectID, customerID string) error
	// ListPublications lists the publications of a project.
	ListPublications(ctx context.Context, projectID string, q promotype.Query) ([]*Publication, int, error)

	// InsertHolder stores a wallet row; a row of the same customer and
	// redeemable is kept as it is (no error).
	InsertHolder(ctx context.Context, h *Holder) error
	// ListHolders returns the first q.Limit wallet rows of customerID that
	// match q and whose id comes after afterID in q's order (afterID "":
	// from the start; q.Offset is 0), and how many rows match q, the cursor
	// aside.
	ListHolders(ctx context.Context, projectID, customerID, afterID string, q promotype.Query) ([]*Holder, int, error)

	// PublishVoucher gives the live voucher id to customerID and adds one
	// to its publish count, when it has no holder or is held by customerID
	// already; it returns the voucher as updated. A voucher held by another
	// customer is left unchanged and answered with held true.
	PublishVoucher(ctx context.Context, projectID, id, customerID string, at promotype.Time) (v *voucher.Voucher, held bool, err error)
	// ClaimCampaignVouchers gives up to n free vouchers of a campaign (live,
	// active, without holder), lowest id first, to customerID and adds one
	// to their publish counts; it returns them, fewer than n (or none) when
	// fewer are free. A voucher a concurrent transaction is claiming is
	// skipped, never given twice.
	ClaimCampaignVouchers(ctx context.Context, projectID, campaignID, customerID string, n int, at promotype.Time) ([]*voucher.Voucher, error)
}
