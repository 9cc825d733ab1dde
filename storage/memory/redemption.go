package memory

import (
	"context"

	"github.com/promoengine/promo/redemption"
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
