package promotype

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// This file is the one place where a store's failures are classified:
// Retryable says a write may run again (Retry, retry.go), Unavailable says
// the store cannot serve now (the HTTP adapter answers both 503 with
// Retry-After). A store that knows more (a connection lost before the
// commit) marks its error with ErrRetryable itself.

// ErrRetryable marks (errors.Is) a store error that undid the whole
// transaction for a transient reason that running it again can cure: a
// deadlock the database broke, a serialization failure, a connection lost
// before the commit was sent. Retry runs such a transaction again; what
// still fails past its budget is a 503.
var ErrRetryable = errors.New("transient conflict: the transaction may be run again")

// sqlStater is an error carrying an SQLSTATE (the SQL standard's
// five-character error code), as PostgreSQL drivers' errors do.
type sqlStater interface{ SQLState() string }

// sqlState returns the SQLSTATE of the first error in err's chain that
// carries one, or "".
func sqlState(err error) string {
	var s sqlStater
	if errors.As(err, &s) {
		return s.SQLState()
	}
	return ""
}

// Retryable reports whether err undid the whole transaction (or the one
// statement) it ended for a reason that running it again can cure: it is
// marked ErrRetryable, or its SQLSTATE is a serialization failure (40001)
// or a deadlock (40P01).
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrRetryable) {
		return true
	}
	switch sqlState(err) {
	case "40001", "40P01":
		return true
	}
	return false
}

// Unavailable reports whether err means the store cannot serve now rather
// than a bug: the database is shutting down or starting up (SQLSTATE
// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now),
// has no connection slot left (53300), a connection failed (class 08), a
// store deadline passed, or the network lost, refused or reset the
// connection. Whether a write that met it may run again is Retryable's
// question: a connection lost during the commit leaves its outcome
// unknown.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	switch code := sqlState(err); {
	case code == "57P01", code == "57P02", code == "57P03", code == "53300", strings.HasPrefix(code, "08"):
		return true
	}
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// Transient reports whether err is a store failure a client may cure by
// trying again later (Retryable or Unavailable): the 503 of the adapter,
// never a 500.
func Transient(err error) bool { return Retryable(err) || Unavailable(err) }
