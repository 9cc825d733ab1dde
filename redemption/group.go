package redemption

import (
	"context"
	"errors"
	"hash/maphash"
	"slices"

	"github.com/promoengine/promo/promotype"
)

// groupLanes is how many group transactions a service writes at once: one
// is sent while another waits on its round trips, which keeps the
// database busy without a crowd of transactions contending for it.
const groupLanes = 2

// errAgain is the outcome of a grouped redemption whose transaction failed
// because of another redemption of the batch: nothing of it was written,
// and it evaluates again (and may be grouped again).
var errAgain = errors.New("redemption: evaluate again (another redemption failed its batch)")

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
// voucher (each voucher's queue lets one through at a time). Two lanes can
// still lock two customers' counters in opposite orders (one customer
// redeeming in two campaigns at once, twice over): the database then
// breaks the deadlock, and the redemption it refused evaluates again.
//
// A group's redemptions are not in savepoints (a savepoint would send the
// held rows at each redemption, what grouping saves): when one fails, the
// transaction rolls back; that one keeps its error, those written before
// it evaluate again (errAgain: a write is applied once), and those after
// it wait for the lane's next transaction.
func (c *combiner) together(ctx context.Context, j *job, lane string) {
	l := &c.lanes[maphash.String(laneSeed, lane)%groupLanes]
	g := &job{w: j.w, done: make(chan struct{}), lead: make(chan struct{}, 1)}
	c.mu.Lock()
	l.pending = append(l.pending, g)
	busy := l.busy
	l.busy = true
	c.mu.Unlock()
	if busy {
		select {
		case <-g.done:
			j.res, j.err = g.res, g.err
			return
		case <-g.lead:
		}
	}
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
	j.res, j.err = g.res, g.err
}

// lane is the lone redemptions of a lane waiting for a group transaction.
type lane struct {
	pending []*job
	busy    bool // a group transaction of the lane is being written
}

// runGroup writes a batch of lone redemptions in one transaction and gives
// each of its jobs its outcome, but the jobs it returns: those after a
// redemption that failed the transaction, which had not been written yet
// and wait for the lane's next transaction as they are.
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
	// The batch outlives the leader's request if that one is cancelled:
	// the others wait for it. The store bounds the transaction's time.
	ctx = context.WithoutCancel(ctx)
	failed := -1
	err := batch[0].w.s.tx(ctx, func(ctx context.Context, st RedeemStore) error {
		for i, j := range batch {
			j.res, j.err = j.w.apply(ctx, st)
			if j.err != nil {
				failed = i
				return errBatchJob
			}
		}
		return nil
	})
	if failed >= 0 && errors.Is(err, errBatchJob) {
		requeued = batch[failed+1:]
		batch = batch[:failed+1]
	}
	for i, j := range batch {
		switch {
		case err == nil:
		case failed < 0 || !errors.Is(err, errBatchJob): // the transaction failed as a whole (its commit, say)
			j.res, j.err = nil, errAlone
		case i == failed:
			if !handled(j.err) {
				j.err = errAlone // its error is its answer once it runs alone
			}
			j.res = nil
		default: // written, then rolled back: its write is spent
			j.res, j.err = nil, errAgain
		}
	}
	finished = true
	return requeued
}

// handled reports whether err is an outcome of a write that the
// redemption loop handles as it does for a write alone: a limit reached,
// a stale order, a taken key, or a transaction to run again.
func handled(err error) bool {
	var le *LimitError
	return errors.As(err, &le) || errors.Is(err, errStale) || errors.Is(err, promotype.ErrDuplicateFound) ||
		errors.Is(err, promotype.ErrRetryable)
}
