package bunstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// voucherRulesRow is a voucher row with the rule assignments of the
// voucher and of its campaign, as JSON.
type voucherRulesRow struct {
	voucherRow  `bun:",extend"`
	Assignments json.RawMessage `bun:"assignments,scanonly"`
}

// assignmentJSON is an assignment as voucherRulesStatement aggregates it.
type assignmentJSON struct {
	ID                string    `json:"id"`
	RuleID            string    `json:"rule_id"`
	RelatedObjectID   string    `json:"related_object_id"`
	RelatedObjectType string    `json:"related_object_type"`
	CreatedAt         time.Time `json:"created_at"`
}

// voucherRulesStatement reads the live voucher $2 of project $1 and the
// assignments of it and of its campaign in AssignmentsOf's order.
var voucherRulesStatement = newPrepared(voucherKeys.table, func(db bun.IDB) string {
	return db.NewSelect().Model((*voucherRulesRow)(nil)).ColumnExpr("?TableColumns").
		ColumnExpr(`coalesce((SELECT json_agg(json_build_object('id', a.id, 'rule_id', a.rule_id, 'related_object_id', a.related_object_id,
			'related_object_type', a.related_object_type, 'created_at', a.created_at) ORDER BY a.created_at, a.id)
			FROM promo_rule_assignments AS a WHERE a.project_id = v.project_id AND (
				(a.related_object_type = ? AND a.related_object_id = v.id) OR
				(a.related_object_type = ? AND a.related_object_id = v.campaign_id))), '[]') AS assignments`,
			rule.RelatedVoucher, rule.RelatedCampaign).
		Where("v.project_id = ? AND v.code = ? AND v."+voucherKeys.live, placeholder(1), placeholder(2)).String()
})

// FindVoucherByCodeWithAssignments implements
// redemption.VoucherRulesReader with one prepared statement.
func (s *Store) FindVoucherByCodeWithAssignments(ctx context.Context, projectID, code string) (*voucher.Voucher, []*rule.Assignment, error) {
	if !storableKeys(projectID, code) {
		return nil, nil, voucherNotFound(code)()
	}
	var r voucherRulesRow
	if err := getPrepared(ctx, s.db, voucherRulesStatement, &r, projectID, code); err != nil {
		return nil, nil, getErr("get voucher", err, voucherNotFound(code))
	}
	v, err := r.domain()
	if err != nil {
		return nil, nil, err
	}
	var rows []assignmentJSON
	if err := json.Unmarshal(r.Assignments, &rows); err != nil {
		return nil, nil, err
	}
	as := make([]*rule.Assignment, len(rows))
	for i, a := range rows {
		as[i] = &rule.Assignment{ID: a.ID, ProjectID: projectID, RuleID: a.RuleID, RelatedObjectID: a.RelatedObjectID,
			RelatedObjectType: a.RelatedObjectType, CreatedAt: domainTime(a.CreatedAt.UTC())}
	}
	return v, as, nil
}
