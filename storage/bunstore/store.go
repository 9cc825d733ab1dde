package bunstore

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/storage"
)

// Store is the PostgreSQL storage.Store. It is safe for concurrent use when
// built over a *bun.DB; one built over a bun.Tx (as RunInTx hands to its fn)
// is bound to that transaction.
type Store struct {
	db        bun.IDB
	txTimeout time.Duration
	// listeners memoizes, in a transaction RunInTx runs, the active webhook
	// configurations read by AppendEvents (nil outside one): a
	// transaction that appends several events reads them once.
	listeners *listenerMemo
	// pending holds back, in a transaction RunInTx runs, the rows written
	// in one statement before the next statement that may read them or
	// the commit (nil outside one: rows are written at once). Over a bulk
	// transaction (copyTx) it holds only customer activities.
	pending *pending
	// cluster remembers whether the database is a Citus coordinator,
	// shared with the stores of the transactions s runs (citus.go).
	cluster *clusterMode
}

var (
	_ storage.Store            = (*Store)(nil)
	_ storage.BulkTxStore      = (*Store)(nil)
	_ storage.WriteBehindStore = (*Store)(nil)
)

// New returns a store over db: a *bun.DB (the usual case, see [Open] and
// [Migrate]), a bun.Conn, or a bun.Tx of the host application, in which case
// every call, RunInTx included, joins that transaction.
//
// Each transaction the store runs is bounded by DefaultTxTimeout (see
// WithTxTimeout); each query by the deadline [Open] or
// [AddQueryDeadline] set on db.
func New(db bun.IDB, opts ...Option) *Store {
	s := &Store{db: db, txTimeout: DefaultTxTimeout, cluster: &clusterMode{}}
	for _, o := range opts {
		o(s)
	}
	return s
}
