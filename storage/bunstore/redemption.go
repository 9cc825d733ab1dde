package bunstore

import (
	"context"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

var stackingRulesKey = "stacking_rules"

var stackingRules = docTable[redemption.StackingRules]{
	table: "promo_stacking_rules", resource: "stacking_rules",
	keys: func(r *redemption.StackingRules) docRow {
		row := docRow{ProjectID: r.ProjectID, ID: r.ID, Key: &stackingRulesKey, UpdatedAt: sqlTimePtr(r.UpdatedAt)}
		if r.CreatedAt != nil {
			row.CreatedAt = sqlTime(*r.CreatedAt)
		}
		return row
	},
	fill: func(r *redemption.StackingRules, row *docRow) {
		created := domainTime(row.CreatedAt)
		r.ProjectID, r.CreatedAt, r.UpdatedAt = row.ProjectID, &created, domainTimePtr(row.UpdatedAt)
	},
	notFound: notFoundOf("stacking_rules"),
	dup: func(r *redemption.StackingRules) error {
		return promotype.Duplicate("stacking_rules", "Stacking rules exist for project %s", r.ProjectID)
	},
}

// InsertStackingRules implements redemption.Store.
func (s *Store) InsertStackingRules(ctx context.Context, r *redemption.StackingRules) error {
	return stackingRules.insert(ctx, s.db, r)
}

// UpdateStackingRules implements redemption.Store.
func (s *Store) UpdateStackingRules(ctx context.Context, r *redemption.StackingRules) error {
	return stackingRules.update(ctx, s.db, r)
}

// GetStackingRules implements redemption.Store.
func (s *Store) GetStackingRules(ctx context.Context, projectID string) (*redemption.StackingRules, error) {
	return stackingRules.get(ctx, s.db, projectID, "key", stackingRulesKey)
}

// DeleteStackingRules implements redemption.Store.
func (s *Store) DeleteStackingRules(ctx context.Context, projectID string) error {
	r, err := s.GetStackingRules(ctx, projectID)
	if err != nil {
		return err
	}
	return stackingRules.delete(ctx, s.db, projectID, r.ID)
}
