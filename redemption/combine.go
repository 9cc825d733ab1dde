package redemption

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
)

// maxBatch bounds how many redemptions of one voucher a combined
// transaction holds (and so its savepoints, and the wait of the last one).
const maxBatch = 32

// errAlone is the outcome of a combined redemption whose batch could not
// give it its own answer (its transaction failed as a whole, or its part
// failed for a reason that is not a limit): it evaluates again and runs in
// a transaction of its own, whose error is its answer.
var errAlone = errors.New("redemption: run again in a transaction of its own")

// combiner is group commit for redemptions that spend one voucher: while
// one transaction writes some of them, the others of the same voucher
// queue; the first of the queue then leads, taking up to maxBatch queued
// redemptions into ONE transaction, each inside a savepoint. The voucher's
// row is then locked once per batch instead of once per redemption, and
// the batch commits once.
//
// Every redemption still spends through SpendVoucher's conditional update,
// so the limits are checked row by row as before: the redemption that
// would exceed the quantity gets its *LimitError (its savepoint undone) and
// evaluates again, as it would alone. A failure of one redemption undoes
// only its savepoint; the others commit. When the transaction fails as a
// whole, every redemption of the batch runs again alone. Engines do not
// combine with each other: two engines on one database each batch their
// own requests, and their batches serialize on the voucher's row lock.
//
// A redemption that finds nothing else waiting for its voucher writes, when
// group commit is on (SetGroupCommit), in a group transaction of its lane
// with other lone redemptions (group.go), else in a transaction of its own.
type combiner struct {
	off    bool // DisableCombining
	group  bool // SetGroupCommit
	mu     sync.Mutex
	queues map[string]*queue // by project and voucher id
	lanes  [groupLanes]lane  // lone redemptions waiting for a group transaction (group.go)
}

// queue is the redemptions of one voucher waiting for a transaction.
type queue struct {
	pending []*job
}

// job is one redemption's write waiting in a queue.
type job struct {
	w    *write
	res  *Redemptions
	err  error
	done chan struct{} // closed when res and err are set
	lead chan struct{} // signalled when this job leads the next batch
	key  string        // its voucher (a group transaction spends in this order)
}

// combineKey is the voucher a write spends when it spends exactly one
// voucher and nothing else, and its group lane (the voucher's campaign, or
// the voucher); "" when the write is not combined. A write that spends
// several distinct vouchers and nothing else (a stacked redemption of a
// quantity voucher and a gift card, say) has the key of its vouchers in id
// order and no lane: it is combined with the writes of the same vouchers
// only (runStacked), never grouped across vouchers.
func (w *write) combineKey() (key, lane string) {
	var ids []string
	for i := range w.out.Steps {
		step := &w.out.Steps[i]
		if step.Status != Applicable {
			continue
		}
		sh := &w.r.shows[step.Index]
		if sh.object == ObjectPromotionTier || sh.voucher == nil {
			return "", ""
		}
		ids = append(ids, sh.voucher.ID)
		lane = sh.voucher.ID
		if sh.voucher.CampaignID != nil {
			lane = *sh.voucher.CampaignID
		}
	}
	switch {
	case len(ids) == 0:
		return "", ""
	case len(ids) == 1:
		return w.projectID + "\x00" + ids[0], lane
	}
	slices.Sort(ids)
	if len(slices.Compact(ids)) < len(ids) {
		return "", "" // one voucher twice: not combined
	}
	return w.projectID + "\x00" + strings.Join(ids, "\x00"), ""
}

// limited reports whether a rule of w's redeemables limits a counter: its
// deltas may carry a Max, added by a conditional statement of their own
// that would lock counter rows after the group's vouchers, so w is not
// grouped.
func (w *write) limited() bool {
	for i := range w.out.Steps {
		step := &w.out.Steps[i]
		if step.Status != Applicable || step.Candidate == nil {
			continue
		}
		for _, p := range step.Candidate.Programs {
			if len(p.Limits) > 0 {
				return true
			}
		}
	}
	return false
}

// commit writes w: in a group transaction of its lane (group.go) when
// nothing else waits for its voucher, else in a batch with the others.
func (c *combiner) commit(ctx context.Context, key, lane string, w *write) (*Redemptions, error) {
	j := &job{w: w, done: make(chan struct{}), lead: make(chan struct{}, 1)}
	c.mu.Lock()
	q, busy := c.queues[key]
	if !busy {
		q = &queue{}
		c.queues[key] = q
	}
	q.pending = append(q.pending, j)
	c.mu.Unlock()
	if busy {
		select {
		case <-j.done:
			return j.res, j.err
		case <-j.lead:
		}
	}
	// This job is the first of the queue: take a batch (it included), write
	// it, and hand the lead to the next waiting job, if any.
	c.mu.Lock()
	n := min(len(q.pending), maxBatch)
	batch := q.pending[:n:n]
	q.pending = q.pending[n:]
	c.mu.Unlock()
	defer func() { // also when the batch panics: the queue must go on
		c.mu.Lock()
		if len(q.pending) > 0 {
			q.pending[0].lead <- struct{}{}
		} else {
			delete(c.queues, key)
		}
		c.mu.Unlock()
	}()
	c.run(ctx, batch, key, lane)
	return j.res, j.err
}

// run writes a batch and gives each of its jobs its outcome.
func (c *combiner) run(ctx context.Context, batch []*job, key, lane string) {
	finished := false
	defer func() {
		for _, j := range batch {
			if !finished { // a panic: the others run again alone
				j.res, j.err = nil, errAlone
			}
			close(j.done)
		}
	}()
	if len(batch) == 1 { // nothing else waits for its voucher: group it
		if j := batch[0]; c.group && lane != "" && !j.w.limited() {
			c.together(ctx, j, key, lane)
		} else {
			j.res, j.err = j.w.commit(ctx)
		}
		finished = true
		return
	}
	if lane == "" && !slices.ContainsFunc(batch, func(j *job) bool { return j.w.limited() }) {
		c.runStacked(ctx, batch, key)
		finished = true
		return
	}
	// The batch outlives the leader's request if that one is cancelled:
	// the others wait for it. The store bounds the transaction's time.
	ctx = context.WithoutCancel(ctx)
	s := batch[0].w.s
	err := s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		for _, j := range batch {
			j.res, j.err = nil, nil
			j.err = st.Savepoint(ctx, func(ctx context.Context) error {
				var err error
				j.res, err = j.w.apply(ctx, st)
				return err
			})
		}
		return nil
	})
	for _, j := range batch {
		switch {
		case err != nil:
			j.res, j.err = nil, errAlone // nothing of the batch was written
		case j.err == nil:
		case handled(j.err):
			j.res = nil // outcomes the redemption loop handles as it does alone
		default:
			j.res, j.err = nil, errAlone
		}
	}
	finished = true
}

// runStacked writes a batch of writes that spend the same several vouchers
// (a combineKey without a lane) the way a group transaction writes
// (runGroup): every redemption prepared first, their counters in one
// statement, then each spends its vouchers in id order, so the vouchers'
// rows are locked only for the spends and what follows them, not while
// the others record their customers and orders (as savepoints would). When
// one redemption fails the transaction, it keeps its error and the others
// are written again in a transaction of their own batch; each job of batch
// gets its outcome, and run closes their done.
func (c *combiner) runStacked(ctx context.Context, batch []*job, key string) {
	pending := batch
	for len(pending) > 0 {
		round := make([]*job, len(pending))
		by := make(map[*job]*job, len(pending))
		for i, j := range pending {
			round[i] = &job{w: j.w, key: key, done: make(chan struct{}), lead: make(chan struct{}, 1)}
			by[round[i]] = j
		}
		requeued := c.runGroup(ctx, round)
		next := make([]*job, 0, len(requeued))
		for _, g := range round {
			j := by[g]
			if slices.Contains(requeued, g) {
				next = append(next, j)
				continue
			}
			j.res, j.err = g.res, g.err
		}
		pending = next
	}
}

// DisableCombining makes every redemption write in a transaction of its
// own (no group commit). Call it before the service is used.
func (s *RedemptionService) DisableCombining() { s.combine.off = true }

// SetGroupCommit turns group commit across vouchers (group.go) on or off
// (off at first). Call it before the service is used.
func (s *RedemptionService) SetGroupCommit(on bool) { s.combine.group = on }
