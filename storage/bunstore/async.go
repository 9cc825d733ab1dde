package bunstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/promoengine/promo/async"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/promotype"
)

type asyncRow struct {
	bun.BaseModel `bun:"table:promo_async_actions,alias:a"`

	ProjectID       string     `bun:"project_id,pk"`
	ID              string     `bun:"id,pk"`
	Type            string     `bun:"type"`
	Status          string     `bun:"status"`
	OperationStatus string     `bun:"operation_status"`
	Result          []byte     `bun:"result,type:bytea"`
	RequestID       string     `bun:"request_id"`
	ProcessingTime  int64      `bun:"processing_time"`
	Progress        int        `bun:"progress"`
	Payload         []byte     `bun:"payload,type:bytea"`
	State           []byte     `bun:"state,type:bytea"`
	LeaseOwner      *string    `bun:"lease_owner"`
	LeaseUntil      *time.Time `bun:"lease_until"`
	StartedAt       *time.Time `bun:"started_at"`
	Attempts        int        `bun:"attempts"`
	CreatedAt       time.Time  `bun:"created_at"`
	UpdatedAt       *time.Time `bun:"updated_at"`
	SerialKey       string     `bun:"serial_key"`
	Seq             int64      `bun:"seq,nullzero"` // a sequence's default (migration 0041) on insert, never updated

	Total int `bun:"total,scanonly"`
}

func (r *asyncRow) listTotal() int { return r.Total }

var asyncColumns = columns{
	"type":       {"type", promotype.FieldString},
	"status":     {"status", promotype.FieldString},
	"created_at": {"created_at", promotype.FieldTime},
	"updated_at": {"updated_at", promotype.FieldTime},
}

// rawJSON keeps a JSON value for a bytea column (any text, NUL included):
// nil or JSON null is NULL.
func rawJSON(b json.RawMessage) (json.RawMessage, error) {
	if len(b) == 0 || string(b) == "null" {
		return nil, nil
	}
	return b, nil
}

func newAsyncRow(a *async.Action) (*asyncRow, error) {
	if err := checkText("async_action", str("id", a.ID), str("project_id", a.ProjectID), str("request_id", a.RequestID)); err != nil {
		return nil, err
	}
	row := &asyncRow{
		ProjectID: a.ProjectID, ID: a.ID, Type: a.Type, Status: string(a.Status), OperationStatus: string(a.OperationStatus),
		RequestID: a.RequestID, ProcessingTime: a.ProcessingTime, Progress: a.Progress,
		LeaseUntil: sqlTimePtr(a.LeaseUntil), StartedAt: sqlTimePtr(a.StartedAt), Attempts: a.Attempts,
		CreatedAt: sqlTime(a.CreatedAt), UpdatedAt: sqlTimePtr(a.UpdatedAt), SerialKey: a.SerialKey,
	}
	if a.LeaseOwner != "" {
		row.LeaseOwner = &a.LeaseOwner
	}
	var err error
	if row.Result, err = rawJSON(a.Result); err != nil {
		return nil, err
	}
	if row.Payload, err = rawJSON(a.Payload); err != nil {
		return nil, err
	}
	if row.State, err = rawJSON(a.State); err != nil {
		return nil, err
	}
	return row, nil
}

func (r *asyncRow) domain() *async.Action {
	a := &async.Action{
		ID: r.ID, ProjectID: r.ProjectID, Type: r.Type, Status: async.Status(r.Status),
		OperationStatus: async.OperationStatus(r.OperationStatus), Result: r.Result, RequestID: r.RequestID,
		ProcessingTime: r.ProcessingTime, Progress: r.Progress, Payload: r.Payload, State: r.State,
		LeaseUntil: domainTimePtr(r.LeaseUntil), StartedAt: domainTimePtr(r.StartedAt), Attempts: r.Attempts,
		CreatedAt: domainTime(r.CreatedAt), UpdatedAt: domainTimePtr(r.UpdatedAt), Object: "async_action",
		SerialKey: r.SerialKey, Seq: r.Seq,
	}
	if r.LeaseOwner != nil {
		a.LeaseOwner = *r.LeaseOwner
	}
	return a
}

func asyncNotFound(id string) func() error {
	return func() error { return promotype.NotFound("async_action", id) }
}

// InsertAsyncAction implements async.Store.
func (s *Store) InsertAsyncAction(ctx context.Context, a *async.Action) error {
	row, err := newAsyncRow(a)
	if err != nil {
		return err
	}
	dup := func() error {
		return promotype.Duplicate("async_action", "Duplicated async_action exists with id %s", a.ID)
	}
	res, err := s.db.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return fail("insert async action", err, dup)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return dup()
	}
	return nil
}

// GetAsyncAction implements async.Store.
func (s *Store) GetAsyncAction(ctx context.Context, projectID, id string) (*async.Action, error) {
	if !storableKeys(projectID, id) {
		return nil, asyncNotFound(id)()
	}
	var row asyncRow
	if err := s.db.NewSelect().Model(&row).Where("a.project_id = ? AND a.id = ?", projectID, id).Scan(ctx); err != nil {
		return nil, getErr("get async action", err, asyncNotFound(id))
	}
	return row.domain(), nil
}

// ListAsyncActions implements async.Store.
func (s *Store) ListAsyncActions(ctx context.Context, projectID string, q promotype.Query) ([]*async.Action, int, error) {
	if !storable(projectID) {
		return []*async.Action{}, 0, nil
	}
	rows, total, err := list[asyncRow](ctx, s.db, asyncColumns, q, func(sel *bun.SelectQuery) *bun.SelectQuery {
		return sel.Where("a.project_id = ?", projectID)
	}, projectTally("async_actions", projectID, q))
	if err != nil {
		return nil, 0, err
	}
	out := make([]*async.Action, len(rows))
	for i := range rows {
		out[i] = rows[i].domain()
	}
	return out, total, nil
}

// ClaimAsyncAction implements async.Store: the oldest claimable row
// is locked with FOR UPDATE SKIP LOCKED and leased in the same statement, so
// runners of several engines over one database never take the same action.
// A row with a serial key is claimable once every row of its project and
// key with a lower seq has ended: ended is final, so two runners cannot
// both see a row free while an earlier one runs. On Citus, where a row
// lock needs the project (claimCitus), the oldest claimable rows are read
// first and then claimed one project at a time.
func (s *Store) ClaimAsyncAction(ctx context.Context, owner string, now, until promotype.Time) (*async.Action, error) {
	citus, err := s.onCitus(ctx, s.db)
	if err != nil {
		return nil, err
	}
	args := []any{owner, sqlTime(until), sqlTime(now), sqlTime(now), sqlTime(now)}
	if !citus {
		return s.claimAsync(ctx, "", claimableAsync, args)
	}
	var keys []struct {
		ProjectID string `bun:"project_id"`
		ID        string `bun:"id"`
	}
	err = s.db.NewRaw(`SELECT project_id, id FROM promo_async_actions WHERE `+claimableAsync+`
		ORDER BY created_at, id LIMIT ?`, sqlTime(now), claimCandidates).Scan(ctx, &keys)
	if err != nil {
		return nil, fail("claim async action", err, nil)
	}
	for _, k := range keys {
		a, err := s.claimAsync(ctx, "project_id = ? AND id = ? AND ", leaseFree, append(args[:5:5], k.ProjectID, k.ID))
		if a != nil || err != nil {
			return a, err
		}
	}
	return nil, nil
}

// claimableAsync is the condition of a claimable action (argument: now):
// enqueued or its lease ended, and no earlier action of its serial key
// pending (serialFree).
const claimableAsync = leaseFree + " AND " + serialFree

// leaseFree is an action enqueued or whose lease ended (argument: now).
const leaseFree = `(status = 'ENQUEUED' OR (status = 'IN_PROGRESS' AND (lease_until IS NULL OR lease_until < ?)))`

// serialFree is an action without serial key, or whose earlier actions of
// the key ended. Ended is final, so an action once serialFree stays so:
// the Citus claim checks it in its unlocked read only (Citus cannot lock
// rows under a correlated subquery).
const serialFree = `(serial_key = '' OR NOT EXISTS (
		SELECT 1 FROM promo_async_actions AS b
		WHERE b.project_id = promo_async_actions.project_id AND b.serial_key = promo_async_actions.serial_key
			AND b.seq < promo_async_actions.seq AND b.status IN ('ENQUEUED', 'IN_PROGRESS')))`

// claimCandidates is how many of the oldest claimable actions a claim on
// Citus tries, one after the other, before it reports none.
const claimCandidates = 8

// claimAsync leases the oldest claimable action that matches filter (SQL
// ending in AND, whose arguments follow the lease's in args) and no other
// claim holds.
func (s *Store) claimAsync(ctx context.Context, filter, claimable string, args []any) (*async.Action, error) {
	var rows []asyncRow
	err := s.db.NewRaw(`UPDATE promo_async_actions AS a
		SET status = 'IN_PROGRESS', lease_owner = ?, lease_until = ?, attempts = a.attempts + 1,
			started_at = coalesce(a.started_at, ?), updated_at = ?
		FROM (
			SELECT project_id, id FROM promo_async_actions
			WHERE `+filter+claimable+`
			ORDER BY created_at, id
			LIMIT 1
			FOR UPDATE SKIP LOCKED
		) AS c
		WHERE a.project_id = c.project_id AND a.id = c.id
		RETURNING a.*`, claimArgs(args)...).Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail("claim async action", err, nil)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return rows[0].domain(), nil
}

// claimArgs orders claimAsync's arguments as its SQL reads them: the four
// of the lease, the filter's, then now.
func claimArgs(args []any) []any {
	out := append([]any{}, args[:4]...)
	out = append(out, args[5:]...)
	return append(out, args[4])
}

// LockAsyncAction implements async.Store with a row lock (FOR
// UPDATE) held until the transaction ends; a runner claiming meanwhile
// skips the row.
func (s *Store) LockAsyncAction(ctx context.Context, projectID, id, owner string) (*async.Action, error) {
	if !storableKeys(projectID, id) {
		return nil, asyncNotFound(id)()
	}
	var row asyncRow
	err := s.db.NewSelect().Model(&row).Where("a.project_id = ? AND a.id = ?", projectID, id).For("UPDATE").Scan(ctx)
	if err != nil {
		return nil, getErr("lock async action", err, asyncNotFound(id))
	}
	if row.Status != string(async.StatusInProgress) || row.LeaseOwner == nil || *row.LeaseOwner != owner {
		return nil, async.ErrLeaseLost
	}
	return row.domain(), nil
}

// UpdateAsyncAction implements async.Store.
func (s *Store) UpdateAsyncAction(ctx context.Context, a *async.Action) error {
	row, err := newAsyncRow(a)
	if err != nil {
		return rowErr(err, a.ProjectID, a.ID, asyncNotFound(a.ID))
	}
	res, err := s.db.NewUpdate().Model(row).WherePK().ExcludeColumn("project_id", "id", "seq").Exec(ctx)
	if err != nil {
		return fail("update async action", err, nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return asyncNotFound(a.ID)()
	}
	return nil
}
