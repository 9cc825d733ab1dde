package redemption

import (
	"context"
	"errors"
	"hash/maphash"
	"maps"
	"slices"
	"strings"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/voucher"
)

// groupLanes is how many group transactions a service writes at once: one
// is sent while another waits on its round trips, which keeps the
// database busy without a crowd of transactions contending for it.
const groupLanes = 2

// errBatchJob ends a group's transaction when one of its redemptions
// failed: the transaction rolls back, and the failed redemption keeps its
// own error (job.err).
var errBatchJob = errors.New("redemption: a redemption of the batch failed")

// laneSeed hashes lane keys.
var laneSeed = maphash.MakeSeed()

// together writes j, a redemption that has its voucher to itself (its
// voucher's queue holds no other), in a transaction shared with the other
// lone redemptions waiting in its lane: group commit across vouchers. While
// a lane's transaction is written, the redemptions that arrive in the lane
// wait; the first of them then leads the next transaction, taking up to
// maxBatch of them. A database so begins, sends the held rows of and
// commits one transaction per batch instead of one per redemption.
//
// A redemption's lane follows its voucher's campaign (a standalone
// voucher's own id), so the redemptions of one campaign, which move its
// counters, are grouped in one lane and its counter rows are not locked by
// two group transactions at once. No two redemptions of a batch spend one
// voucher (each voucher's queue lets one through at a time).
//
// A group's redemptions are not in savepoints (a savepoint would send the
// held rows at each redemption, what grouping saves): when one fails, the
// transaction rolls back; that one keeps its error, and the others wait for
// the lane's next transaction (runGroup).
func (c *combiner) together(ctx context.Context, j *job, key, lane string) {
	l := &c.lanes[maphash.String(laneSeed, lane)%groupLanes]
	g := &job{w: j.w, key: key, done: make(chan struct{}), lead: make(chan struct{}, 1)}
	c.mu.Lock()
	l.pending = append(l.pending, g)
	busy := l.busy
	l.busy = true
	c.mu.Unlock()
	for {
		if busy {
			select {
			case <-g.done:
				j.res, j.err = g.res, g.err
				return
			case <-g.lead:
			}
		}
		c.lead(ctx, l)
		select {
		case <-g.done:
			j.res, j.err = g.res, g.err
			return
		default: // its batch failed and requeued it: wait again
			busy = true
		}
	}
}

// lead writes the next batch of lane l and hands the lead on.
func (c *combiner) lead(ctx context.Context, l *lane) {
	c.mu.Lock()
	n := min(len(l.pending), maxBatch)
	batch := l.pending[:n:n]
	l.pending = l.pending[n:]
	c.mu.Unlock()
	var requeued []*job
	defer func() { // also when the batch panics: the lane must go on
		c.mu.Lock()
		if len(requeued) > 0 { // first in line again: they waited longest
			l.pending = slices.Concat(requeued, l.pending)
		}
		if len(l.pending) > 0 {
			l.pending[0].lead <- struct{}{}
		} else {
			l.busy = false
		}
		c.mu.Unlock()
	}()
	requeued = c.runGroup(ctx, batch)
}

// lane is the lone redemptions of a lane waiting for a group transaction.
type lane struct {
	pending []*job
	busy    bool // a group transaction of the lane is being written
}

// runGroup writes a batch of lone redemptions in one transaction and gives
// each of its jobs its outcome, but the jobs it returns: when one
// redemption fails the transaction, the others wait for the lane's next
// transaction and are written again from the start (write.apply may run
// again).
//
// The transaction takes its locks in one order whatever the batch: the
// redemptions are prepared (customer, order, ledger rows: nothing spent),
// then the counters of all of them move in key order in one statement
// (countTogether), then each spends, in voucher order. Two group
// transactions (two lanes, two engines) so never wait for each other in a
// cycle, and a counter row many redemptions move is written once.
func (c *combiner) runGroup(ctx context.Context, batch []*job) (requeued []*job) {
	finished := false
	defer func() {
		for _, j := range batch { // cut to the jobs it answers
			if !finished { // a panic: the others run again alone
				j.res, j.err = nil, errAlone
			}
			close(j.done)
		}
	}()
	if len(batch) == 1 {
		j := batch[0]
		j.res, j.err = j.w.commit(ctx)
		finished = true
		return nil
	}
	slices.SortFunc(batch, func(a, b *job) int { return strings.Compare(a.key, b.key) })
	// The batch outlives the leader's request if that one is cancelled:
	// the others wait for it. The store bounds the transaction's time.
	ctx = context.WithoutCancel(ctx)
	failed := -1
	err := batch[0].w.s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		for i, j := range batch {
			if j.err = j.w.prepare(ctx, st); j.err != nil {
				failed = i
				return errBatchJob
			}
		}
		if err := countTogether(ctx, st, batch); err != nil {
			return err
		}
		if i, err := spendTogether(ctx, st, batch); err != nil {
			if i < 0 {
				return err
			}
			batch[i].err, failed = err, i
			return errBatchJob
		}
		held := &heldTransactions{}
		hctx := context.WithValue(ctx, heldKey{}, held)
		for i, j := range batch {
			if j.res, j.err = j.w.finish(hctx, st); j.err != nil {
				failed = i
				return errBatchJob
			}
		}
		if len(held.ts) == 0 {
			return nil
		}
		return st.InsertTransactions(ctx, held.ts...)
	})
	if failed >= 0 && errors.Is(err, errBatchJob) {
		f := batch[failed]
		requeued = slices.Delete(slices.Clone(batch), failed, failed+1)
		batch = []*job{f}
		if !handled(f.err) {
			f.err = errAlone // its error is its answer once it runs alone
		}
		f.res = nil
	} else if err != nil { // the transaction failed as a whole (its commit, say)
		for _, j := range batch {
			j.res, j.err = nil, errAlone
		}
	}
	finished = true
	return requeued
}

// countTogether adds the counters of the prepared redemptions of batch in
// one statement per project, in key order, each key once with the sum of
// its deltas, and stages for each redemption the values its reads would
// have seen after its own deltas (those of the redemptions after it in
// batch subtracted). A redemption with a limited delta (which a rule's
// limit makes; such a redemption is not grouped: write.limited) would
// count alone, in finish.
func countTogether(ctx context.Context, st RedeemStore, batch []*job) error {
	type project struct {
		sum  map[string]int64
		read []string
	}
	byProject := map[string]*project{}
	counting := make([]*write, 0, len(batch))
	for _, j := range batch {
		if Capped(j.w.stage.all) {
			continue
		}
		counting = append(counting, j.w)
		p := byProject[j.w.projectID]
		if p == nil {
			p = &project{sum: map[string]int64{}}
			byProject[j.w.projectID] = p
		}
		for _, d := range j.w.stage.all {
			p.sum[d.Key] += d.Delta
		}
		p.read = append(p.read, j.w.stage.read...)
	}
	after := map[string]map[string]int64{}
	for _, id := range slices.Sorted(maps.Keys(byProject)) {
		p := byProject[id]
		ds := make([]CounterDelta, 0, len(p.sum))
		for _, k := range slices.Sorted(maps.Keys(p.sum)) {
			ds = append(ds, CounterDelta{Key: k, Delta: p.sum[k]})
		}
		now, err := st.AddCountersRead(ctx, id, slices.Compact(slices.Sorted(slices.Values(p.read))), ds...)
		if err != nil {
			return err
		}
		after[id] = now
	}
	for _, w := range slices.Backward(counting) { // last first: after[...] becomes what each saw
		sg, now := w.stage, after[w.projectID]
		sg.counted = make(map[string]int64, len(sg.read))
		for _, k := range sg.read {
			sg.counted[k] = now[k]
		}
		for _, d := range sg.all {
			if _, ok := now[d.Key]; ok {
				now[d.Key] -= d.Delta
			}
		}
	}
	return nil
}

// spendTogether spends the vouchers of the batch's redemptions in one
// store call per project (SpendVouchers: on a database, one statement),
// in the batch's order (by voucher), and stages for each the voucher its
// spend left, which finish presents instead of spending again. A refused
// spend is its redemption's error, and i its index in batch (-1 for an
// error of the call itself). When a redemption spends through a session
// (its reservations) it spends nothing: each redemption spends in
// finish, one at a time, as before.
func spendTogether(ctx context.Context, st RedeemStore, batch []*job) (i int, err error) {
	if done, err := spendStacked(ctx, st, batch); done || err != nil {
		return -1, err
	}
	all := make([]VoucherSpend, len(batch))
	for k, j := range batch {
		sp, ok := j.w.soleSpend()
		if !ok || j.w.stage.counted == nil {
			return -1, nil
		}
		all[k] = sp
	}
	for start := 0; start < len(batch); {
		projectID := batch[start].w.projectID
		end := start + 1
		for end < len(batch) && batch[end].w.projectID == projectID {
			end++
		}
		ss := all[start:end]
		spent, err := st.SpendVouchers(ctx, projectID, ss)
		for k, v := range spent {
			batch[start+k].w.stage.spent = v
		}
		if err != nil {
			if len(spent) < len(ss) {
				return start + len(spent), err
			}
			return -1, err
		}
		start = end
	}
	return -1, nil
}

// handled reports whether err is an outcome of a write that the
// redemption loop handles as it does for a write alone: a limit reached,
// a stale order, a taken key, or a transaction to run again.
func handled(err error) bool {
	var le *LimitError
	return errors.As(err, &le) || errors.Is(err, errStale) || errors.Is(err, promotype.ErrDuplicateFound) ||
		promotype.Retryable(err)
}

// spendStacked spends, when every redemption of batch spends the same
// several vouchers outside a session (a batch of runStacked), the sum of
// their spends of each voucher in one store call (SpendVouchers, in id
// order), and stages for each redemption the vouchers as its own spend
// left them (the final ones less the spends of the redemptions after it),
// so that the vouchers' rows are locked by one statement, not one per
// redemption. It reports false, having spent nothing, when the batch is
// not such a batch: then each spends in finish, as before. When the sum
// breaks a limit (or meets a reservation) that the redemptions spending
// one by one may not all break, its error is errAlone: the batch's
// transaction fails, and each of its redemptions runs again alone (a
// savepoint around the call would cost every batch its round trips).
func spendStacked(ctx context.Context, st RedeemStore, batch []*job) (bool, error) {
	if len(batch) < 2 {
		return false, nil
	}
	var ids []string
	sums := map[string]*Spend{}
	for k, j := range batch {
		w := j.w
		if j.key == "" || j.key != batch[0].key || len(w.spends) < 2 || requestKey(w.in.Session) != "" || w.stage.counted == nil {
			return false, nil
		}
		for _, p := range w.spends {
			id := p.row.Ledger.VoucherID
			if p.show.voucher == nil || p.show.voucher.ReservedUntil != nil {
				return false, nil
			}
			sum := sums[id]
			if sum == nil {
				if k > 0 {
					return false, nil // not the vouchers of the first
				}
				sum = &Spend{}
				sums[id] = sum
				ids = append(ids, id)
			}
			sp := p.row.Ledger.Spend
			sum.Quantity, sum.Credits, sum.Points = sum.Quantity+sp.Quantity, sum.Credits+sp.Credits, sum.Points+sp.Points
		}
	}
	slices.Sort(ids)
	ss := make([]VoucherSpend, len(ids))
	for i, id := range ids {
		ss[i] = VoucherSpend{VoucherID: id, Spend: *sums[id]}
	}
	spent, err := st.SpendVouchers(ctx, batch[0].w.projectID, ss)
	var le *LimitError
	switch {
	case errors.As(err, &le), errors.Is(err, ErrReserved):
		// The call may have spent some of the sums: the transaction is
		// undone, and each redemption runs again alone, whose spend
		// alone says whether it fits.
		return true, errAlone
	case err != nil:
		return true, err
	}
	now := make(map[string]*voucher.Voucher, len(ids))
	for i, id := range ids {
		now[id] = spent[i]
	}
	for _, j := range slices.Backward(batch) { // last first: now becomes what each left
		w := j.w
		w.stage.spentEach = make([]*voucher.Voucher, len(w.spends))
		for i, p := range w.spends {
			id := p.row.Ledger.VoucherID
			v := now[id]
			w.stage.spentEach[i] = v.Clone()
			sp := p.row.Ledger.Spend
			v.RedeemedQuantity -= sp.Quantity
			if v.Gift != nil {
				v.Gift.Balance += sp.Credits
			}
			if v.LoyaltyCard != nil {
				v.LoyaltyCard.Balance += sp.Points
			}
		}
	}
	return true, nil
}

// heldTransactions are the card transactions a group transaction's
// redemptions record while they finish (insertMovement, for the cards their
// rewards and effects move): held through the context and inserted after
// the last, in one statement and in the order they were recorded, instead
// of one statement each while the batch holds its vouchers' rows. The
// context, not a wrapper of the store, carries them: the hooks the
// redemptions run (rewards, points effects, conversions) need the
// transaction's own store, with every port it has.
type heldTransactions struct{ ts []*Transaction }

type heldKey struct{}
