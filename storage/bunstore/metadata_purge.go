package bunstore

import (
	"context"
	"fmt"

	"github.com/promoengine/promo/imports"
)

// The key test is jsonb_exists, the function behind jsonb's ? operator
// (which Bun would read as a placeholder).

// purgeTarget is where an entity keeps its metadata: the table, the
// metadata expression and how an update removes a key (? is the key).
type purgeTarget struct {
	table, meta, set string
}

var purgeTargets = map[imports.MetadataEntity]purgeTarget{
	imports.PurgeCampaigns: {"promo_campaigns", "data->'metadata'", "data = jsonb_set(data, '{metadata}', (data->'metadata') - ?)"},
	imports.PurgeCustomers: {"promo_customers", "metadata", "metadata = metadata - ?"},
	imports.PurgeProducts:  {"promo_products", "metadata", "metadata = metadata - ?"},
	imports.PurgeVouchers:  {"promo_vouchers", "metadata", "metadata = metadata - ?"},
	imports.PurgeOrders:    {"promo_orders", "metadata", "metadata = metadata - ?"},
}

func purgeTargetOf(entity imports.MetadataEntity) (purgeTarget, error) {
	t, ok := purgeTargets[entity]
	if !ok {
		return t, fmt.Errorf("bunstore: no metadata purge of %q", entity)
	}
	return t, nil
}

// CountMetadataKey implements imports.MetadataPurgeStore: a scan of the
// project's rows (no index covers metadata keys).
func (s *Store) CountMetadataKey(ctx context.Context, projectID string, entity imports.MetadataEntity, key string) (int64, error) {
	t, err := purgeTargetOf(entity)
	if err != nil || !storableKeys(projectID, key) {
		return 0, err
	}
	var n int64
	err = s.db.NewRaw("SELECT count(*) FROM "+t.table+" WHERE project_id = ? AND jsonb_exists("+t.meta+", ?)",
		projectID, key).Scan(ctx, &n)
	if err != nil {
		return 0, fail("count metadata key", err, nil)
	}
	return n, nil
}

// PurgeMetadataKey implements imports.MetadataPurgeStore: one statement
// that locks the next rows holding the key off the primary key from the
// cursor on, and updates them.
func (s *Store) PurgeMetadataKey(ctx context.Context, projectID string, entity imports.MetadataEntity, key, afterID string, limit int) (string, int, error) {
	t, err := purgeTargetOf(entity)
	if err != nil || !storableKeys(projectID, key, afterID) || limit <= 0 {
		return "", 0, err
	}
	var ids []string
	err = s.db.NewRaw(`WITH batch AS (
			SELECT id FROM `+t.table+` WHERE project_id = ? AND id > ? AND jsonb_exists(`+t.meta+`, ?)
			ORDER BY id LIMIT ? FOR UPDATE)
		UPDATE `+t.table+` AS t SET `+t.set+` FROM batch
		WHERE t.project_id = ? AND t.id = batch.id RETURNING t.id`,
		projectID, afterID, key, limit, key, projectID).Scan(ctx, &ids)
	if err != nil {
		return "", 0, fail("purge metadata key", err, nil)
	}
	if len(ids) == 0 {
		return "", 0, nil
	}
	last := ids[0]
	for _, id := range ids[1:] {
		last = max(last, id)
	}
	return last, len(ids), nil
}
