package bunstore

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/uptrace/bun"
)

// Citus mode (distributed PostgreSQL, docs/architecture.md "Scaling out on
// Citus"). When the database has the citus extension, Migrate runs the same
// migrations and, after each file, distributes the tables it created:
//
//   - every project-scoped table is distributed by project_id and
//     co-located with the others (colocate_with 'default': one shard of
//     every table holds one project's rows), so a statement filtered on
//     project_id is a single-shard router query and a join on project_id
//     stays on one worker;
//   - the tables read by the lookups that start without a project id (app
//     keys, client keys, OAuth tokens, management keys) and the global
//     tables (projects, the credential generation) are reference tables:
//     small, written rarely, copied to every node so that any lookup by key
//     reads one local copy;
//   - promo_schema_migrations stays a plain table of the coordinator, where
//     Migrate runs.
//
// A table the map below does not name stops Migrate: a new migration must
// say how its tables are placed.
type citusPlacement int

const (
	citusByProject citusPlacement = iota + 1
	citusReference
	citusLocal
)

// citusTables places every table of the migrations.
var citusTables = map[string]citusPlacement{
	"promo_schema_migrations": citusLocal,

	"promo_projects":        citusReference,
	"promo_app_keys":        citusReference,
	"promo_management_keys": citusReference,
	"promo_client_keys":     citusReference,
	"promo_oauth_tokens":    citusReference,
	"promo_auth_generation": citusReference,

	"promo_async_actions":        citusByProject,
	"promo_brandings":            citusByProject,
	"promo_campaigns":            citusByProject,
	"promo_campaign_templates":   citusByProject,
	"promo_categories":           citusByProject,
	"promo_custom_event_schemas": citusByProject,
	"promo_custom_events":        citusByProject,
	"promo_customer_activities":  citusByProject,
	"promo_customers":            citusByProject,
	"promo_earning_claims":       citusByProject,
	"promo_earning_rule_locks":   citusByProject,
	"promo_earning_rules":        citusByProject,
	"promo_events":               citusByProject,
	"promo_export_chunks":        citusByProject,
	"promo_exports":              citusByProject,
	"promo_holders":              citusByProject,
	"promo_import_pages":         citusByProject,
	"promo_list_counts":          citusByProject,
	"promo_locations":            citusByProject,
	"promo_loyalty_buckets":      citusByProject,
	"promo_loyalty_tier_changes": citusByProject,
	"promo_loyalty_tier_holds":   citusByProject,
	"promo_loyalty_pending":      citusByProject,
	"promo_loyalty_tiers":        citusByProject,
	"promo_metadata_schemas":     citusByProject,
	"promo_orders":               citusByProject,
	"promo_product_collections":  citusByProject,
	"promo_products":             citusByProject,
	"promo_project_users":        citusByProject,
	"promo_promotion_stacks":     citusByProject,
	"promo_promotion_tiers":      citusByProject,
	"promo_publications":         citusByProject,
	"promo_redemption_counters":  citusByProject,
	"promo_redemptions":          citusByProject,
	"promo_referral_conversions": citusByProject,
	"promo_referral_holders":     citusByProject,
	"promo_reward_assignments":   citusByProject,
	"promo_rewards":              citusByProject,
	"promo_rule_assignments":     citusByProject,
	"promo_segment_members":      citusByProject,
	"promo_segments":             citusByProject,
	"promo_skus":                 citusByProject,
	"promo_stacking_rules":       citusByProject,
	"promo_validation_rules":     citusByProject,
	"promo_voucher_sessions":     citusByProject,
	"promo_voucher_transactions": citusByProject,
	"promo_vouchers":             citusByProject,
	"promo_webhook_sendouts":     citusByProject,
	"promo_webhooks":             citusByProject,
}

// citusKeyFixes are the statements that make a table's unique keys include
// project_id before it is distributed (Citus refuses a primary key without
// the distribution column). The outbox tables are keyed by a global
// sequence on one node; on the cluster the same sequence, prefixed by the
// project, is the key, and (project_id, id) stays unique as before.
var citusKeyFixes = map[string]string{
	"promo_events":           `ALTER TABLE promo_events DROP CONSTRAINT promo_events_pkey, ADD PRIMARY KEY (project_id, seq)`,
	"promo_webhook_sendouts": `ALTER TABLE promo_webhook_sendouts DROP CONSTRAINT promo_webhook_sendouts_pkey, ADD PRIMARY KEY (project_id, seq)`,
}

// hasCitus reports whether the citus extension is installed in db's
// database.
func hasCitus(ctx context.Context, db bun.IDB) (bool, error) {
	var on bool
	err := db.NewRaw("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')").Scan(ctx, &on)
	return on, err
}

// citusSession sets what a migration transaction needs on the coordinator:
// DDL over many shards in one transaction runs on one connection per node
// (sequential mode), and the list-count triggers may be created on
// distributed tables (they then fire on the workers, per shard; their
// functions only write promo_list_counts rows of the rows' own projects,
// co-located with them).
func citusSession(ctx context.Context, tx bun.Tx) error {
	for _, set := range []string{
		"SET LOCAL citus.multi_shard_modify_mode TO 'sequential'",
		"SET LOCAL citus.enable_unsafe_triggers TO on",
	} {
		if _, err := tx.ExecContext(ctx, set); err != nil {
			return fmt.Errorf("citus: %s: %w", set, err)
		}
	}
	return nil
}

// distributeNew places every table of the current schema that is not yet
// a Citus table, in creation order (a referenced table before the tables
// whose foreign keys point to it).
func distributeNew(ctx context.Context, tx bun.Tx) error {
	var tables []string
	err := tx.NewRaw(`SELECT c.relname FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
		  AND NOT EXISTS (SELECT 1 FROM pg_dist_partition d WHERE d.logicalrelid = c.oid)
		ORDER BY c.oid`).Scan(ctx, &tables)
	if err != nil {
		return fmt.Errorf("citus: list new tables: %w", err)
	}
	for _, t := range tables {
		var stmt string
		switch citusTables[t] {
		case citusLocal:
			continue
		case citusReference:
			stmt = "SELECT create_reference_table(?)"
		case citusByProject:
			stmt = "SELECT create_distributed_table(?, 'project_id', colocate_with => 'default')"
		default:
			return fmt.Errorf("citus: table %s has no placement (storage/bunstore/citus.go citusTables)", t)
		}
		if fix := citusKeyFixes[t]; fix != "" {
			if _, err := tx.ExecContext(ctx, fix); err != nil {
				return fmt.Errorf("citus: key of %s: %w", t, err)
			}
		}
		if _, err := tx.ExecContext(ctx, stmt, t); err != nil {
			return fmt.Errorf("citus: place %s: %w", t, err)
		}
	}
	return nil
}

// splitStatements splits a migration script into its statements for the
// Citus coordinator, which propagates some DDL to the workers with the text
// of the whole query it received: a script sent in one piece fails there
// ("cannot insert multiple commands into a prepared statement"). It knows
// the SQL of the migrations: quoted strings and identifiers, dollar-quoted
// bodies, and line and block comments, outside of which a semicolon ends a
// statement.
func splitStatements(script string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		if s := strings.TrimSpace(script[start:end]); s != "" && !onlyComments(s) {
			out = append(out, s)
		}
		start = end + 1
	}
	for i := 0; i < len(script); i++ {
		switch c := script[i]; {
		case c == '-' && strings.HasPrefix(script[i:], "--"):
			if j := strings.IndexByte(script[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(script)
			}
		case c == '/' && strings.HasPrefix(script[i:], "/*"):
			if j := strings.Index(script[i+2:], "*/"); j >= 0 {
				i += j + 3
			} else {
				i = len(script)
			}
		case c == '\'' || c == '"':
			if j := strings.IndexByte(script[i+1:], c); j >= 0 {
				i += j + 1 // a doubled quote is two quoted strings: same end
			} else {
				i = len(script)
			}
		case c == '$':
			if tag := dollarTag(script[i:]); tag != "" {
				if j := strings.Index(script[i+len(tag):], tag); j >= 0 {
					i += len(tag) + j + len(tag) - 1
				} else {
					i = len(script)
				}
			}
		case c == ';':
			flush(i)
		}
	}
	if start < len(script) {
		flush(len(script))
	}
	return out
}

// dollarTag returns the opening $tag$ at the start of s, or "".
func dollarTag(s string) string {
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '$':
			return s[:j+1]
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 1 && c >= '0' && c <= '9':
		default:
			return ""
		}
	}
	return ""
}

// onlyComments reports whether s holds nothing but comments.
func onlyComments(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "--") {
			return false
		}
	}
	return true
}

// clusterMode caches whether a Store's database is a Citus coordinator.
type clusterMode struct {
	mu    sync.Mutex
	known bool
	citus bool
}

// onCitus reports whether s's database has the citus extension, asking it
// once (through db: the connection or transaction the caller holds, never
// another of the pool, which a caller holding locks could wait for). Only
// the work that spans projects (the async runner's and the webhook
// dispatchers' claims) and token issue ask.
func (s *Store) onCitus(ctx context.Context, db bun.IDB) (bool, error) {
	m := s.cluster
	if m == nil {
		m = &clusterMode{}
		s.cluster = m
	}
	m.mu.Lock()
	known, on := m.known, m.citus
	m.mu.Unlock()
	if known {
		return on, nil
	}
	on, err := hasCitus(ctx, db)
	if err != nil {
		return false, fail("detect citus", err, nil)
	}
	m.mu.Lock()
	m.known, m.citus = true, on
	m.mu.Unlock()
	return on, nil
}
