package promotype_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/promoengine/promo/promotype"
)

// sqlError is a driver error with an SQLSTATE, as pgconn.PgError is.
type sqlError struct{ code string }

func (e *sqlError) Error() string    { return "ERROR (SQLSTATE " + e.code + ")" }
func (e *sqlError) SQLState() string { return e.code }

// TestClassify: each SQLSTATE class and connection failure a store meets
// is classified once, as retryable (the write runs again), unavailable
// (503), or neither (a bug: 500).
func TestClassify(t *testing.T) {
	t.Parallel()
	wrapped := func(err error) error { return fmt.Errorf("bunstore: update voucher: %w", err) }
	tests := []struct {
		name                   string
		err                    error
		retryable, unavailable bool
	}{
		{"nil", nil, false, false},
		{"serialization failure 40001", &sqlError{"40001"}, true, false},
		{"deadlock 40P01", wrapped(&sqlError{"40P01"}), true, false},
		{"marked retryable", fmt.Errorf("x: %w", promotype.ErrRetryable), true, false},
		{"admin shutdown 57P01", wrapped(&sqlError{"57P01"}), false, true},
		{"crash shutdown 57P02", &sqlError{"57P02"}, false, true},
		{"cannot connect now 57P03", wrapped(&sqlError{"57P03"}), false, true},
		{"too many connections 53300", &sqlError{"53300"}, false, true},
		{"connection exception 08000", &sqlError{"08000"}, false, true},
		{"connection does not exist 08003", &sqlError{"08003"}, false, true},
		{"connection failure 08006", wrapped(&sqlError{"08006"}), false, true},
		{"unable to connect 08001", &sqlError{"08001"}, false, true},
		{"connection refused", wrapped(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}), false, true},
		{"connection reset", wrapped(syscall.ECONNRESET), false, true},
		{"unexpected EOF", wrapped(io.ErrUnexpectedEOF), false, true},
		{"store deadline", wrapped(context.DeadlineExceeded), false, true},
		{"unique violation 23505", &sqlError{"23505"}, false, false},
		{"syntax error 42601", wrapped(&sqlError{"42601"}), false, false},
		{"query canceled 57014", &sqlError{"57014"}, false, false},
		{"foreign error", errors.New("boom"), false, false},
		{"a 503 past the budget", (&promotype.Retries{}).Final(&sqlError{"40P01"}), false, false},
	}
	for _, tc := range tests {
		r, u := promotype.Retryable(tc.err), promotype.Unavailable(tc.err)
		if r != tc.retryable || u != tc.unavailable || promotype.Transient(tc.err) != (tc.retryable || tc.unavailable) {
			t.Errorf("%s: Retryable %v, Unavailable %v; want %v, %v", tc.name, r, u, tc.retryable, tc.unavailable)
		}
	}
}

// TestRetry: a write that fails retryable runs again until it succeeds,
// at most RetryAttempts times in all; past that it is a 503 that no outer
// loop takes for retryable; any other error ends it at once.
func TestRetry(t *testing.T) {
	t.Parallel()
	deadlock := fmt.Errorf("bunstore: rollback: %w", &sqlError{"40P01"})
	tests := []struct {
		name     string
		failures int   // runs failing with fail before one succeeds
		fail     error // the error of a failing run
		runs     int
		code     int // 0: no error
	}{
		{"succeeds at once", 0, deadlock, 1, 0},
		{"deadlocks twice", 2, deadlock, 3, 0},
		{"deadlocks up to the last run", promotype.RetryAttempts - 1, deadlock, promotype.RetryAttempts, 0},
		{"deadlocks past the budget", 100, deadlock, promotype.RetryAttempts, 503},
		{"connection lost before commit, for good", 100, fmt.Errorf("%w: %w", promotype.ErrRetryable, &sqlError{"57P01"}), promotype.RetryAttempts, 503},
		{"a 400 is not run again", 100, promotype.InvalidPayload("no"), 1, 400},
		{"a foreign error is not run again", 100, errors.New("boom"), 1, 500},
	}
	for _, tc := range tests {
		runs := 0
		err := promotype.Retry(context.Background(), func() error {
			runs++
			if runs <= tc.failures {
				return tc.fail
			}
			return nil
		})
		code := 0
		if err != nil {
			code = promotype.AsError(err).Code
		}
		if runs != tc.runs || code != tc.code {
			t.Errorf("%s: %d runs, status %d (%v); want %d runs, status %d", tc.name, runs, code, err, tc.runs, tc.code)
		}
		if promotype.Retryable(err) {
			t.Errorf("%s: Retry returned %v, still retryable: an outer loop would multiply the budget", tc.name, err)
		}
	}
}

// TestRetryStopsWithContext: a write whose context ended is not run again.
func TestRetryStopsWithContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	err := promotype.Retry(ctx, func() error {
		runs++
		cancel()
		return &sqlError{"40P01"}
	})
	if runs != 1 || !errors.Is(err, promotype.ErrServiceUnavailable) {
		t.Errorf("%d runs, %v; want 1 run and a 503", runs, err)
	}
}

// AsError gives a Go caller what the HTTP adapter answers: a store
// failure a client may cure by retrying is a 503 service_unavailable, any
// other unknown error a 500 internal_error, a *Error itself.
func TestAsErrorTransient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"retry budget spent", fmt.Errorf("bunstore: spend: %w", promotype.ErrRetryable), "503 service_unavailable"},
		{"store deadline", fmt.Errorf("bunstore: get voucher: %w", context.DeadlineExceeded), "503 service_unavailable"},
		{"other", errors.New("boom"), "500 internal_error"},
		{"an Error", promotype.NotFound("voucher", "v_1"), "404 not_found"},
	} {
		e := promotype.AsError(tc.err)
		if got := fmt.Sprintf("%d %s", e.Code, e.Key); got != tc.want {
			t.Errorf("%s: AsError = %s, want %s", tc.name, got, tc.want)
		}
	}
}

// PortOf hands a hook its port, or names the change and the missing port.
func TestPortOf(t *testing.T) {
	t.Parallel()
	var tx any = strings.NewReader("x")
	if _, err := promotype.PortOf[io.Reader](tx, "a read"); err != nil {
		t.Errorf("a reader as io.Reader: %v", err)
	}
	_, err := promotype.PortOf[io.Writer](tx, "a write")
	if err == nil || !strings.Contains(err.Error(), "the transaction of a write (*strings.Reader) lacks the ports of *io.Writer") {
		t.Errorf("a reader as io.Writer: %v", err)
	}
}
