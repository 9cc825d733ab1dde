package bunstore

import (
	"context"
	"errors"
	"reflect"
	"strings"

	"github.com/uptrace/bun"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/redemption"
)

// voucherCustomerRow is what voucherCustomerStatement answers: the
// voucher with its assignments and the customer, each all NULL (zero)
// when missing.
type voucherCustomerRow struct {
	voucherRulesRow `bun:",extend"`
	Customer        customerRow `bun:"embed:c__"`
}

// voucherCustomerStatement reads the live voucher with code $2 of project
// $1 as voucherRulesStatement does, and the live customer $3 names: the
// one with id $3 when $4 (the ref is an engine id), else the one with
// source id $3; one row, whatever is missing.
var voucherCustomerStatement = newPrepared(voucherKeys.table, func(db bun.IDB) string {
	var cols []string
	for _, f := range db.Dialect().Tables().Get(reflect.TypeFor[customerRow]()).Fields {
		cols = append(cols, "c."+string(f.SQLName)+" AS c__"+f.Name)
	}
	customer := func(where string) string {
		return "(SELECT " + strings.Join(cols, ", ") + " FROM promo_customers AS c WHERE c.project_id = $1 AND " + where + " AND c." + customerKeys.live + ")"
	}
	return `SELECT v.*, c.* FROM (SELECT 1) AS one
		LEFT JOIN LATERAL (` + voucherRulesStatement.sql(db) + `) AS v ON true
		LEFT JOIN LATERAL (` + customer("c.id = $3 AND $4::boolean") + ` UNION ALL ` + customer("c.source_id = $3") + ` LIMIT 1) AS c ON true`
})

// FindVoucherAndCustomer implements redemption.VoucherCustomerReader with
// one prepared statement.
func (s *Store) FindVoucherAndCustomer(ctx context.Context, projectID, code, customerRef string) (redemption.VoucherAndCustomer, error) {
	var out redemption.VoucherAndCustomer
	if !storableKeys(projectID, code, customerRef) { // nothing stored has them: the separate reads say so
		var err error
		if out.Voucher, out.Assignments, err = s.FindVoucherByCodeWithAssignments(ctx, projectID, code); err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return out, err
		}
		if out.Customer, err = customer.Resolve(ctx, s, projectID, customerRef); err != nil && !errors.Is(err, promotype.ErrNotFound) {
			return out, err
		}
		return out, nil
	}
	var r voucherCustomerRow
	byID := strings.HasPrefix(customerRef, promotype.PrefixCustomer)
	if err := getPrepared(ctx, s.db, voucherCustomerStatement, &r, projectID, code, customerRef, byID); err != nil {
		return out, fail("get voucher and customer", err, nil)
	}
	if r.ID != "" {
		v, as, err := r.voucherRulesRow.domain()
		if err != nil {
			return out, err
		}
		out.Voucher, out.Assignments = v, as
	}
	if r.Customer.ID != "" {
		c, err := r.Customer.domain()
		if err != nil {
			return out, err
		}
		out.Customer = c
	}
	return out, nil
}

var _ redemption.VoucherCustomerReader = (*Store)(nil)
