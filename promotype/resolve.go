package promotype

import (
	"context"
	"errors"
)

// Getter reads one row of a project by a key (an id or a source id).
type Getter[T any] func(ctx context.Context, projectID, key string) (T, error)

// Resolve finds a row by id, then by source id; a miss of both is a 404 naming ref.
func Resolve[T any](ctx context.Context, kind, ref, projectID string, byID, bySource Getter[T]) (T, error) {
	v, err := byID(ctx, projectID, ref)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return v, err
	}
	v, err = bySource(ctx, projectID, ref)
	if errors.Is(err, ErrNotFound) {
		return v, NotFound(kind, ref)
	}
	return v, err
}

// UpsertTarget returns the row an upsert body names: by id (which must exist)
// or else by source id (nil when none holds it yet).
func UpsertTarget[T any](ctx context.Context, kind string, id, sourceID *string, byID, bySource Getter[*T], projectID string) (*T, error) {
	if id != nil && *id != "" {
		v, err := byID(ctx, projectID, *id)
		if errors.Is(err, ErrNotFound) {
			return nil, NotFound(kind, *id)
		}
		return v, err
	}
	if sourceID == nil {
		return nil, nil
	}
	v, err := bySource(ctx, projectID, *sourceID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return v, err
}

// upsertAttempts bounds RetryUpsert.
const upsertAttempts = 3

// RetryUpsert runs upsert (a whole transaction: find the row a key names,
// then update it or insert one) again while it fails with duplicate_found.
// Two writers that both found no row for a new source_id both insert; the
// store refuses the loser's insert, and its retry finds the winner's row
// and updates it, as it would have had it come second. A conflict that is
// no race (an update to a source_id another row holds) fails the same way
// every time and is returned after the last attempt.
func RetryUpsert(ctx context.Context, upsert func() error) error {
	for attempt := 1; ; attempt++ {
		err := upsert()
		if attempt == upsertAttempts || !errors.Is(err, ErrDuplicateFound) || ctx.Err() != nil {
			return err
		}
	}
}
