package memory

import (
	"context"
	"sync"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/location"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/storage"
)

// data is the whole state, guarded by Store.mu.
type data struct {
	projects   table[project.Project]
	members    table[project.Member] // project users: project → user id → row (project.go)
	appKeys    table[auth.AppKey]
	clientKeys table[auth.ClientKey]
	mgmtKeys   table[auth.ManagementKey]
	products   keyed[catalog.Product] // live rows keyed by source_id
	skus       keyed[catalog.SKU]     // live rows keyed by source_id
	rewards    table[reward.Reward]
	locations  table[location.Location]

	rewardAsgs  table[reward.Assignment]  // reward assignments (reward.go)
	collections keyed[catalog.Collection] // product collections keyed by name (catalog.go)

	auth      authData                       // OAuth tokens (auth.go)
	customers keyed[customer.Customer]       // keyed by source_id
	orders    keyed[order.Order]             // keyed by source_id
	campaigns campaignData                   // campaigns, categories, vouchers, async actions (campaign.go, voucher.go, async.go)
	rules     ruleData                       // validation rules and assignments (rule.go)
	tiers     table[campaign.PromotionTier]  // promotion tiers (campaign.go)
	stacks    table[campaign.PromotionStack] // promotion stacks (campaign.go)

	stackingRules  table[redemption.StackingRules] // one row per project (redemption.go)
	redemptions    table[redemption.Redemption]    // the ledger (redemption.go)
	redemptionKeys index                           // idempotency key → parent or single redemption
	counters       map[string]map[string]int64     // project → key → value
	transactions   transactionData                 // voucher transactions (redemption.go)
	sessions       sessionData                     // session reservations (redemption.go)

	pubData pubData    // publications and wallet rows (publication.go)
	exports exportData // exports and their files (export.go)

	settings settingsData // webhooks, metadata and event schemas, branding, events (project.go, webhook.go)
	outbox   outboxData   // webhook events waiting for delivery (webhook.go)

	importPages map[string][]byte // project + action + page → the input rows of a bulk action (imports.go)

	activities map[[2]string][]*customer.Activity // (project, customer) → its activity log, in append order (customer.go)

	loyalty loyaltyData // earning rules and their claims (loyalty.go)

	segments segmentData // segments and their members (segment.go)

	referrals referralData // referral conversions and referees (referral.go)
}

// Store is the in-memory storage.Store. The zero value is not usable; call New.
type Store struct {
	mu *sync.RWMutex
	d  *data
	tx *undo // non-nil in a transaction: the lock is held and writes log here
}

var _ storage.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{mu: &sync.RWMutex{}, d: &data{
		projects:   newTable[project.Project](),
		members:    newTable[project.Member](),
		appKeys:    newTable[auth.AppKey](),
		clientKeys: newTable[auth.ClientKey](),
		mgmtKeys:   newTable[auth.ManagementKey](),
		products: newKeyed(keyed[catalog.Product]{
			kind: "product", keyName: "source_id",
			ids:   func(p *catalog.Product) (string, string) { return p.ProjectID, p.ID },
			key:   func(p *catalog.Product) *string { return p.SourceID },
			live:  liveProduct,
			clone: (*catalog.Product).Clone,
		}),
		skus: newKeyed(keyed[catalog.SKU]{
			kind: "sku", keyName: "source_id",
			ids:   func(s *catalog.SKU) (string, string) { return s.ProjectID, s.ID },
			key:   func(s *catalog.SKU) *string { return s.SourceID },
			live:  liveSKU,
			clone: (*catalog.SKU).Clone,
		}),
		rewardAsgs: newTable[reward.Assignment](),
		collections: newKeyed(keyed[catalog.Collection]{
			kind: "products_collection", noun: "products_collection", keyName: "name",
			ids:   func(c *catalog.Collection) (string, string) { return c.ProjectID, c.ID },
			key:   func(c *catalog.Collection) *string { return &c.Name },
			clone: (*catalog.Collection).Clone,
		}),
		rewards:   newTable[reward.Reward](),
		locations: newTable[location.Location](),
		auth:      newAuthData(),
		customers: newKeyed(keyed[customer.Customer]{
			kind: "customer", keyName: "source_id",
			ids:   func(c *customer.Customer) (string, string) { return c.ProjectID, c.ID },
			key:   func(c *customer.Customer) *string { return c.SourceID },
			live:  liveCustomer,
			clone: (*customer.Customer).Clone,
		}),
		orders: newKeyed(keyed[order.Order]{
			kind: "order", keyName: "source_id",
			ids:   func(o *order.Order) (string, string) { return o.ProjectID, o.ID },
			key:   func(o *order.Order) *string { return o.SourceID },
			clone: (*order.Order).Clone,
		}),
		campaigns:      newCampaignData(),
		rules:          newRuleData(),
		tiers:          newTable[campaign.PromotionTier](),
		stacks:         newTable[campaign.PromotionStack](),
		stackingRules:  newTable[redemption.StackingRules](),
		redemptions:    newTable[redemption.Redemption](),
		redemptionKeys: index{},
		counters:       map[string]map[string]int64{},
		transactions:   newTransactionData(),
		sessions:       newSessionData(),
		settings:       newSettingsData(),
		pubData:        newPubData(),
		importPages:    map[string][]byte{},
		activities:     map[[2]string][]*customer.Activity{},
		exports:        newExportData(),
		loyalty:        newLoyaltyData(),
		segments:       newSegmentData(),
		referrals:      newReferralData(),
	}}
}

// txOwner is the context key of a running transaction: its value is the
// lock the transaction holds.
type txOwner struct{}

// outside panics when ctx belongs to a transaction of this store and the
// call did not come through the transaction's handle: taking the lock again
// would deadlock. The fn of a transaction must use the tx it is given.
func (s *Store) outside(ctx context.Context) {
	if s.tx == nil && ctx.Value(txOwner{}) == s.mu {
		panic("memory: a call through the store inside one of its own transactions (it would deadlock); use the transaction's tx")
	}
}

// read runs f under the shared lock (or inside the held transaction lock).
func (s *Store) read(ctx context.Context, f func(d *data)) {
	if s.tx == nil {
		s.outside(ctx)
		s.mu.RLock()
		defer s.mu.RUnlock()
	}
	f(s.d)
}

// write runs f under the exclusive lock. Outside a transaction a failing f is
// undone at once; inside, its undo entries join the transaction's log.
func (s *Store) write(ctx context.Context, f func(d *data, u *undo) error) error {
	if s.tx != nil {
		mark := len(*s.tx)
		if err := f(s.d, s.tx); err != nil {
			(*s.tx)[mark:].rollback() // a failed call leaves nothing half done
			*s.tx = (*s.tx)[:mark]
			return err
		}
		return nil
	}
	s.outside(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	var u undo
	if err := f(s.d, &u); err != nil {
		u.rollback()
		return err
	}
	return nil
}

// RunInTx runs fn holding the exclusive lock; an error, a panic or fn
// ending its goroutine (runtime.Goexit) undoes every write fn made. fn
// gets the ports only (storage.Handle): it cannot open another
// transaction.
func (s *Store) RunInTx(ctx context.Context, fn func(ctx context.Context, tx storage.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.outside(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	tx := &Store{mu: s.mu, d: s.d, tx: &undo{}}
	ctx = context.WithValue(ctx, txOwner{}, s.mu)
	returned := false
	defer func() {
		if p := recover(); p != nil {
			tx.tx.rollback()
			panic(p)
		}
		if err != nil || !returned { // !returned: fn ended its goroutine (runtime.Goexit, t.FailNow)
			tx.tx.rollback()
		}
	}()
	err = fn(ctx, storage.Handle(tx))
	returned = true
	if err == nil {
		// A transaction whose context ended before its commit (a
		// request's deadline passed) writes nothing, as on PostgreSQL.
		err = ctx.Err()
	}
	return err
}
