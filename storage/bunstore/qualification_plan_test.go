package bunstore_test

import (
	"strings"
	"testing"
)

// TestPublicVouchersPlanUsesIndexes checks that the public vouchers of a
// qualification come off promo_vouchers_public_idx (campaign_id NULL, in
// the order read) and per STANDALONE campaign found through
// promo_campaigns_standalone_idx, never from a scan of the project's
// vouchers or campaigns.
func TestPublicVouchersPlanUsesIndexes(t *testing.T) {
	db, _ := migrated(t)
	plan := explain(t, db, `SELECT * FROM (
		(SELECT v.* FROM promo_vouchers AS v
			WHERE v.project_id = 'proj_a' AND v.campaign_id IS NULL AND v.binned_at IS NULL AND v.holder_id IS NULL AND v.active = 'true'
				AND (v.created_at < now() OR (v.created_at = now() AND v.code > 'A'))
			ORDER BY v.created_at DESC, v.code LIMIT 1000)
		UNION ALL
		(SELECT v.* FROM promo_campaigns AS c
			JOIN LATERAL (SELECT v.* FROM promo_vouchers AS v
				WHERE v.project_id = c.project_id AND v.campaign_id = c.id AND v.binned_at IS NULL AND v.holder_id IS NULL AND v.active = 'true'
					AND (v.created_at < now() OR (v.created_at = now() AND v.code > 'A'))
				ORDER BY v.created_at DESC, v.code LIMIT 1000) AS v ON true
			WHERE c.project_id = 'proj_a' AND c.type = 'STANDALONE' AND c.binned_at IS NULL)
		) AS v ORDER BY v.created_at DESC, v.code LIMIT 1000`)
	for _, idx := range []string{"promo_vouchers_public_idx", "promo_campaigns_standalone_idx"} {
		if !strings.Contains(plan, idx) {
			t.Errorf("the public vouchers do not read %s:\n%s", idx, plan)
		}
	}
	if strings.Contains(plan, "Seq Scan") {
		t.Errorf("the public vouchers scan a table:\n%s", plan)
	}
}
