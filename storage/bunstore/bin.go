package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/bin"
	"github.com/promoengine/promo/promotype"
)

// binEntriesSQL is the bin of project ?: its binned campaigns, products,
// SKUs of live products and vouchers of live campaigns (or of none), as
// bin entries (bin.Entry); the partial indexes of migration 0056 hold the
// binned rows alone. The project id is its only argument.
const binEntriesSQL = `(
	SELECT 'bin_' || c.id AS id, c.binned_at AS created_at, c.id AS resource_id, 'campaign' AS resource_type,
		c.name AS resource_name, NULL::text AS resource_parent_id
	FROM promo_campaigns c WHERE c.project_id = ?0 AND c.binned_at IS NOT NULL
	UNION ALL
	SELECT 'bin_' || v.id, v.binned_at, v.id, 'voucher', v.code, v.campaign_id
	FROM promo_vouchers v WHERE v.project_id = ?0 AND v.binned_at IS NOT NULL AND (v.campaign_id IS NULL OR EXISTS (
		SELECT 1 FROM promo_campaigns c WHERE c.project_id = v.project_id AND c.id = v.campaign_id AND c.binned_at IS NULL))
	UNION ALL
	SELECT 'bin_' || p.id, p.binned_at, p.id, 'product', coalesce(p.name, ''), NULL
	FROM promo_products p WHERE p.project_id = ?0 AND p.binned_at IS NOT NULL
	UNION ALL
	SELECT 'bin_' || s.id, s.binned_at, s.id, 'sku', coalesce(s.sku, ''), s.product_id
	FROM promo_skus s WHERE s.project_id = ?0 AND s.binned_at IS NOT NULL AND NOT EXISTS (
		SELECT 1 FROM promo_products p WHERE p.project_id = s.project_id AND p.id = s.product_id AND p.binned_at IS NOT NULL)
) AS e`

// binEntryRow is a row of binEntriesSQL.
type binEntryRow struct {
	ID               string    `bun:"id"`
	CreatedAt        time.Time `bun:"created_at"`
	ResourceID       string    `bun:"resource_id"`
	ResourceType     string    `bun:"resource_type"`
	ResourceName     string    `bun:"resource_name"`
	ResourceParentID *string   `bun:"resource_parent_id"`
}

// binColumns are the bin list's filterable fields.
var binColumns = columns{
	"id":            {"id", promotype.FieldString},
	"resource_id":   {"resource_id", promotype.FieldString},
	"resource_type": {"resource_type", promotype.FieldString},
	"resource_name": {"resource_name", promotype.FieldString},
}

func (r *binEntryRow) entry(projectID string) *bin.Entry {
	return &bin.Entry{ID: r.ID, CreatedAt: promotype.NewTime(r.CreatedAt), ResourceID: r.ResourceID, ResourceType: r.ResourceType,
		ResourceName: r.ResourceName, ResourceParentID: r.ResourceParentID, Object: r.ResourceType, ProjectID: projectID}
}

// binSelect selects the project's bin entries.
func (s *Store) binSelect(projectID string) *bun.SelectQuery {
	return s.db.NewSelect().TableExpr(binEntriesSQL, projectID).ColumnExpr("e.*")
}

// ListBinEntries implements bin.Store.
func (s *Store) ListBinEntries(ctx context.Context, projectID string, q promotype.Query, after string) ([]*bin.Entry, error) {
	if !storableKeys(projectID, after) {
		return nil, nil
	}
	sel, err := binColumns.idPage(s.binSelect(projectID), "e", q, after)
	if err != nil {
		return nil, err
	}
	var rows []binEntryRow
	if err := sel.Limit(int64(q.Limit)).Scan(ctx, &rows); err != nil {
		return nil, fail("list bin entries", err, nil)
	}
	out := make([]*bin.Entry, len(rows))
	for i := range rows {
		out[i] = rows[i].entry(projectID)
	}
	return out, nil
}

// GetBinEntry implements bin.Store.
func (s *Store) GetBinEntry(ctx context.Context, projectID, id string) (*bin.Entry, error) {
	if !storableKeys(projectID, id) || !strings.HasPrefix(id, bin.IDPrefix) {
		return nil, promotype.NotFound("bin_entry", id)
	}
	var row binEntryRow
	err := s.binSelect(projectID).Where("e.id = ?", id).Limit(1).Scan(ctx, &row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, promotype.NotFound("bin_entry", id)
	}
	if err != nil {
		return nil, fail("get bin entry", err, nil)
	}
	return row.entry(projectID), nil
}
