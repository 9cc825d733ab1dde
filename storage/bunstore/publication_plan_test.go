package bunstore_test

import (
	"strings"
	"testing"
)

// TestClaimPlanUsesFreeIndex checks, with EXPLAIN, that a campaign
// publication reads its free vouchers off promo_vouchers_free_idx (no
// Seq Scan, no Sort), so a claim does not read the vouchers already held
// however many a campaign has.
func TestClaimPlanUsesFreeIndex(t *testing.T) {
	db, _ := migrated(t)
	plan := explain(t, db, `SELECT id FROM promo_vouchers
		WHERE project_id = 'proj_a' AND campaign_id = 'camp_1' AND binned_at IS NULL AND holder_id IS NULL AND active = 'true'
		ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`)
	if !strings.Contains(plan, "promo_vouchers_free_idx") || strings.Contains(plan, "Seq Scan") || strings.Contains(plan, "Sort") {
		t.Errorf("the claim does not read promo_vouchers_free_idx in id order:\n%s", plan)
	}
}
