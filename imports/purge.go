package imports

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/promotype"
)

// MetadataEntity names the resources a metadata key purge goes through:
// the prefix of its action type (<entity>.METADATA_KEY_PURGE).
type MetadataEntity string

// The entities of the hosted API's *.METADATA_KEY_PURGE action types.
const (
	PurgeCampaigns MetadataEntity = "CAMPAIGNS"
	PurgeCustomers MetadataEntity = "CUSTOMERS"
	PurgeProducts  MetadataEntity = "PRODUCTS"
	PurgeVouchers  MetadataEntity = "VOUCHERS"
	PurgeOrders    MetadataEntity = "ORDERS"
)

// Action types of the metadata key purges.
const (
	ActionCampaignsMetadataKeyPurge = "CAMPAIGNS.METADATA_KEY_PURGE"
	ActionCustomersMetadataKeyPurge = "CUSTOMERS.METADATA_KEY_PURGE"
	ActionProductsMetadataKeyPurge  = "PRODUCTS.METADATA_KEY_PURGE"
	ActionVouchersMetadataKeyPurge  = "VOUCHERS.METADATA_KEY_PURGE"
	ActionOrdersMetadataKeyPurge    = "ORDERS.METADATA_KEY_PURGE"
)

// maxMetadataKey bounds the key a purge names (bytes).
const maxMetadataKey = 1000

// MetadataPurgeStore is the storage port of the metadata key purges,
// implemented by every store (part of Store).
type MetadataPurgeStore interface {
	// CountMetadataKey counts the project's rows of entity, live or in the
	// bin, whose metadata holds key.
	CountMetadataKey(ctx context.Context, projectID string, entity MetadataEntity, key string) (int64, error)
	// PurgeMetadataKey removes key from the metadata of the first limit
	// rows of entity of the project, live or in the bin, that hold it and
	// whose id comes after afterID (byte order; "" from the start), and
	// returns the last of their ids and how many it changed (none: "" and
	// 0). Nothing else of the rows changes (updated_at included).
	PurgeMetadataKey(ctx context.Context, projectID string, entity MetadataEntity, key, afterID string, limit int) (lastID string, n int, err error)
}

// PurgeArgs are the arguments of a metadata key purge: the key.
type PurgeArgs struct {
	Key string `json:"key"`
}

// CampaignsKeyPurge is a CAMPAIGNS.METADATA_KEY_PURGE.
type CampaignsKeyPurge PurgeArgs

// CustomersKeyPurge is a CUSTOMERS.METADATA_KEY_PURGE.
type CustomersKeyPurge PurgeArgs

// ProductsKeyPurge is a PRODUCTS.METADATA_KEY_PURGE.
type ProductsKeyPurge PurgeArgs

// VouchersKeyPurge is a VOUCHERS.METADATA_KEY_PURGE.
type VouchersKeyPurge PurgeArgs

// OrdersKeyPurge is an ORDERS.METADATA_KEY_PURGE.
type OrdersKeyPurge PurgeArgs

// Kind implements async.Args.
func (CampaignsKeyPurge) Kind() string { return ActionCampaignsMetadataKeyPurge }

// Kind implements async.Args.
func (CustomersKeyPurge) Kind() string { return ActionCustomersMetadataKeyPurge }

// Kind implements async.Args.
func (ProductsKeyPurge) Kind() string { return ActionProductsMetadataKeyPurge }

// Kind implements async.Args.
func (VouchersKeyPurge) Kind() string { return ActionVouchersMetadataKeyPurge }

// Kind implements async.Args.
func (OrdersKeyPurge) Kind() string { return ActionOrdersMetadataKeyPurge }

// PurgeMetadataKey starts the removal of metadata key key from every
// campaign, customer, product, voucher or order (entity) of the project,
// live or in the bin: the async action <entity>.METADATA_KEY_PURGE. The
// hosted service starts these from its dashboard only; no HTTP route
// serves them. The action goes through the rows holding the key in id
// order, a tenth of them (at most PageRows) per transaction with its
// checkpoint, so a crash resumes after the last committed chunk; its
// result is {message, done_count} (the rows changed). Rows written with
// the key while it runs may keep it. An unknown entity or an empty key is
// a 400 and starts nothing.
func (s *Service) PurgeMetadataKey(ctx context.Context, projectID string, entity MetadataEntity, key string) (*async.Ref, error) {
	if key == "" || len(key) > maxMetadataKey || !utf8.ValidString(key) {
		return nil, promotype.InvalidPayload("The metadata key must be a UTF-8 string of 1 to %d bytes", maxMetadataKey)
	}
	var args async.Args
	switch entity {
	case PurgeCampaigns:
		args = CampaignsKeyPurge{Key: key}
	case PurgeCustomers:
		args = CustomersKeyPurge{Key: key}
	case PurgeProducts:
		args = ProductsKeyPurge{Key: key}
	case PurgeVouchers:
		args = VouchersKeyPurge{Key: key}
	case PurgeOrders:
		args = OrdersKeyPurge{Key: key}
	default:
		return nil, promotype.InvalidPayload("The entity of a metadata key purge must be one of CAMPAIGNS, CUSTOMERS, PRODUCTS, VOUCHERS, ORDERS")
	}
	var a *async.Action
	err := s.tx(ctx, func(ctx context.Context, tx JobStore) error {
		var err error
		a, err = s.actions.Enqueue(ctx, tx, projectID, args)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.actions.Wake()
	return &async.Ref{AsyncActionID: a.ID}, nil
}

// purgeState is the checkpoint of a purge: the rows holding the key when
// it started (the progress's 100%), the last id purged, the rows changed,
// and whether none is left.
type purgeState struct {
	Counted bool   `json:"counted"`
	Total   int64  `json:"total"`
	After   string `json:"after"`
	Done    int64  `json:"done"`
	Ended   bool   `json:"ended"`
}

// purgeWorker carries out the purges of one entity.
type purgeWorker[A async.Args] struct {
	s      *Service
	entity MetadataEntity
	key    func(A) string
}

func registerPurge[A async.Args](s *Service, reg *async.Registry, entity MetadataEntity, key func(A) string) {
	async.Register[A](reg, purgeWorker[A]{s: s, entity: entity, key: key})
}

func (s *Service) registerPurges(reg *async.Registry) {
	registerPurge(s, reg, PurgeCampaigns, func(a CampaignsKeyPurge) string { return a.Key })
	registerPurge(s, reg, PurgeCustomers, func(a CustomersKeyPurge) string { return a.Key })
	registerPurge(s, reg, PurgeProducts, func(a ProductsKeyPurge) string { return a.Key })
	registerPurge(s, reg, PurgeVouchers, func(a VouchersKeyPurge) string { return a.Key })
	registerPurge(s, reg, PurgeOrders, func(a OrdersKeyPurge) string { return a.Key })
}

// Work implements async.Worker: it counts the rows holding the key (first
// chunk), then purges them a chunk at a time, each chunk with its
// checkpoint. Validations are told (Env.Change) once the chunks end,
// whether they all ran or one failed: a campaign's, product's or voucher's
// metadata can decide a rule.
func (w purgeWorker[A]) Work(ctx context.Context, job *async.Job[A]) error {
	s, projectID, key := w.s, job.Action().ProjectID, w.key(job.Args)
	var st purgeState
	err := async.RunChunks(ctx, job.Handle, &st, async.Chunks[purgeState, JobStore]{
		Run:  s.tx,
		More: func(st purgeState) bool { return !st.Ended },
		Chunk: func(ctx context.Context, tx JobStore, cur *async.Action, next *purgeState) error {
			if !next.Counted {
				n, err := tx.CountMetadataKey(ctx, projectID, w.entity, key)
				if err != nil {
					return err
				}
				next.Counted, next.Total = true, n
			}
			last, n, err := tx.PurgeMetadataKey(ctx, projectID, w.entity, key, next.After, stepRows(int(next.Total)))
			if err != nil {
				return err
			}
			if n == 0 {
				next.Ended = true
			} else {
				next.After, next.Done = last, next.Done+int64(n)
			}
			cur.Progress = async.Progress(next.Done, max(next.Total, next.Done+1))
			return nil
		},
	})
	s.env.Change(projectID)
	if err != nil {
		return err
	}
	noun := strings.ToLower(string(w.entity))
	result := async.CountResult{Message: fmt.Sprintf("The metadata key %s was removed from %d %s.", key, st.Done, noun), DoneCount: st.Done}
	return async.Finish(ctx, job.Handle, s.tx, result, nil)
}
