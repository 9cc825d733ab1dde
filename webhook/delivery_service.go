package webhook

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// StartDispatcher starts delivering the outbox in the background: every
// event committed (on PostgreSQL, by any engine over the same database) is
// sent to the active configurations of its project that list it, signed
// with the project's webhook token, and retried on failure (DefaultSchedule;
// after the last try the configuration is deactivated). Several engines
// over one database may run dispatchers: each sendout is claimed by one of
// them at a time.
//
// The dispatcher uses the service's clock, outbox id generator, logger and
// target policy; opts override them and set the rest (schedule, poll
// interval, lease, concurrency, HTTP client). StopDispatcher stops it
// gracefully, letting tries in flight end; cancelling ctx stops it at once,
// as a crash would (their sendouts are tried again when their lease runs
// out). It returns an error if a dispatcher is running.
func (s *Service) StartDispatcher(ctx context.Context, opts ...Option) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dispatcher != nil {
		return errors.New("webhook: the dispatcher is already running")
	}
	// Sendout ids come from the outbox's generator, not the resources' one,
	// so that delivering does not shift the ids resources get.
	var ids promotype.IDGenerator = promotype.RandomIDs{}
	if s.env.OutboxIDs != nil {
		ids = s.env.OutboxIDs
	}
	all := append([]Option{
		WithClock(s.env.Clock), WithIDGenerator(ids), WithLogger(s.logger), WithTargetPolicy(s.policy),
		WithStep(s.env.Step),
	}, opts...)
	d := NewDispatcher(s.store, all...)
	if err := d.Start(ctx); err != nil {
		return err
	}
	s.dispatcher = d
	return nil
}

// DispatcherRunning reports whether StartDispatcher started a dispatcher
// that StopDispatcher has not stopped.
func (s *Service) DispatcherRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dispatcher != nil
}

// StopDispatcher stops the dispatcher, if running: it claims nothing more
// and returns once the tries in flight are recorded.
func (s *Service) StopDispatcher() {
	s.mu.Lock()
	d := s.dispatcher
	s.dispatcher = nil
	s.mu.Unlock()
	if d != nil {
		d.Stop()
	}
}

// Sendouts lists the sendouts of configuration webhookID of a project (the
// delivery log: one per event sent to it, with its tries), newest first by
// default. An unknown configuration is 404.
func (s *Service) Sendouts(ctx context.Context, projectID, webhookID string, p promotype.ListParams) (*promotype.List[*Sendout], error) {
	if _, err := s.store.GetWebhook(ctx, projectID, webhookID); err != nil {
		return nil, err
	}
	q, err := p.Query(SendoutListSpec, s.env.Clock.Now())
	if err != nil {
		return nil, err
	}
	items, total, err := s.store.ListSendouts(ctx, projectID, webhookID, q)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		it.Object = "webhook_sendout"
	}
	return promotype.NewList(items, total, q), nil
}
