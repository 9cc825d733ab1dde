package memory

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/voucher"
)

// stackingRulesKey is the one row id of a project's stacking rules table.
const stackingRulesKey = "stacking_rules"

// InsertStackingRules implements redemption.Store.
func (s *Store) InsertStackingRules(ctx context.Context, r *redemption.StackingRules) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return insertNew(&d.stackingRules, u, r.ProjectID, stackingRulesKey, "stacking_rules", r.Clone())
	})
}

// UpdateStackingRules implements redemption.Store.
func (s *Store) UpdateStackingRules(ctx context.Context, r *redemption.StackingRules) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return replace(&d.stackingRules, u, r.ProjectID, stackingRulesKey, "stacking_rules", r.Clone())
	})
}

// GetStackingRules implements redemption.Store.
func (s *Store) GetStackingRules(ctx context.Context, projectID string) (out *redemption.StackingRules, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.stackingRules, projectID, stackingRulesKey, "stacking_rules", (*redemption.StackingRules).Clone)
	})
	return out, err
}

// DeleteStackingRules implements redemption.Store.
func (s *Store) DeleteStackingRules(ctx context.Context, projectID string) error {
	return s.write(ctx, func(d *data, u *undo) error {
		return remove(&d.stackingRules, u, projectID, stackingRulesKey, "stacking_rules")
	})
}

// InsertRedemptions implements redemption.Store.
func (s *Store) InsertRedemptions(ctx context.Context, rs ...*redemption.Redemption) error {
	return s.write(ctx, func(d *data, u *undo) error {
		for _, r := range rs {
			if k := r.Ledger.IdempotencyKey; k != "" {
				if _, taken := d.redemptionKeys[[2]string{r.Ledger.ProjectID, k}]; taken {
					return promotype.Duplicate("redemption", "A redemption holds the idempotency key %s", k)
				}
			}
			if err := insertNew(&d.redemptions, u, r.Ledger.ProjectID, r.ID, "redemption", r.Clone()); err != nil {
				return err
			}
			if k := r.Ledger.IdempotencyKey; k != "" {
				d.redemptionKeys.set(u, r.Ledger.ProjectID, k, r.ID)
			}
		}
		return nil
	})
}

// GetRedemption implements redemption.Store.
func (s *Store) GetRedemption(ctx context.Context, projectID, id string) (out *redemption.Redemption, err error) {
	s.read(ctx, func(d *data) {
		out, err = getClone(&d.redemptions, projectID, id, "redemption", (*redemption.Redemption).Clone)
	})
	return out, err
}

// FindRedemptionByIdempotencyKey implements redemption.Store.
func (s *Store) FindRedemptionByIdempotencyKey(ctx context.Context, projectID, key string) (out *redemption.Redemption, err error) {
	s.read(ctx, func(d *data) {
		id, ok := d.redemptionKeys[[2]string{projectID, key}]
		if !ok {
			err = promotype.NotFound("redemption", key)
			return
		}
		out, err = getClone(&d.redemptions, projectID, id, "redemption", (*redemption.Redemption).Clone)
	})
	return out, err
}

// ListRedemptions implements redemption.Store.
func (s *Store) ListRedemptions(ctx context.Context, projectID string, q promotype.Query) (out []*redemption.Redemption, total int, err error) {
	s.read(ctx, func(d *data) {
		out, total = list(d.redemptions.rows[projectID], q, (*redemption.Redemption).Field,
			func(r *redemption.Redemption) string { return r.ID }, nil, (*redemption.Redemption).Clone)
	})
	return out, total, nil
}

// MarkRolledBack implements redemption.Store.
func (s *Store) MarkRolledBack(ctx context.Context, projectID, id, rollbackID string, at promotype.Time) (ok bool, err error) {
	err = s.write(ctx, func(d *data, u *undo) error {
		r, found := d.redemptions.get(projectID, id)
		if !found {
			return promotype.NotFound("redemption", id)
		}
		if r.Status != redemption.StatusSucceeded {
			return nil
		}
		c := r.Clone()
		c.Status, c.Ledger.RolledBackBy, c.Ledger.RolledBackAt = redemption.StatusRolledBack, rollbackID, &at
		d.redemptions.put(u, projectID, id, c)
		ok = true
		return nil
	})
	return ok, err
}

// SpendVoucher implements redemption.Store: the store's lock makes the
// check and the change one step.
func (s *Store) SpendVoucher(ctx context.Context, projectID, id string, sp redemption.Spend) (*voucher.Voucher, error) {
	var after *voucher.Voucher
	err := s.write(ctx, func(d *data, u *undo) error {
		p := d.voucherProject(projectID)
		old, r, ok := p.live(id)
		if !ok {
			return promotype.NotFound("voucher", id)
		}
		if old == nil {
			old = p.move(u, r)
		}
		v := old.Clone()
		switch {
		case v.ReservedUntil != nil && (sp.Quantity > 0 || sp.Credits > 0 || sp.Points > 0):
			return redemption.ErrReserved
		case sp.Quantity > 0 && v.RedemptionQuantity != nil && v.RedeemedQuantity+sp.Quantity > *v.RedemptionQuantity:
			return &redemption.LimitError{Limit: redemption.LimitQuantity, Key: id}
		case sp.Credits > 0 && (v.Gift == nil || v.Gift.Balance < sp.Credits):
			return &redemption.LimitError{Limit: redemption.LimitGift, Key: id}
		case sp.Points > 0 && (v.LoyaltyCard == nil || v.LoyaltyCard.Balance < sp.Points):
			return &redemption.LimitError{Limit: redemption.LimitPoints, Key: id}
		}
		v.RedeemedQuantity += sp.Quantity
		if sp.Credits != 0 && v.Gift != nil {
			v.Gift.Balance -= sp.Credits
		}
		if sp.Points != 0 && v.LoyaltyCard != nil {
			v.LoyaltyCard.Balance -= sp.Points
		}
		p.putRow(u, v) // stores a copy of its own: v is the caller's
		after = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// AddCounters implements redemption.Store. One undo entry restores what
// the call changed.
func (s *Store) AddCounters(ctx context.Context, projectID string, ds ...redemption.CounterDelta) error {
	return s.write(ctx, func(d *data, u *undo) error {
		m := d.counters[projectID]
		if m == nil {
			m = map[string]int64{}
			setKey(u, d.counters, projectID, m)
		}
		was := make([]counterWas, 0, len(ds))
		u.push(func() {
			for i := len(was) - 1; i >= 0; i-- {
				if w := was[i]; w.had {
					m[w.key] = w.n
				} else {
					delete(m, w.key)
				}
			}
		})
		for _, c := range ds {
			old, had := m[c.Key]
			n := old + c.Delta
			if c.Max != nil && c.Delta > 0 && n > *c.Max {
				return &redemption.LimitError{Limit: redemption.LimitCounter, Key: c.Key}
			}
			was = append(was, counterWas{key: c.Key, n: old, had: had})
			m[c.Key] = n
		}
		return nil
	})
}

// counterWas is a counter as it was before AddCounters changed it.
type counterWas struct {
	key string
	n   int64
	had bool
}

// AddCountersReadSpend implements redemption.Store: AddCountersRead, then
// SpendVoucher (the counters stay added when the spend is refused, as on a
// database: the caller's transaction undoes them).
func (s *Store) AddCountersReadSpend(ctx context.Context, projectID string, read []string, ds []redemption.CounterDelta, voucherID string, sp redemption.Spend) (map[string]int64, *voucher.Voucher, error) {
	return redemption.CountThenSpend(ctx, s, projectID, read, ds, voucherID, sp)
}

// SpendVouchers implements redemption.Store: one SpendVoucher per spend.
func (s *Store) SpendVouchers(ctx context.Context, projectID string, ss []redemption.VoucherSpend) ([]*voucher.Voucher, error) {
	return redemption.SpendEach(ctx, s, projectID, ss)
}

// AddCountersRead implements redemption.Store.
func (s *Store) AddCountersRead(ctx context.Context, projectID string, read []string, ds ...redemption.CounterDelta) (map[string]int64, error) {
	if err := s.AddCounters(ctx, projectID, ds...); err != nil {
		return nil, err
	}
	return s.Counters(ctx, projectID, read...)
}

// Counters implements redemption.Store.
func (s *Store) Counters(ctx context.Context, projectID string, keys ...string) (map[string]int64, error) {
	out := make(map[string]int64, len(keys))
	s.read(ctx, func(d *data) {
		m := d.counters[projectID]
		for _, k := range keys {
			out[k] = m[k]
		}
	})
	return out, nil
}

// LockOrder implements redemption.Store: transactions of this store are
// serialized already, so it only checks that the order exists.
func (s *Store) LockOrder(ctx context.Context, projectID, id string) (err error) {
	s.read(ctx, func(d *data) { _, err = d.orders.liveRow(projectID, id) })
	return err
}

// sessionData holds the session reservations: by voucher (project +
// "\x00" + voucher id → key → reservation) and the vouchers of a key
// (project + "\x00" + key → voucher id → true).
type sessionData struct {
	byVoucher map[string]map[string]*redemption.Reservation
	byKey     map[string]map[string]bool
}

func newSessionData() sessionData {
	return sessionData{byVoucher: map[string]map[string]*redemption.Reservation{}, byKey: map[string]map[string]bool{}}
}

func (sd sessionData) ofVoucher(projectID, voucherID string) map[string]*redemption.Reservation {
	k := projectID + "\x00" + voucherID
	m := sd.byVoucher[k]
	if m == nil {
		m = map[string]*redemption.Reservation{}
		sd.byVoucher[k] = m
	}
	return m
}

func (sd sessionData) ofKey(projectID, key string) map[string]bool {
	k := projectID + "\x00" + key
	m := sd.byKey[k]
	if m == nil {
		m = map[string]bool{}
		sd.byKey[k] = m
	}
	return m
}

func (sd sessionData) put(u *undo, r *redemption.Reservation) {
	c := *r
	setKey(u, sd.ofVoucher(r.ProjectID, r.VoucherID), r.Key, &c)
	setKey(u, sd.ofKey(r.ProjectID, r.Key), r.VoucherID, true)
}

// drop deletes a reservation; a voucher or key left without any loses
// its entry (so forgotten keys do not pile up).
func (sd sessionData) drop(u *undo, projectID, voucherID, key string) {
	vk, kk := projectID+"\x00"+voucherID, projectID+"\x00"+key
	delKey(u, sd.ofVoucher(projectID, voucherID), key)
	delKey(u, sd.ofKey(projectID, key), voucherID)
	if len(sd.byVoucher[vk]) == 0 {
		delKey(u, sd.byVoucher, vk)
	}
	if len(sd.byKey[kk]) == 0 {
		delKey(u, sd.byKey, kk)
	}
}

// others are the live reservations at now on a voucher of keys other
// than key.
func (sd sessionData) others(projectID, voucherID, key string, now promotype.Time) []*redemption.Reservation {
	var out []*redemption.Reservation
	for k, r := range sd.byVoucher[projectID+"\x00"+voucherID] {
		if k != key && r.Live(now) {
			out = append(out, r)
		}
	}
	return out
}

// liveVoucher returns a copy of the live voucher id to change (put back
// with p.putRow).
func liveVoucher(d *data, u *undo, projectID, id string) (*voucherProject, *voucher.Voucher, error) {
	p := d.voucherProject(projectID)
	old, r, ok := p.live(id)
	if !ok {
		return nil, nil, promotype.NotFound("voucher", id)
	}
	if old == nil {
		old = p.move(u, r)
	}
	return p, old.Clone(), nil
}

// settle drops the expired reservations of v and sets its ReservedUntil
// to the latest expiry left (nil: none).
func (sd sessionData) settle(u *undo, v *voucher.Voucher, now promotype.Time) {
	var until *promotype.Time
	for k, r := range sd.byVoucher[v.ProjectID+"\x00"+v.ID] {
		if !r.Live(now) {
			sd.drop(u, v.ProjectID, v.ID, k)
			continue
		}
		if until == nil || r.ExpiresAt.After(until.Time) {
			until = promotype.ClonePtr(&r.ExpiresAt)
		}
	}
	v.ReservedUntil = until
}

func balances(v *voucher.Voucher) (gift, points *int64) {
	if v.Gift != nil {
		gift = &v.Gift.Balance
	}
	if v.LoyaltyCard != nil {
		points = &v.LoyaltyCard.Balance
	}
	return gift, points
}

// ReserveSession implements redemption.Store: the store's lock makes the
// checks and the change one step.
func (s *Store) ReserveSession(ctx context.Context, projectID, key string, rs []*redemption.Reservation, now promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		sd := d.sessions
		keep := map[string]bool{}
		for _, r := range rs {
			keep[r.VoucherID] = true
			p, v, err := liveVoucher(d, u, projectID, r.VoucherID)
			if err != nil {
				return err
			}
			gift, points := balances(v)
			if lim := redemption.Left(v.RedemptionQuantity, v.RedeemedQuantity, gift, points, sd.others(projectID, v.ID, key, now), r.Spend); lim != "" {
				return &redemption.LimitError{Limit: lim, Key: v.ID}
			}
			c := *r
			c.ProjectID, c.Key = projectID, key
			sd.put(u, &c)
			sd.settle(u, v, now)
			p.putRow(u, v)
		}
		for id := range sd.byKey[projectID+"\x00"+key] {
			if !keep[id] {
				sd.drop(u, projectID, id, key)
			}
		}
		return nil
	})
}

// Reservations implements redemption.Store.
func (s *Store) Reservations(ctx context.Context, projectID, voucherID string, now promotype.Time) (out []*redemption.Reservation, err error) {
	s.read(ctx, func(d *data) {
		for _, r := range d.sessions.byVoucher[projectID+"\x00"+voucherID] {
			if r.Live(now) {
				c := *r
				out = append(out, &c)
			}
		}
	})
	return out, nil
}

// SpendReserved implements redemption.Store.
func (s *Store) SpendReserved(ctx context.Context, projectID, voucherID string, sp redemption.Spend, key string, now promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p, v, err := liveVoucher(d, u, projectID, voucherID)
		if err != nil {
			return err
		}
		gift, points := balances(v)
		if lim := redemption.Left(v.RedemptionQuantity, v.RedeemedQuantity, gift, points, d.sessions.others(projectID, voucherID, key, now), sp); lim != "" {
			return &redemption.LimitError{Limit: lim, Key: voucherID}
		}
		v.RedeemedQuantity += sp.Quantity
		if sp.Credits != 0 && v.Gift != nil {
			v.Gift.Balance -= sp.Credits
		}
		if sp.Points != 0 && v.LoyaltyCard != nil {
			v.LoyaltyCard.Balance -= sp.Points
		}
		if key != "" {
			d.sessions.drop(u, projectID, voucherID, key)
		}
		d.sessions.settle(u, v, now)
		p.putRow(u, v)
		return nil
	})
}

// ReleaseReservation implements redemption.Store.
func (s *Store) ReleaseReservation(ctx context.Context, projectID, voucherID, key string, now promotype.Time) error {
	return s.write(ctx, func(d *data, u *undo) error {
		p, v, err := liveVoucher(d, u, projectID, voucherID)
		if err != nil {
			return err
		}
		r, ok := d.sessions.byVoucher[projectID+"\x00"+voucherID][key]
		if !ok || !r.Live(now) {
			return promotype.NotFound("session", key)
		}
		d.sessions.drop(u, projectID, voucherID, key)
		d.sessions.settle(u, v, now)
		p.putRow(u, v)
		return nil
	})
}

// Savepoint implements redemption.Store: inside a transaction a failing fn
// is undone from the transaction's log back to where it started.
func (s *Store) Savepoint(ctx context.Context, fn func(ctx context.Context) error) error {
	if s.tx == nil {
		return fn(ctx)
	}
	mark := len(*s.tx)
	if err := fn(ctx); err != nil {
		(*s.tx)[mark:].rollback()
		*s.tx = (*s.tx)[:mark]
		return err
	}
	return nil
}

// transactionData holds voucher transactions: each project's in the
// order they were stored, where each id sits in that order, and each
// card's positions (a card's list reads only its own rows).
type transactionData struct {
	byProject map[string][]*redemption.Transaction // project → transactions
	pos       map[[2]string]int                    // project, transaction id → position
	byVoucher map[[2]string][]int                  // project, voucher id → positions, ascending
}

func newTransactionData() transactionData {
	return transactionData{byProject: map[string][]*redemption.Transaction{}, pos: map[[2]string]int{}, byVoucher: map[[2]string][]int{}}
}

// InsertTransactions implements redemption.Store.
func (s *Store) InsertTransactions(ctx context.Context, ts ...*redemption.Transaction) error {
	return s.write(ctx, func(d *data, u *undo) error {
		td := &d.transactions
		for _, t := range ts {
			id := [2]string{t.ProjectID, t.ID}
			if _, taken := td.pos[id]; taken {
				return promotype.Duplicate("transaction", "Duplicated transaction exists")
			}
			// Appends only: an undo restores the old lengths (the store's
			// lock serializes writers, and readers keep no slice).
			all, mine, vk := td.byProject[t.ProjectID], td.byVoucher[[2]string{t.ProjectID, t.VoucherID}], [2]string{t.ProjectID, t.VoucherID}
			td.pos[id] = len(all)
			td.byVoucher[vk] = append(mine, len(all))
			td.byProject[t.ProjectID] = append(all, t.Clone())
			u.push(func() {
				delete(td.pos, id)
				td.byProject[t.ProjectID], td.byVoucher[vk] = all, mine
			})
		}
		return nil
	})
}

// ListTransactions implements redemption.Store: a card's positions, or a
// scan of the project's transactions for a campaign.
func (s *Store) ListTransactions(ctx context.Context, projectID string, p redemption.TransactionPage) (out []*redemption.Transaction, err error) {
	s.read(ctx, func(d *data) {
		td := &d.transactions
		all := td.byProject[projectID]
		positions := td.byVoucher[[2]string{projectID, p.VoucherID}]
		n := len(positions)
		at := func(k int) int { return positions[k] }
		if p.VoucherID == "" {
			n, at = len(all), func(k int) int { return k }
		}
		k, step := 0, 1
		if p.Desc {
			k, step = n-1, -1
		}
		if p.AfterID != "" {
			j, ok := td.pos[[2]string{projectID, p.AfterID}]
			if !ok || !p.In(all[j]) {
				err = promotype.NotFound("transaction", p.AfterID)
				return
			}
			// The cursor's place among the scope's positions.
			k = sort.Search(n, func(k int) bool { return at(k) >= j }) + step
		}
		out = []*redemption.Transaction{}
		for ; k >= 0 && k < n && len(out) < p.Limit; k += step {
			if t := all[at(k)]; p.In(t) && p.Matches(t) {
				out = append(out, t.Clone())
			}
		}
	})
	return out, err
}

// HeldVouchers implements redemption.QualificationStore: the customer's
// wallet rows (an index by customer), lowest holder id first from after,
// each with its live voucher.
func (s *Store) HeldVouchers(ctx context.Context, projectID, customerID, after string, limit int) (out []*redemption.HeldVoucher, err error) {
	s.read(ctx, func(d *data) {
		ids := slices.Sorted(slices.Values(d.pubData.wallets[[2]string{projectID, customerID}]))
		p := d.campaigns.vouchers[projectID]
		out = []*redemption.HeldVoucher{}
		for _, id := range ids {
			if len(out) == limit || p == nil {
				return
			}
			if strings.Compare(id, after) <= 0 {
				continue
			}
			h, ok := d.pubData.holders.get(projectID, id)
			if !ok {
				continue
			}
			if v, ok := p.get(h.RedeemableID); ok {
				out = append(out, &redemption.HeldVoucher{Key: id, Role: h.HolderRole, Voucher: v})
			}
		}
	})
	return out, nil
}

// PublicVouchers implements redemption.QualificationStore: the free index
// of vouchers held alone under no campaign and under each STANDALONE
// campaign (generated slabs belong to other campaigns, but are read too
// when one does not), newest first, then by code, between the keys.
func (s *Store) PublicVouchers(ctx context.Context, projectID string, after, until *redemption.OfferKey, limit int) (out []*voucher.Voucher, err error) {
	s.read(ctx, func(d *data) {
		out = []*voucher.Voucher{}
		p := d.campaigns.vouchers[projectID]
		if p == nil || limit < 1 {
			return
		}
		public := map[string]bool{"": true}
		for id, c := range d.campaigns.campaigns.rows[projectID] {
			if c.Type == campaign.Standalone {
				public[id] = true
			}
		}
		between := func(v *voucher.Voucher) bool {
			return (after == nil || publicOrder(v, after) > 0) && (until == nil || publicOrder(v, until) < 0)
		}
		var found []*voucher.Voucher // not copies yet
		for k := range public {
			for id := range p.free[k] {
				if v, ok := p.rows[id]; ok && v.BinnedAt == nil && v.Active && v.HolderID == nil && between(v) {
					found = append(found, v)
				}
			}
		}
		for _, sl := range p.slabs {
			if !public[sl.campaignID] || !sl.template.Active || sl.template.HolderID != nil {
				continue
			}
			for i, st := range sl.state {
				if st != rowLive {
					continue
				}
				if v := sl.voucher(i); between(v) {
					found = append(found, v)
				}
			}
		}
		slices.SortFunc(found, func(a, b *voucher.Voucher) int {
			return publicOrder(a, &redemption.OfferKey{CreatedAt: b.CreatedAt, ID: b.Code})
		})
		for _, v := range found[:min(len(found), limit)] {
			out = append(out, v.Clone())
		}
	})
	return out, nil
}

// publicOrder orders voucher v against the key k: created_at descending,
// then code ascending.
func publicOrder(v *voucher.Voucher, k *redemption.OfferKey) int {
	if d := k.CreatedAt.Compare(v.CreatedAt.Time); d != 0 {
		return d
	}
	return strings.Compare(v.Code, k.ID)
}

// CampaignsByID implements redemption.QualificationStore.
func (s *Store) CampaignsByID(ctx context.Context, projectID string, ids []string) (out []*campaign.Campaign, err error) {
	s.read(ctx, func(d *data) {
		out = []*campaign.Campaign{}
		for _, id := range ids {
			if c, err := d.campaigns.campaigns.copyOf(projectID, id); err == nil {
				out = append(out, c)
			}
		}
	})
	return out, nil
}

// CampaignOffers implements redemption.QualificationStore: the project's
// live, active DISCOUNT_COUPONS and GIFT_VOUCHERS campaigns (not
// STANDALONE), newest first, each with its free voucher of lowest id (from
// the free index and the campaign's generated slabs), those without one
// left out.
func (s *Store) CampaignOffers(ctx context.Context, projectID string, after, until *redemption.OfferKey, limit int) (out []*redemption.CampaignOffer, err error) {
	s.read(ctx, func(d *data) {
		out = []*redemption.CampaignOffer{}
		p := d.campaigns.vouchers[projectID]
		if p == nil || limit < 1 {
			return
		}
		var slabs map[string][]*slab // the generated vouchers by campaign, once one is looked for
		slabsOf := func(id string) []*slab {
			if slabs == nil {
				slabs = map[string][]*slab{}
				for _, sl := range p.slabs {
					if sl.template.Active && sl.template.HolderID == nil {
						slabs[sl.campaignID] = append(slabs[sl.campaignID], sl)
					}
				}
			}
			return slabs[id]
		}
		// The first limit campaigns with a free voucher, selected without
		// sorting them all: a campaign is looked at only when it would
		// enter the selection.
		order := func(a, b *redemption.CampaignOffer) int {
			return offerOrder(a.Campaign, b.Campaign.CreatedAt.Time, b.Campaign.ID)
		}
		for _, c := range d.campaigns.campaigns.rows[projectID] {
			if c.BinnedAt != nil || !c.Active || c.Type == campaign.Standalone ||
				(c.CampaignType != campaign.DiscountCoupons && c.CampaignType != campaign.GiftVouchers) {
				continue
			}
			if (after != nil && offerOrder(c, after.CreatedAt.Time, after.ID) <= 0) ||
				(until != nil && offerOrder(c, until.CreatedAt.Time, until.ID) >= 0) {
				continue
			}
			if len(out) == limit && offerOrder(c, out[limit-1].Campaign.CreatedAt.Time, out[limit-1].Campaign.ID) > 0 {
				continue
			}
			v := p.firstFree(c.ID, slabsOf(c.ID))
			if v == nil {
				continue
			}
			o := &redemption.CampaignOffer{Campaign: c, Voucher: v}
			i, _ := slices.BinarySearchFunc(out, o, order)
			out = slices.Insert(out, i, o)
			if len(out) > limit {
				out = out[:limit]
			}
		}
		for _, o := range out {
			o.Campaign = o.Campaign.Clone()
		}
	})
	return out, nil
}

// offerOrder orders campaign c against the key (at, id): created_at
// descending, then id ascending.
func offerOrder(c *campaign.Campaign, at time.Time, id string) int {
	if d := at.Compare(c.CreatedAt.Time); d != 0 {
		return d
	}
	return strings.Compare(c.ID, id)
}

// firstFree is a copy of the live, active voucher without holder of
// campaign id with the lowest id, nil when there is none.
func (p *voucherProject) firstFree(id string, slabs []*slab) *voucher.Voucher {
	best := ""
	var v *voucher.Voucher
	for vid := range p.free[id] {
		if r, ok := p.rows[vid]; ok && r.BinnedAt == nil && r.Active && r.HolderID == nil && (v == nil || strings.Compare(vid, best) < 0) {
			best, v = vid, r
		}
	}
	if v != nil {
		v = v.Clone()
	}
	for _, sl := range slabs {
		for i, st := range sl.state {
			if st != rowLive {
				continue
			}
			if v == nil || strings.Compare(sl.id(i), best) < 0 {
				best, v = sl.id(i), sl.voucher(i)
			}
		}
	}
	return v
}

// CampaignTotals implements redemption.Store.
func (s *Store) CampaignTotals(ctx context.Context, projectID, campaignID string, from, to *promotype.Time) (out redemption.CampaignTotals, err error) {
	within := func(t promotype.Time) bool {
		return (from == nil || !t.Before(from.Time)) && (to == nil || !t.After(to.Time))
	}
	s.read(ctx, func(d *data) {
		for _, r := range d.redemptions.rows[projectID] {
			if r.Ledger.CampaignID != campaignID || !within(r.Date) {
				continue
			}
			ok := r.Result == redemption.ResultSuccess
			switch r.Object {
			case redemption.ObjectRedemption:
				out.Redemptions++
				if !ok {
					continue
				}
				out.RedemptionsSucceeded++
				var amount, discount, gift, points int64
				if r.Order != nil {
					amount, discount = r.Order.Amount, r.Order.TotalAppliedDiscountAmount
				}
				if r.Gift != nil {
					gift = r.Gift.Amount
				}
				if r.LoyaltyCard != nil {
					points = r.LoyaltyCard.Points
				}
				out.OrdersAmount, out.DiscountedAmount, out.GiftAmount, out.Points = out.OrdersAmount+amount, out.DiscountedAmount+discount, out.GiftAmount+gift, out.Points+points
				if r.Status == redemption.StatusRolledBack {
					out.OrdersRolledBack, out.DiscountedRolledBack = out.OrdersRolledBack+amount, out.DiscountedRolledBack+discount
					out.GiftRolledBack, out.PointsRolledBack = out.GiftRolledBack+gift, out.PointsRolledBack+points
				}
			case redemption.ObjectRollback:
				out.Rollbacks++
				if ok {
					out.RollbacksSucceeded++
				}
			}
		}
		for _, p := range d.pubData.pubs.rows[projectID] {
			if p.CampaignID == nil || *p.CampaignID != campaignID || !within(p.CreatedAt) {
				continue
			}
			out.Publications++
			if p.Result == "SUCCESS" {
				out.PublicationsSucceeded++
			}
		}
	})
	return out, nil
}
