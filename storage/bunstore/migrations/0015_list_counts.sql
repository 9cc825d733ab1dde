-- promo schema, version 15: list totals kept by counters, and the voucher
-- list indexes (issue 17 item 2).
--
-- A list returns its page and the exact number of matching rows. Counting
-- the matches of an unfiltered list costs a scan of every live row of the
-- project (seconds at ten million vouchers), so the number of live rows of
-- each list is kept in promo_list_counts by statement-level triggers: every
-- statement that inserts, bins (sets binned_at), restores or deletes rows
-- adds its net change, in its own transaction, whatever wrote it (a single
-- insert, a multi-row INSERT, COPY of a generation chunk, the async
-- delete job, a hand-written bulk load). A rollback takes the change back
-- with the rows.
--
-- scope '' is the whole project; a list whose rows are also counted per
-- value of a column (vouchers per campaign) has the rows
-- '<column>=<value>' as well.
--
-- Each transaction adds to one of 8 stripes (its transaction id modulo 8),
-- so concurrent writers of one project seldom wait for each other's
-- counter row; the total is the sum of the stripes. Within a statement the
-- rows are upserted in key order, and the project row ('') sorts first, so
-- two writers of one stripe queue on it instead of deadlocking.
CREATE TABLE promo_list_counts (
    project_id text COLLATE "C" NOT NULL,
    list       text COLLATE "C" NOT NULL,
    scope      text COLLATE "C" NOT NULL,
    stripe     smallint NOT NULL,
    n          bigint NOT NULL,
    PRIMARY KEY (project_id, list, scope, stripe)
);

-- promo_count_rows() is the trigger: TG_ARGV[0] is the list name,
-- TG_ARGV[1] the SQL predicate of the rows the list shows, TG_ARGV[2] the
-- column also counted per value ('' for none). It reads the statement's
-- transition tables (new_rows, old_rows).
CREATE FUNCTION promo_count_rows() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
    live    text := TG_ARGV[1];
    per     text := CASE WHEN TG_ARGV[2] = '' THEN 'NULL::text'
                         ELSE format('%L || %I', TG_ARGV[2] || '=', TG_ARGV[2]) END;
    changes text;
BEGIN
    changes := CASE TG_OP
        WHEN 'INSERT' THEN format('SELECT project_id, %s AS per, 1 AS d FROM new_rows WHERE %s', per, live)
        WHEN 'DELETE' THEN format('SELECT project_id, %s AS per, -1 AS d FROM old_rows WHERE %s', per, live)
        ELSE format('SELECT project_id, %1$s AS per, 1 AS d FROM new_rows WHERE %2$s
                     UNION ALL SELECT project_id, %1$s, -1 FROM old_rows WHERE %2$s', per, live)
    END;
    EXECUTE format($q$
        INSERT INTO %I.promo_list_counts AS c (project_id, list, scope, stripe, n)
        SELECT r.project_id, %L, k.scope, (txid_current() %% 8)::smallint, sum(r.d)
        FROM (%s) AS r CROSS JOIN LATERAL (VALUES (''), (r.per)) AS k(scope)
        WHERE k.scope IS NOT NULL
        GROUP BY r.project_id, k.scope
        HAVING sum(r.d) <> 0
        ORDER BY r.project_id, k.scope
        ON CONFLICT (project_id, list, scope, stripe) DO UPDATE SET n = c.n + excluded.n$q$,
        TG_TABLE_SCHEMA, TG_ARGV[0], changes);
    RETURN NULL;
END
$fn$;

-- The triggers come before the backfill: creating them locks the table
-- against writes until this migration commits, so no write falls between
-- the count and the first counted statement.
CREATE TRIGGER promo_vouchers_count_insert AFTER INSERT ON promo_vouchers
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('vouchers', 'binned_at IS NULL', 'campaign_id');
CREATE TRIGGER promo_vouchers_count_update AFTER UPDATE ON promo_vouchers
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('vouchers', 'binned_at IS NULL', 'campaign_id');
CREATE TRIGGER promo_vouchers_count_delete AFTER DELETE ON promo_vouchers
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION promo_count_rows('vouchers', 'binned_at IS NULL', 'campaign_id');

INSERT INTO promo_list_counts (project_id, list, scope, stripe, n)
SELECT project_id, 'vouchers', '', 0, count(*) FROM promo_vouchers WHERE binned_at IS NULL GROUP BY project_id;
INSERT INTO promo_list_counts (project_id, list, scope, stripe, n)
SELECT project_id, 'vouchers', 'campaign_id=' || campaign_id, 0, count(*) FROM promo_vouchers
WHERE binned_at IS NULL AND campaign_id IS NOT NULL GROUP BY project_id, campaign_id;

-- Voucher lists show live vouchers only, so every list index leaves the
-- bin out. One index per order (nulls first, as the lists order, so the
-- descending lists read it backwards) and per filter, each followed by the
-- default order's columns so that a filtered list in created_at order
-- reads its page off the index too. Generated vouchers get ids and
-- created_at in increasing order, so a generation appends to each of them.
-- id: the primary key. code: the unique live code, rebuilt nulls first
-- (code is never null: uniqueness is unchanged) so that it serves the code
-- order; code is unique among live vouchers, so the id tie-break is an
-- incremental sort of one-row groups. A second code index would double the
-- one random-order index a generation writes. The flags (type, active,
-- is_referral_code) get no index of their own: with one they slowed a
-- 1,000,000-voucher generation from 14.5 s to 21.5 s, and their lists read
-- the created_at index and filter it (a page of a common value is as fast;
-- the total of a filtered list is counted either way).
DROP INDEX promo_vouchers_code_key;
CREATE UNIQUE INDEX promo_vouchers_code_key ON promo_vouchers (project_id, code NULLS FIRST) WHERE binned_at IS NULL;
CREATE INDEX promo_vouchers_list_created_idx ON promo_vouchers (project_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_vouchers_list_updated_idx ON promo_vouchers (project_id, updated_at NULLS FIRST, id)
    WHERE binned_at IS NULL;
CREATE INDEX promo_vouchers_list_campaign_idx ON promo_vouchers (project_id, campaign_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND campaign_id IS NOT NULL;
CREATE INDEX promo_vouchers_list_category_idx ON promo_vouchers (project_id, category_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND category_id IS NOT NULL;
CREATE INDEX promo_vouchers_list_holder_idx ON promo_vouchers (project_id, holder_id, created_at NULLS FIRST, id)
    WHERE binned_at IS NULL AND holder_id IS NOT NULL;
CREATE INDEX promo_vouchers_list_start_idx ON promo_vouchers (project_id, start_date)
    WHERE binned_at IS NULL AND start_date IS NOT NULL;
CREATE INDEX promo_vouchers_list_expiration_idx ON promo_vouchers (project_id, expiration_date)
    WHERE binned_at IS NULL AND expiration_date IS NOT NULL;
