package loyalty

import (
	"context"
	"log/slog"
	"time"

	"github.com/promoengine/promo/internal/startstop"
	"github.com/promoengine/promo/promotype"
)

// scheduleInterval is how often the scheduler looks for due work.
const scheduleInterval = 30 * time.Second

// dueBatch is how many due entries one round activates per project;
// expireRound how many due buckets it expires.
const (
	dueBatch    = 500
	expireRound = 20 * expiryBatch
)

// Scheduler activates pending points and expires points buckets when
// their date comes, in the background: every scheduleInterval it finds
// the projects with due work and does it (RunDue: ActivateDue, then
// ExpireDue). Any number of engines over one store may run it: each entry
// is activated once and each bucket expired once. It keeps no state, so a
// restart (or a kill -9) loses nothing: the next round finds what is due.
type Scheduler struct {
	s      *Service
	logger *slog.Logger
	base   startstop.Base
}

// Scheduler returns the service's background scheduler (Start, Stop).
func (s *Service) Scheduler() *Scheduler { return s.scheduler }

// Start starts the scheduler unless it runs; cancelling ctx stops it.
func (sc *Scheduler) Start(ctx context.Context) {
	sc.base.Start(ctx, func(ctx context.Context, stop <-chan struct{}) {
		startstop.Loop(ctx, stop, scheduleInterval, func(ctx context.Context, _ int) bool {
			more, err := sc.s.RunDue(ctx)
			if err != nil && ctx.Err() == nil {
				sc.logger.LogAttrs(ctx, slog.LevelWarn, "promo: activating due pending points", slog.Any("error", err))
			}
			return more && err == nil
		})
	})
}

// Stop stops the scheduler and waits for its round to end.
func (sc *Scheduler) Stop() { sc.base.Stop() }

// Running reports whether the scheduler runs.
func (sc *Scheduler) Running() bool { return sc.base.Running() }

// RunDue does the loyalty work whose date has come, in the order of the
// hosted daily job: it activates the due pending points of every project
// that has some (up to dueBatch per project), expires the due points
// buckets (up to expireRound per project), computes again the tiers
// whose hold ended (up to dueBatch per project), then earns on the tier
// changes rules earn on (EarnTierChanges), and reports whether some
// project may have more.
func (s *Service) RunDue(ctx context.Context) (more bool, err error) {
	activated, err := s.eachDue(ctx, s.store.ProjectsWithDuePending, s.ActivateDue, dueBatch)
	if err != nil {
		return false, err
	}
	expired, err := s.eachDue(ctx, s.store.ProjectsWithDueBuckets, s.ExpireDue, expireRound)
	if err != nil {
		return false, err
	}
	ended, err := s.eachDue(ctx, s.store.ProjectsWithDueTierHolds, s.RetierDue, dueBatch)
	if err != nil {
		return false, err
	}
	earned, err := s.eachDue(ctx, func(ctx context.Context, _ promotype.Time, limit int) ([]string, error) {
		return s.store.ProjectsWithTierChanges(ctx, limit)
	}, s.EarnTierChanges, tierChangePage)
	return activated || expired || ended || earned, err
}

// RetierDue computes again, up to limit, the tiers of the project's cards
// whose tier hold ended (TiersExpiration): each is prolonged, moved to
// the tier their points qualify for now, or left. It reports how many it
// computed.
func (s *Service) RetierDue(ctx context.Context, projectID string, limit int) (int, error) {
	due, err := s.store.DueTierHolds(ctx, projectID, s.env.Clock.Now(), limit)
	if err != nil || len(due) == 0 {
		return 0, err
	}
	ids := make([]string, len(due))
	for i, h := range due {
		ids[i] = h.VoucherID
	}
	return s.retierCards(ctx, projectID, ids, false)
}

// retierCards computes again, in one transaction, the tiers of the cards
// ids of the project that no other transaction holds (a card another one
// holds is changing, and that change computes its tier), and reports how
// many it computed; refresh as retier says.
func (s *Service) retierCards(ctx context.Context, projectID string, ids []string, refresh bool) (int, error) {
	var n int
	err := s.tx(ctx, func(ctx context.Context, st ServiceStore) error {
		cards, err := st.LockCards(ctx, projectID, ids)
		if err != nil {
			return err
		}
		n = len(cards)
		for _, c := range cards {
			if err := s.retier(ctx, st, c, refresh); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// dueProjects is how many projects one round of a kind of due work takes.
const dueProjects = 100

// eachDue runs work, up to limit items each, in the projects that
// projects finds with work due now, and reports whether some may have
// more.
func (s *Service) eachDue(ctx context.Context, projects func(context.Context, promotype.Time, int) ([]string, error),
	work func(context.Context, string, int) (int, error), limit int) (bool, error) {
	ids, err := projects(ctx, s.env.Clock.Now(), dueProjects)
	if err != nil {
		return false, err
	}
	more := len(ids) == dueProjects
	for _, p := range ids {
		n, err := work(ctx, p, limit)
		if err != nil {
			return false, err
		}
		more = more || n == limit
	}
	return more, nil
}
