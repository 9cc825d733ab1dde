package bunstore

import (
	"context"
	"slices"

	"github.com/uptrace/bun"
)

// projectTables returns the tables of the store's schema that have a
// project_id column (partitions left out: a delete from the parent reaches
// them), in the order a project's rows can be deleted: a table that a
// foreign key of another one references comes after it, and the list
// counters (promo_list_counts, which the delete triggers of the counted
// tables write) come last. Reading the catalogue rather than a list of
// names means a table added by a later migration is purged too.
func projectTables(ctx context.Context, db bun.IDB) ([]string, error) {
	var tables []string
	err := db.NewRaw(`SELECT c.relname FROM pg_attribute a
		JOIN pg_class c ON c.oid = a.attrelid
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
		  AND a.attname = 'project_id' AND NOT a.attisdropped
		ORDER BY c.relname`).Scan(ctx, &tables)
	if err != nil {
		return nil, fail("project tables", err, nil)
	}
	var refs []struct {
		From string `bun:"from_table"`
		To   string `bun:"to_table"`
	}
	err = db.NewRaw(`SELECT f.relname AS from_table, t.relname AS to_table FROM pg_constraint k
		JOIN pg_class f ON f.oid = k.conrelid
		JOIN pg_class t ON t.oid = k.confrelid
		WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace AND f.oid <> t.oid`).Scan(ctx, &refs)
	if err != nil {
		return nil, fail("project tables", err, nil)
	}
	return deleteOrder(tables, refs), nil
}

// deleteOrder orders tables so that each comes before the tables its
// foreign keys (refs: from → to) reference, with promo_list_counts last;
// tables otherwise keep their order.
func deleteOrder(tables []string, refs []struct {
	From string `bun:"from_table"`
	To   string `bun:"to_table"`
}) []string {
	referencedBy := map[string][]string{} // table → the tables referencing it
	for _, r := range refs {
		referencedBy[r.To] = append(referencedBy[r.To], r.From)
	}
	out := make([]string, 0, len(tables))
	done := map[string]bool{}
	var visit func(t string, path []string)
	visit = func(t string, path []string) {
		if done[t] || slices.Contains(path, t) {
			return
		}
		for _, from := range referencedBy[t] {
			if slices.Contains(tables, from) {
				visit(from, append(path, t))
			}
		}
		done[t] = true
		out = append(out, t)
	}
	for _, t := range tables {
		if t != "promo_list_counts" {
			visit(t, nil)
		}
	}
	if slices.Contains(tables, "promo_list_counts") {
		out = append(out, "promo_list_counts")
	}
	return out
}
