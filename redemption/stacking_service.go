package redemption

import (
	"context"
	"errors"

	"github.com/promoengine/promo/promotype"
)

// StackingRulesService manages a project's stacking rules
// (/management/v1/projects/{projectId}/stacking-rules): one object per
// project; a project that stored none has the defaults, which have no id.
type StackingRulesService struct {
	store Store
	tx    promotype.TxFunc[Store]
	env   promotype.Env
	cache *rulesCache // what validations read (stacking_cache.go), told of every write
}

// NewStackingRulesService returns the service over store; tx runs a
// function in one transaction of it.
func NewStackingRulesService(store Store, tx promotype.TxFunc[Store], env promotype.Env) *StackingRulesService {
	return &StackingRulesService{store: store, tx: tx, env: env, cache: newRulesCache()}
}

// errRulesExist is the 409 of a second create.
func errRulesExist() error {
	return promotype.Conflict("stacking_rules_exist", "Stacking rules exist", "Cannot exist more stacking rules for given project")
}

func errRulesNotFound(id string) error { return promotype.NotFound("stacking_rules", id) }

// Effective returns the project's rules: the stored ones, else the defaults.
func (s *StackingRulesService) Effective(ctx context.Context, projectID string) (*StackingRules, error) {
	return effective(ctx, s.store, projectID)
}

func effective(ctx context.Context, st Store, projectID string) (*StackingRules, error) {
	r, err := st.GetStackingRules(ctx, projectID)
	if errors.Is(err, promotype.ErrNotFound) {
		return DefaultStackingRules(), nil
	}
	return r, err
}

// List returns a list of one item: the stored rules, or the defaults.
func (s *StackingRulesService) List(ctx context.Context, projectID string) (*promotype.List[*StackingRules], error) {
	r, err := s.Effective(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return promotype.NewList([]*StackingRules{r}, 1, promotype.Query{}), nil
}

// Create stores the project's rules: the defaults with the fields in sets.
// A project that has stored rules answers 409 stacking_rules_exist.
func (s *StackingRulesService) Create(ctx context.Context, projectID string, in StackingRulesParams) (*StackingRules, error) {
	r := DefaultStackingRules()
	if err := in.apply(r); err != nil {
		return nil, err
	}
	now := s.env.Clock.Now()
	r.ID, r.ProjectID, r.CreatedAt = s.env.IDs.NewID(PrefixStackingRules), projectID, &now
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		switch _, err := st.GetStackingRules(ctx, projectID); {
		case err == nil:
			return errRulesExist()
		case !errors.Is(err, promotype.ErrNotFound):
			return err
		}
		if err := st.InsertStackingRules(ctx, r); err != nil {
			if errors.Is(err, promotype.ErrDuplicateFound) {
				return errRulesExist()
			}
			return err
		}
		return nil
	})
	s.cache.changed(projectID)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Get returns the stored rules with id.
func (s *StackingRulesService) Get(ctx context.Context, projectID, id string) (*StackingRules, error) {
	return stored(ctx, s.store, projectID, id)
}

func stored(ctx context.Context, st Store, projectID, id string) (*StackingRules, error) {
	r, err := st.GetStackingRules(ctx, projectID)
	if errors.Is(err, promotype.ErrNotFound) || (err == nil && r.ID != id) {
		return nil, errRulesNotFound(id)
	}
	return r, err
}

// Update changes the fields in sends of the stored rules with id.
func (s *StackingRulesService) Update(ctx context.Context, projectID, id string, in StackingRulesParams) (*StackingRules, error) {
	var out *StackingRules
	err := s.tx(ctx, func(ctx context.Context, st Store) error {
		r, err := stored(ctx, st, projectID, id)
		if err != nil {
			return err
		}
		if err := in.apply(r); err != nil {
			return err
		}
		now := s.env.Clock.Now()
		r.UpdatedAt = &now
		if err := st.UpdateStackingRules(ctx, r); err != nil {
			return err
		}
		out = r
		return nil
	})
	s.cache.changed(projectID)
	return out, err
}

// Delete removes the stored rules with id: the project is back to the
// defaults.
func (s *StackingRulesService) Delete(ctx context.Context, projectID, id string) error {
	defer s.cache.changed(projectID)
	return s.tx(ctx, func(ctx context.Context, st Store) error {
		if _, err := stored(ctx, st, projectID, id); err != nil {
			return err
		}
		return st.DeleteStackingRules(ctx, projectID)
	})
}
