package promotype

import "errors"

// ErrRetryable marks (errors.Is) a store error that undid the whole
// transaction for a transient reason that running it again can cure: a
// deadlock the database broke, a serialization failure. A service whose
// writes are safe to repeat (they evaluate again first) retries it; any
// other caller treats it as the internal error it wraps.
var ErrRetryable = errors.New("transient conflict: the transaction may be run again")
