package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/promoengine/promo/promotype"
)

// PostgreSQL error codes the store maps to promotype errors.
const (
	uniqueViolation          = "23505"
	untranslatableCharacter  = "22P05" // e.g. \u0000 in a jsonb string
	characterNotInRepertoire = "22021" // invalid UTF-8
)

// fail wraps a foreign error with what the store was doing. A unique
// violation (a race that the guarded writes could not see coming) becomes
// dup, text PostgreSQL cannot hold becomes a 400, and a deadlock or
// serialization failure is marked promotype.ErrRetryable; any other error
// is left for the caller (promotype.Unavailable tells a database that
// cannot serve now from a bug).
func fail(op string, err error, dup func() error) error {
	if dup != nil && isUniqueViolation(err) {
		return dup()
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case untranslatableCharacter, characterNotInRepertoire:
			return promotype.InvalidPayload("The payload holds text that cannot be stored: %s", pgErr.Message)
		}
	}
	if promotype.Retryable(err) {
		return fmt.Errorf("bunstore: %s: %w: %w", op, promotype.ErrRetryable, err)
	}
	return fmt.Errorf("bunstore: %s: %w", op, err)
}

// txErr classifies the error of a transaction: besides what
// promotype.Retryable sees (a deadlock, a serialization failure), a
// connection the database lost, refused or shut down (promotype.Unavailable)
// before the commit was sent undid the transaction whole, so it is marked
// promotype.ErrRetryable too. After the commit was sent (committing) its
// outcome is unknown: the error stays unavailable, never retryable, and a
// caller's context that ended is no reason to run anything again.
func txErr(ctx context.Context, err error, committing bool) error {
	if err == nil || errors.Is(err, promotype.ErrRetryable) || ctx.Err() != nil {
		return err
	}
	if promotype.Retryable(err) || (!committing && promotype.Unavailable(err) && !errors.Is(err, context.DeadlineExceeded)) {
		return fmt.Errorf("%w: %w", promotype.ErrRetryable, err)
	}
	return err
}

// isUniqueViolation reports whether err is a unique violation: 23505, or
// the internal error (XX000) with PostgreSQL's message that a Citus
// coordinator relays when a worker refuses a row of a COPY.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return pgErr.Code == uniqueViolation ||
		pgErr.Code == "XX000" && strings.HasPrefix(pgErr.Message, "duplicate key value violates unique constraint")
}

// getErr maps the error of a single-row read: no row is notFound.
func getErr(op string, err error, notFound func() error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return notFound()
	}
	return fail(op, err, nil)
}

// storable reports whether PostgreSQL can hold s in a text column: valid
// UTF-8 without NUL. Bun would silently turn invalid UTF-8 into U+FFFD, so
// the store checks first.
func storable(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// storableKeys reports whether every key of a lookup is storable; a key that
// is not can match no row, so the lookup is a miss without a query.
func storableKeys(keys ...string) bool {
	for _, k := range keys {
		if !storable(k) {
			return false
		}
	}
	return true
}

// text is one string field of a row about to be written.
type text struct {
	name  string
	value *string
}

func str(name string, v string) text { return text{name, &v} }

// checkText returns a 400 naming the first field whose text cannot be stored.
func checkText(resource string, fields ...text) error {
	for _, f := range fields {
		if f.value != nil && !storable(*f.value) {
			return promotype.InvalidPayload("Property .%s of the %s must be UTF-8 text without NUL characters", f.name, resource)
		}
	}
	return nil
}
