package campaign

import "context"

// TierSummaryFunc computes the summaries of tiers (by id) of a project.
type TierSummaryFunc func(ctx context.Context, projectID string, tierIDs []string) (map[string]TierSummary, error)

// SetSummary sets how the tier answers (get, list, update, enable,
// disable) compute a tier's summary; the engine wires it to the
// redemption ledger's counters. Without it the summary counts none.
func (s *TierService) SetSummary(f TierSummaryFunc) { s.summary = f }

// withSummary fills the summaries of ts.
func (s *TierService) withSummary(ctx context.Context, projectID string, ts ...*PromotionTier) error {
	if s.summary == nil || len(ts) == 0 {
		return nil
	}
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	got, err := s.summary(ctx, projectID, ids)
	if err != nil {
		return err
	}
	for _, t := range ts {
		t.Summary = got[t.ID]
	}
	return nil
}

// summarized is presentTier with the summary.
func (s *TierService) summarized(ctx context.Context, st Store, t *PromotionTier) (*PromotionTier, error) {
	t, err := presentTier(ctx, st, t)
	if err != nil {
		return nil, err
	}
	return t, s.withSummary(ctx, t.ProjectID, t)
}
