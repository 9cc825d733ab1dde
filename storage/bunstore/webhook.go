package bunstore

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/webhook"
	"github.com/uptrace/bun"
)

var webhooks = docTable[webhook.Webhook]{
	table: "promo_webhooks", resource: "webhook",
	keys: func(w *webhook.Webhook) docRow {
		return docRow{ProjectID: w.ProjectID, ID: w.ID, CreatedAt: sqlTime(w.CreatedAt), UpdatedAt: sqlTimePtr(w.UpdatedAt)}
	},
	fill: func(w *webhook.Webhook, r *docRow) {
		w.ProjectID, w.CreatedAt, w.UpdatedAt = r.ProjectID, domainTime(r.CreatedAt), domainTimePtr(r.UpdatedAt)
	},
	notFound: notFoundOf("webhook"),
	dup: func(w *webhook.Webhook) error {
		return promotype.Duplicate("webhook", "Duplicated webhook exists with id %s", w.ID)
	},
}

// InsertWebhook implements webhook.Store.
func (s *Store) InsertWebhook(ctx context.Context, w *webhook.Webhook) error {
	s.forgetListeners()
	return webhooks.insert(ctx, s.db, w)
}

// GetWebhook implements webhook.Store.
func (s *Store) GetWebhook(ctx context.Context, projectID, id string) (*webhook.Webhook, error) {
	return webhooks.get(ctx, s.db, projectID, "id", id)
}

// ListWebhooks implements webhook.Store.
func (s *Store) ListWebhooks(ctx context.Context, projectID string, q promotype.Query) ([]*webhook.Webhook, int, error) {
	return webhooks.list(ctx, s.db, projectID, q)
}

// UpdateWebhook implements webhook.Store.
func (s *Store) UpdateWebhook(ctx context.Context, w *webhook.Webhook) error {
	s.forgetListeners()
	return webhooks.update(ctx, s.db, w)
}

// DeleteWebhook implements webhook.Store.
func (s *Store) DeleteWebhook(ctx context.Context, projectID, id string) error {
	s.forgetListeners()
	return webhooks.delete(ctx, s.db, projectID, id)
}

// eventRow is a row of the webhook outbox (migrations 0008, 0009).
type eventRow struct {
	bun.BaseModel `bun:"table:promo_events,alias:ev"`

	Seq       int64     `bun:"seq,pk,autoincrement"`
	ProjectID string    `bun:"project_id"`
	ID        string    `bun:"id"`
	Type      string    `bun:"type"`
	EntityID  string    `bun:"entity_id"`
	CreatedAt time.Time `bun:"created_at"`
	// Data is the payload's text, kept as is: a json.RawMessage would go
	// through encoding/json, which escapes <, > and &.
	Data      string `bun:"data"`
	FannedOut bool   `bun:"fanned_out"`
}

// newEventRow is the outbox row of e.
func newEventRow(e *promotype.Event) eventRow {
	data := string(e.Data)
	if data == "" {
		data = "null" // the column is NOT NULL; the envelope sends {} for it
	}
	return eventRow{ProjectID: e.ProjectID, ID: e.ID, Type: e.Type, EntityID: e.EntityID, CreatedAt: sqlTime(e.CreatedAt), Data: data}
}

func (r *eventRow) domain() *promotype.Event {
	return &promotype.Event{ID: r.ID, ProjectID: r.ProjectID, Type: r.Type, EntityID: r.EntityID,
		CreatedAt: domainTime(r.CreatedAt), Data: json.RawMessage(r.Data)}
}

// eventsChannel is the NOTIFY channel of appended events; the payload is
// the schema (the channel is shared by every schema of the database).
const eventsChannel = "promo_events"

// AppendEvents writes events to the outbox and notifies eventsChannel, in
// one statement (many events in a bulk transaction, an import's: COPY,
// then the notification). PostgreSQL sends the notification when the
// transaction commits (never when it rolls back), once per transaction and
// schema. The events' activities go to the transaction's buffer
// (appendActivities).
func (s *Store) AppendEvents(ctx context.Context, events ...*promotype.Event) error {
	hooked := events[:0:0]
	for _, e := range events {
		if err := checkText("event", str("id", e.ID), str("project_id", e.ProjectID), str("type", e.Type), str("entity_id", e.EntityID)); err != nil {
			return err
		}
		if e.Type != "" {
			hooked = append(hooked, e)
		}
	}
	if err := s.appendActivities(ctx, events); err != nil {
		return err
	}
	if p := s.held(); p != nil { // the insert keeps those heard (heardEventsInsert)
		citus, err := s.onCitus(ctx, s.db)
		if err != nil {
			return err
		}
		if citus { // Go keeps them (from the transaction's memo of the listeners)
			if hooked, err = s.heardEvents(ctx, hooked); err != nil {
				return err
			}
			p.heard = true
		}
		for _, e := range hooked {
			p.events = append(p.events, newEventRow(e))
		}
		return s.sendIfFull(ctx)
	}
	events, err := s.heardEvents(ctx, hooked)
	if err != nil || len(events) == 0 {
		return err
	}
	rows := make([]eventRow, len(events))
	for i, e := range events {
		rows[i] = newEventRow(e)
	}
	if len(rows) >= copyEventsMin {
		copied, err := copyNew(ctx, s.db, "promo_events", eventCopyColumns, len(rows), func(i int) []any {
			r := &rows[i]
			return []any{r.ProjectID, r.ID, r.Type, r.EntityID, r.CreatedAt, []byte(r.Data)}
		})
		if err != nil {
			return err
		}
		if copied {
			if _, err := s.db.ExecContext(ctx, "SELECT pg_notify(?, coalesce(current_schema(), ''))", eventsChannel); err != nil {
				return fail("notify events", err, nil)
			}
			return nil
		}
	}
	insert := s.db.NewInsert().Model(&rows).Returning("NULL")
	_, err = s.db.NewSelect().With("ins", insert).
		ColumnExpr("pg_notify(?, coalesce(current_schema(), ''))", eventsChannel).Exec(ctx)
	if err != nil {
		return fail("append events", err, nil)
	}
	return nil
}

// copyEventsMin is how many events AppendEvents copies (COPY, in a bulk
// transaction) rather than inserts: an import's chunk appends thousands.
const copyEventsMin = 64

var eventCopyColumns = []string{"project_id", "id", "type", "entity_id", "created_at", "data"}

// Heard implements promotype.EventStore, from the transaction's memo of
// the listeners when it has one (AppendEvents then reads no more).
func (s *Store) Heard(ctx context.Context, projectID, typ string, at promotype.Time) (bool, error) {
	if !storable(projectID) {
		return false, nil
	}
	rows, err := s.readListeners(ctx, []string{projectID})
	if err != nil {
		return false, err
	}
	for _, r := range rows {
		if r.hears(projectID, typ, at) {
			return true, nil
		}
	}
	return false, nil
}

// listenerRow is what AppendEvents reads of an active configuration.
type listenerRow struct {
	ProjectID string          `bun:"project_id"`
	CreatedAt time.Time       `bun:"created_at"`
	Events    json.RawMessage `bun:"events"`
	events    []string        // Events decoded
}

// hears reports whether the configuration hears an event of type typ of
// the project created at at.
func (r *listenerRow) hears(projectID, typ string, at promotype.Time) bool {
	return r.ProjectID == projectID && !r.CreatedAt.After(at.Time) && slices.Contains(r.events, typ)
}

// listenerMemo is the active configurations a transaction read, by project.
type listenerMemo struct {
	byProject map[string][]listenerRow
}

// readListeners returns the active configurations of projects: read once
// per transaction (the memo), or on every call outside one. Writes of
// configurations in the transaction forget the memo.
func (s *Store) readListeners(ctx context.Context, projects []string) ([]listenerRow, error) {
	m := s.listeners
	if m != nil && m.byProject != nil {
		var rows []listenerRow
		missing := false
		for _, p := range projects {
			rs, ok := m.byProject[p]
			missing = missing || !ok
			rows = append(rows, rs...)
		}
		if !missing {
			return rows, nil
		}
	}
	var rows []listenerRow
	err := selectPrepared(ctx, s.db, listenersStatement, &rows, projects)
	if err != nil {
		return nil, fail("read webhook listeners", err, nil)
	}
	for i := range rows {
		if err := json.Unmarshal(rows[i].Events, &rows[i].events); err != nil {
			return nil, err
		}
	}
	if m != nil {
		if m.byProject == nil {
			m.byProject = map[string][]listenerRow{}
		}
		for _, p := range projects {
			m.byProject[p] = nil
		}
		for _, r := range rows {
			m.byProject[r.ProjectID] = append(m.byProject[r.ProjectID], r)
		}
	}
	return rows, nil
}

var listenersStatement = rawPrepared("promo_webhooks", `SELECT project_id, created_at, doc->'events' AS events FROM promo_webhooks
	WHERE project_id = ANY($1::text[]) AND (doc->>'active')::boolean`)

// forgetListeners drops the transaction's memo after a configuration write.
func (s *Store) forgetListeners() {
	if s.listeners != nil {
		s.listeners.byProject = nil
	}
}

// heardEvents keeps the events some active configuration of their project,
// created by then, lists (webhook.Hears at the time of the change), with
// one read of the projects' active configurations.
func (s *Store) heardEvents(ctx context.Context, events []*promotype.Event) ([]*promotype.Event, error) {
	if len(events) == 0 {
		return nil, nil
	}
	projects := make([]string, 0, 1)
	for _, e := range events {
		if !slices.Contains(projects, e.ProjectID) {
			projects = append(projects, e.ProjectID)
		}
	}
	rows, err := s.readListeners(ctx, projects)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	out := events[:0:0]
	for _, e := range events {
		for _, r := range rows {
			if r.hears(e.ProjectID, e.Type, e.CreatedAt) {
				out = append(out, e)
				break
			}
		}
	}
	return out, nil
}

// The event feed (webhook.OutboxStore.WatchEvents) over PostgreSQL: each
// watch holds a dedicated connection of the pool that LISTENs on
// eventsChannel. AppendEvents notifies in the appending transaction, so the
// watcher of every process over the database is woken a network round trip
// after the commit. The connection is checked every eventFeedCheck; when
// it fails the watch reconnects with back-off and wakes once listening
// again (events may have been appended meanwhile). Dispatchers poll as
// well, so a lost notification costs latency, never an event.
const eventFeedCheck = 30 * time.Second

// WatchEvents implements webhook.OutboxStore. A Store over a bun.Tx or a
// bun.Conn cannot watch: wake is never called.
func (s *Store) WatchEvents(wake func()) (stop func()) {
	db, ok := s.db.(*bun.DB)
	if !ok {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchEvents(ctx, db.DB, wake)
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			<-done
		})
	}
}

// watchEvents keeps a listening session up until ctx ends or the pool is
// closed.
func watchEvents(ctx context.Context, db *sql.DB, wake func()) {
	keepListening(ctx, db, func(ctx context.Context) error { return listenEvents(ctx, db, wake) }, nil)
}

// listenEvents listens on one dedicated connection until it fails or ctx
// ends. The connection is closed afterwards, never handed back to the pool
// still listening.
func listenEvents(ctx context.Context, db *sql.DB, wake func()) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }() // back to the pool: nothing to do on failure
	return conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("bunstore: the event feed needs the pgx driver, not %T", dc)
		}
		return errors.Join(listenLoop(ctx, sc, wake), driver.ErrBadConn)
	})
}

func listenLoop(ctx context.Context, sc *stdlib.Conn, wake func()) error {
	c := sc.Conn()
	setup, cancel := context.WithTimeout(ctx, feedCheckTimeout)
	defer cancel()
	if _, err := c.Exec(setup, "LISTEN "+eventsChannel); err != nil {
		return err
	}
	var schema string
	if err := c.QueryRow(setup, "SELECT coalesce(current_schema(), '')").Scan(&schema); err != nil {
		return err
	}
	wake() // anything may have been appended while nobody listened
	for {
		wait, cancel := context.WithTimeout(ctx, eventFeedCheck)
		n, err := c.WaitForNotification(wait)
		cancel()
		switch {
		case err == nil:
			if n.Payload == schema {
				wake()
			}
			continue
		case ctx.Err() != nil:
			return ctx.Err()
		case !pgconn.Timeout(err):
			return err
		}
		check, cancel := context.WithTimeout(ctx, feedCheckTimeout)
		_, err = c.Exec(check, "SELECT 1")
		cancel()
		if err != nil {
			return err
		}
	}
}

// pruneSendoutsSQL removes settled sendouts created before ?, oldest first,
// at most ? of them.
const pruneSendoutsSQL = `DELETE FROM promo_webhook_sendouts WHERE seq IN (
	SELECT seq FROM promo_webhook_sendouts
	WHERE status <> 'PENDING' AND created_at < ?
	ORDER BY created_at LIMIT ?)`

// pruneEventsSQL removes fanned-out events created before ? that no
// sendout refers to any more, oldest first, at most ? of them.
const pruneEventsSQL = `DELETE FROM promo_events WHERE seq IN (
	SELECT ev.seq FROM promo_events ev
	WHERE ev.fanned_out AND ev.created_at < ?
	  AND NOT EXISTS (SELECT 1 FROM promo_webhook_sendouts s WHERE s.project_id = ev.project_id AND s.event_id = ev.id)
	ORDER BY ev.created_at LIMIT ?)`

// PruneOutbox implements webhook.OutboxStore: two statements, each its own
// transaction (an event whose last sendout the first removed goes with the
// second).
func (s *Store) PruneOutbox(ctx context.Context, before promotype.Time, limit int) (int, error) {
	removed := 0
	for _, q := range []string{pruneSendoutsSQL, pruneEventsSQL} {
		res, err := s.db.NewRaw(q, sqlTime(before), limit).Exec(ctx)
		if err != nil {
			return removed, fail("prune outbox", err, nil)
		}
		n, _ := res.RowsAffected()
		removed += int(n)
	}
	return removed, nil
}

// bookkeeping runs fn in a read-committed transaction of its own that
// commits without waiting for its WAL record to reach the disk
// (synchronous_commit off, for this transaction only), or in the
// transaction s is bound to, unchanged. Fan-outs, claims and outcomes are
// the dispatchers' bookkeeping: a server crash may forget the last few
// milliseconds of them, which only means that some sendouts are planned,
// claimed or tried again, never that an event is lost (the events are
// committed by their own transactions, as durably as the server is set
// up). Not waiting for the disk takes most of the cost of a commit off
// every try.
func (s *Store) bookkeeping(ctx context.Context, fn func(ctx context.Context, db bun.IDB) error) error {
	switch s.db.(type) {
	case bun.Tx, *bun.Tx, pendingTx:
		return fn(ctx, s.db)
	}
	return s.db.RunInTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "SET LOCAL synchronous_commit TO OFF"); err != nil {
			return fail("set synchronous_commit", err, nil)
		}
		return fn(ctx, tx)
	})
}

// sendoutRow is a row of promo_webhook_sendouts.
type sendoutRow struct {
	bun.BaseModel `bun:"table:promo_webhook_sendouts,alias:so"`

	Seq            int64      `bun:"seq,pk,autoincrement"`
	ProjectID      string     `bun:"project_id"`
	ID             string     `bun:"id"`
	WebhookID      string     `bun:"webhook_id"`
	EventID        string     `bun:"event_id"`
	EventType      string     `bun:"event_type"`
	TargetURL      string     `bun:"target_url"`
	Status         string     `bun:"status"`
	Attempts       int        `bun:"attempts"`
	CreatedAt      time.Time  `bun:"created_at"`
	NextAttemptAt  *time.Time `bun:"next_attempt_at"`
	LastAttemptAt  *time.Time `bun:"last_attempt_at"`
	DeliveredAt    *time.Time `bun:"delivered_at"`
	LastStatusCode *int       `bun:"last_status_code"`
	LastError      *string    `bun:"last_error"`

	Total int `bun:"total,scanonly"`
}

func (r *sendoutRow) listTotal() int { return r.Total }

func (r *sendoutRow) domain() *webhook.Sendout {
	return &webhook.Sendout{
		ID: r.ID, Object: "webhook_sendout", ProjectID: r.ProjectID, WebhookID: r.WebhookID,
		EventID: r.EventID, EventType: r.EventType, TargetURL: r.TargetURL,
		Status: webhook.SendoutStatus(r.Status), Attempts: r.Attempts, CreatedAt: domainTime(r.CreatedAt),
		NextAttemptAt: domainTimePtr(r.NextAttemptAt), LastAttemptAt: domainTimePtr(r.LastAttemptAt),
		DeliveredAt: domainTimePtr(r.DeliveredAt), LastStatusCode: promotype.ClonePtr(r.LastStatusCode),
		LastError: promotype.ClonePtr(r.LastError),
	}
}

func newSendoutRow(s *webhook.Sendout) (sendoutRow, error) {
	err := checkText("webhook_sendout", str("id", s.ID), str("project_id", s.ProjectID), str("webhook_id", s.WebhookID),
		str("event_id", s.EventID), str("event_type", s.EventType), str("target_url", s.TargetURL), text{"last_error", s.LastError})
	return sendoutRow{
		ProjectID: s.ProjectID, ID: s.ID, WebhookID: s.WebhookID, EventID: s.EventID, EventType: s.EventType,
		TargetURL: s.TargetURL, Status: string(s.Status), Attempts: s.Attempts, CreatedAt: sqlTime(s.CreatedAt),
		NextAttemptAt: sqlTimePtr(s.NextAttemptAt), LastAttemptAt: sqlTimePtr(s.LastAttemptAt),
		DeliveredAt: sqlTimePtr(s.DeliveredAt), LastStatusCode: promotype.ClonePtr(s.LastStatusCode),
		LastError: promotype.ClonePtr(s.LastError),
	}, err
}

// FanOutEvents implements webhook.OutboxStore: in one transaction, it
// locks the oldest events not fanned out (skipping those another fan-out
// holds), reads the active configurations of their projects, inserts the
// planned sendouts, marks the events and reads the projects' tokens.
func (s *Store) FanOutEvents(ctx context.Context, limit int, plan func(*promotype.Event, []*webhook.Webhook) []*webhook.Sendout) (events int, stored []*webhook.Delivery, err error) {
	if limit <= 0 {
		return 0, nil, nil
	}
	projects, err := s.claimProjects(ctx, "promo_events", "NOT fanned_out", "seq")
	if err != nil {
		return 0, nil, err
	}
	for _, project := range projects {
		n, st, err := s.fanOutEvents(ctx, project, limit-events, plan)
		if err != nil {
			return events, stored, err
		}
		events, stored = events+n, append(stored, st...)
		if events >= limit {
			break
		}
	}
	return events, stored, nil
}

// claimProjects returns the projects whose rows of table a claim on
// Citus tries, one after the other, oldest first (by order, among the rows
// where claimable holds): a row lock on a distributed table needs its
// project. Elsewhere it returns one empty project: one claim over all.
func (s *Store) claimProjects(ctx context.Context, table, claimable, order string, args ...any) ([]string, error) {
	citus, err := s.onCitus(ctx, s.db)
	if err != nil || !citus {
		return []string{""}, err
	}
	var projects []string
	args = append(append([]any{bun.Ident(table)}, args...), claimCandidates)
	err = s.db.NewRaw("SELECT project_id FROM ? WHERE "+claimable+" GROUP BY project_id ORDER BY min("+order+") LIMIT ?",
		args...).Scan(ctx, &projects)
	if err != nil {
		return nil, fail("claim projects", err, nil)
	}
	return projects, nil
}

// fanOutEvents is FanOutEvents over the events of project (all projects
// when "").
func (s *Store) fanOutEvents(ctx context.Context, project string, limit int, plan func(*promotype.Event, []*webhook.Webhook) []*webhook.Sendout) (events int, stored []*webhook.Delivery, err error) {
	err = s.bookkeeping(ctx, func(ctx context.Context, db bun.IDB) error {
		events, stored = 0, nil
		var evs []eventRow
		claim := db.NewSelect().Model(&evs).Where("NOT ev.fanned_out")
		if project != "" {
			claim = claim.Where("ev.project_id = ?", project)
		}
		err := claim.OrderExpr("ev.seq").Limit(int64(limit)).For("UPDATE SKIP LOCKED").Scan(ctx)
		if err != nil {
			return fail("claim events", err, nil)
		}
		if len(evs) == 0 {
			return nil
		}
		hooks, err := activeWebhooks(ctx, db, evs)
		if err != nil {
			return err
		}
		var rows []sendoutRow
		var planned []*webhook.Delivery
		seqs := make([]int64, len(evs))
		for i := range evs {
			seqs[i] = evs[i].Seq
			e := evs[i].domain()
			var hearing []*webhook.Webhook
			for _, w := range hooks[e.ProjectID] {
				if webhook.Hears(w, e) {
					hearing = append(hearing, w.Clone())
				}
			}
			for _, sd := range plan(e.Clone(), hearing) {
				r, err := newSendoutRow(sd)
				if err != nil {
					return err
				}
				rows = append(rows, r)
				x := &webhook.Delivery{Sendout: sd.Clone(), Event: e.Clone()}
				for _, w := range hearing {
					if w.ID == sd.WebhookID {
						x.Webhook = w.Clone()
					}
				}
				planned = append(planned, x)
			}
		}
		mark := db.NewUpdate().Model((*eventRow)(nil)).Set("fanned_out = TRUE").Where("ev.seq IN (?)", bun.List(seqs))
		if project != "" {
			mark = mark.Where("ev.project_id = ?", project)
		}
		if _, err := mark.Exec(ctx); err != nil {
			return fail("mark events fanned out", err, nil)
		}
		events = len(evs)
		if len(rows) == 0 {
			return nil
		}
		var inserted []struct {
			ProjectID string `bun:"project_id"`
			ID        string `bun:"id"`
		}
		if err := db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("project_id, id").Scan(ctx, &inserted); err != nil {
			return fail("insert sendouts", err, nil)
		}
		tokens, err := webhookTokens(ctx, db, evs)
		if err != nil {
			return err
		}
		ok := make(map[[2]string]bool, len(inserted))
		for _, k := range inserted {
			ok[[2]string{k.ProjectID, k.ID}] = true
		}
		for _, x := range planned {
			if ok[[2]string{x.Sendout.ProjectID, x.Sendout.ID}] {
				x.Secret = tokens[x.Sendout.ProjectID]
				stored = append(stored, x)
			}
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	return events, stored, nil
}

// projectsOf returns the distinct projects of evs.
func projectsOf(evs []eventRow) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range evs {
		if !seen[e.ProjectID] {
			seen[e.ProjectID] = true
			out = append(out, e.ProjectID)
		}
	}
	return out
}

// webhookTokens returns the webhook tokens of the projects of evs.
func webhookTokens(ctx context.Context, db bun.IDB, evs []eventRow) (map[string]string, error) {
	var rows []projectRow
	if err := db.NewSelect().Model(&rows).Column("id", "webhook_token").Where("p.id IN (?)", bun.List(projectsOf(evs))).Scan(ctx); err != nil {
		return nil, fail("read webhook tokens", err, nil)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.WebhookToken
	}
	return out, nil
}

// activeWebhooks returns the active configurations of the projects of evs,
// by project, in id order.
func activeWebhooks(ctx context.Context, db bun.IDB, evs []eventRow) (map[string][]*webhook.Webhook, error) {
	var rows []docRow
	err := db.NewSelect().Model(&rows).Where("d.project_id IN (?)", bun.List(projectsOf(evs))).
		Where("(d.doc->>'active')::boolean").OrderExpr("d.project_id, d.id").Scan(ctx)
	if err != nil {
		return nil, fail("read webhooks", err, nil)
	}
	out := map[string][]*webhook.Webhook{}
	for i := range rows {
		w, err := webhooks.decode(&rows[i])
		if err != nil {
			return nil, err
		}
		out[w.ProjectID] = append(out[w.ProjectID], w)
	}
	return out, nil
}

// claimedRow is a claimed sendout joined with its event, its project's
// token and its configuration (absent once deleted).
type claimedRow struct {
	sendoutRow

	EvType      string          `bun:"ev_type"`
	EvEntityID  string          `bun:"ev_entity_id"`
	EvCreatedAt time.Time       `bun:"ev_created_at"`
	EvData      string          `bun:"ev_data"`
	Secret      string          `bun:"secret"`
	HookDoc     json.RawMessage `bun:"hook_doc,type:jsonb"`
	HookCreated *time.Time      `bun:"hook_created_at"`
	HookUpdated *time.Time      `bun:"hook_updated_at"`
}

// claimSQL leases the due sendouts and returns them with what their tries
// need, in one statement.
//
// On Citus every table of it is filtered on one project (the ?0 argument
// when project is set; citusProject holds the filters).
const claimSQL = `WITH c AS (
	SELECT seq FROM promo_webhook_sendouts AS so
	WHERE status = 'PENDING' AND next_attempt_at <= ?1{so}
	ORDER BY next_attempt_at, seq
	LIMIT ?2
	FOR UPDATE SKIP LOCKED
), u AS (
	UPDATE promo_webhook_sendouts AS so SET attempts = so.attempts + 1, next_attempt_at = ?3
	FROM c WHERE so.seq = c.seq{so}
	RETURNING so.*
)
SELECT u.*, e.type AS ev_type, e.entity_id AS ev_entity_id, e.created_at AS ev_created_at, e.data AS ev_data,
	p.webhook_token AS secret, w.doc AS hook_doc, w.created_at AS hook_created_at, w.updated_at AS hook_updated_at
FROM u
JOIN promo_events e ON e.project_id = u.project_id AND e.id = u.event_id{e}
JOIN promo_projects p ON p.id = u.project_id
LEFT JOIN promo_webhooks w ON w.project_id = u.project_id AND w.id = u.webhook_id{w}
ORDER BY u.seq`

// claimQuery is claimSQL over all projects, or over project's only.
func claimQuery(project string) string {
	r := strings.NewReplacer("{so}", "", "{e}", "", "{w}", "")
	if project != "" {
		r = strings.NewReplacer("{so}", " AND so.project_id = ?0", "{e}", " AND e.project_id = ?0", "{w}", " AND w.project_id = ?0")
	}
	return r.Replace(claimSQL)
}

// ClaimSendouts implements webhook.OutboxStore.
func (s *Store) ClaimSendouts(ctx context.Context, now, leaseUntil promotype.Time, limit int) ([]*webhook.Delivery, error) {
	if limit <= 0 {
		return nil, nil
	}
	projects, err := s.claimProjects(ctx, "promo_webhook_sendouts", "status = 'PENDING' AND next_attempt_at <= ?", "next_attempt_at", sqlTime(now))
	if err != nil {
		return nil, err
	}
	var rows []claimedRow
	for _, project := range projects {
		var claimed []claimedRow
		err := s.bookkeeping(ctx, func(ctx context.Context, db bun.IDB) error {
			claimed = claimed[:0]
			return db.NewRaw(claimQuery(project), project, sqlTime(now), limit-len(rows), sqlTime(leaseUntil)).Scan(ctx, &claimed)
		})
		if err != nil {
			return nil, fail("claim sendouts", err, nil)
		}
		if rows = append(rows, claimed...); len(rows) >= limit {
			break
		}
	}
	if len(projects) > 1 {
		slices.SortFunc(rows, func(a, b claimedRow) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	out := make([]*webhook.Delivery, len(rows))
	for i := range rows {
		r := &rows[i]
		x := &webhook.Delivery{
			Sendout: r.domain(),
			Event: &promotype.Event{ID: r.EventID, ProjectID: r.ProjectID, Type: r.EvType, EntityID: r.EvEntityID,
				CreatedAt: domainTime(r.EvCreatedAt), Data: json.RawMessage(r.EvData)},
			Secret: r.Secret,
		}
		if r.HookDoc != nil && r.HookCreated != nil {
			w, err := webhooks.decode(&docRow{ProjectID: r.ProjectID, ID: r.WebhookID, CreatedAt: *r.HookCreated, UpdatedAt: r.HookUpdated, Doc: r.HookDoc})
			if err != nil {
				return nil, err
			}
			x.Webhook = w
		}
		out[i] = x
	}
	return out, nil
}

// recordSQL applies outcomes, given as VALUES rows of recordColumns, to
// the sendouts still held with their attempt counts, and returns those it
// applied (with the attempt count, which tells two outcomes of one sendout
// apart).
const (
	recordColumns = "(project_id, id, status, attempts, next_attempt_at, last_attempt_at, delivered_at, last_status_code, last_error)"
	recordRow     = `(?::text, ?::text, ?::text, ?::integer, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::integer, ?::text)`
	recordSQL     = `UPDATE promo_webhook_sendouts AS so
SET status = v.status, next_attempt_at = v.next_attempt_at, last_attempt_at = v.last_attempt_at,
	delivered_at = v.delivered_at, last_status_code = v.last_status_code, last_error = v.last_error
FROM (VALUES %s) AS v ` + recordColumns + `
WHERE so.project_id = v.project_id AND so.id = v.id AND so.status = 'PENDING' AND so.attempts = v.attempts
RETURNING so.project_id, so.id, so.attempts`
)

// RecordSendouts implements webhook.OutboxStore: one statement applies
// every outcome, a second deactivates the configurations of those given
// up, in one transaction.
func (s *Store) RecordSendouts(ctx context.Context, outcomes ...webhook.Outcome) ([]string, error) {
	if len(outcomes) == 0 {
		return nil, nil
	}
	rows := make([]string, 0, len(outcomes))
	args := make([]any, 0, 9*len(outcomes))
	var lost []string
	for _, oc := range outcomes {
		r, err := newSendoutRow(oc.Sendout)
		if err != nil {
			return nil, err
		}
		if !storableKeys(r.ProjectID, r.ID) {
			lost = append(lost, r.ID)
			continue
		}
		rows = append(rows, recordRow)
		args = append(args, r.ProjectID, r.ID, r.Status, r.Attempts, r.NextAttemptAt, r.LastAttemptAt, r.DeliveredAt, r.LastStatusCode, r.LastError)
	}
	if len(rows) == 0 {
		return lost, nil
	}
	type key struct {
		ProjectID, ID string
		Attempts      int
	}
	err := s.bookkeeping(ctx, func(ctx context.Context, db bun.IDB) error {
		var applied []key
		q := fmt.Sprintf(recordSQL, strings.Join(rows, ", "))
		if err := db.NewRaw(q, args...).Scan(ctx, &applied); err != nil {
			return fail("record sendouts", err, nil)
		}
		done := make(map[key]bool, len(applied))
		for _, k := range applied {
			done[k] = true
		}
		for _, oc := range outcomes {
			sd := oc.Sendout
			if !done[key{sd.ProjectID, sd.ID, sd.Attempts}] {
				lost = append(lost, sd.ID)
				continue
			}
			if !oc.Deactivate {
				continue
			}
			_, err := db.NewUpdate().Model((*docRow)(nil)).
				Set(`doc = jsonb_set(d.doc, '{active}', 'false'::jsonb)`).Set("updated_at = ?", sqlTimePtr(sd.LastAttemptAt)).
				Where("d.project_id = ? AND d.id = ?", sd.ProjectID, sd.WebhookID).Exec(ctx)
			if err != nil {
				return fail("deactivate webhook", err, nil)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return lost, nil
}

var sendoutColumns = columns{
	"created_at": {"created_at", promotype.FieldTime},
	"status":     {"status", promotype.FieldString},
}

// ListSendouts implements webhook.OutboxStore.
func (s *Store) ListSendouts(ctx context.Context, projectID, webhookID string, q promotype.Query) ([]*webhook.Sendout, int, error) {
	if !storableKeys(projectID, webhookID) {
		return []*webhook.Sendout{}, 0, nil
	}
	rows, total, err := list[sendoutRow](ctx, s.db, sendoutColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("so.project_id = ? AND so.webhook_id = ?", projectID, webhookID)
	}, nil)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*webhook.Sendout, len(rows))
	for i := range rows {
		out[i] = rows[i].domain()
	}
	return out, total, nil
}
