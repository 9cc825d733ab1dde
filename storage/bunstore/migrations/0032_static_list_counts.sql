-- promo schema, version 32: the list-count trigger of version 15 without
-- dynamic SQL (issue 15, redemption throughput).
--
-- promo_count_rows() built its upsert with format() and ran it with
-- EXECUTE, so PostgreSQL parsed and planned that statement on every call:
-- every order and customer a redemption inserts and every voucher it spends
-- paid for it (about 0.3 ms of server time per statement, the spend's
-- UPDATE most of all, although a spend never changes what a list counts).
-- The function below holds the same counting as static SQL, whose plans
-- PL/pgSQL caches per trigger and session. It knows the three shapes the
-- triggers use (TG_ARGV as in version 15):
--
--   ('<list>', 'binned_at IS NULL', 'campaign_id')  vouchers
--   ('<list>', 'binned_at IS NULL', '')             campaigns, customers, products, SKUs
--   ('<list>', 'TRUE', '')                          orders, async actions
--
-- and refuses any other. It also spreads a project's counter over 64
-- stripes instead of 8: a transaction holds its stripe's row lock until it
-- ends, and concurrent transactions have consecutive ids, so with 8
-- stripes 32 concurrent redemptions (each inserting an order) queued four
-- deep on them; readers sum the stripes as before.
--
-- Each branch only gathers the statement's rows as
-- (project_id, per-value scope, ±1); one upsert adds them up, in key order
-- as before. Column references are resolved per trigger (PL/pgSQL compiles
-- a trigger function once per trigger), so a branch names only columns its
-- tables have. The search_path is the one the function is created with
-- (the schema the migrations run in), as the schema-qualified EXECUTE was.
CREATE OR REPLACE FUNCTION promo_count_rows() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $fn$
DECLARE
    v_list   text := TG_ARGV[0];
    v_stripe smallint := (txid_current() % 64)::smallint;
    v_shape  text := TG_ARGV[1] || '|' || TG_ARGV[2];
    ps       text[];
    pers     text[];
    ds       int[];
BEGIN
    IF v_shape = 'binned_at IS NULL|campaign_id' THEN
        IF TG_OP = 'INSERT' THEN
            SELECT array_agg(project_id), array_agg('campaign_id=' || campaign_id), array_agg(1)
            INTO ps, pers, ds FROM new_rows WHERE binned_at IS NULL;
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(project_id), array_agg('campaign_id=' || campaign_id), array_agg(-1)
            INTO ps, pers, ds FROM old_rows WHERE binned_at IS NULL;
        ELSE
            SELECT array_agg(r.project_id), array_agg(r.per), array_agg(r.d) INTO ps, pers, ds FROM (
                SELECT project_id, 'campaign_id=' || campaign_id AS per, 1 AS d FROM new_rows WHERE binned_at IS NULL
                UNION ALL
                SELECT project_id, 'campaign_id=' || campaign_id, -1 FROM old_rows WHERE binned_at IS NULL) AS r;
        END IF;
    ELSIF v_shape = 'binned_at IS NULL|' THEN
        IF TG_OP = 'INSERT' THEN
            SELECT array_agg(project_id), array_agg(NULL::text), array_agg(1)
            INTO ps, pers, ds FROM new_rows WHERE binned_at IS NULL;
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(project_id), array_agg(NULL::text), array_agg(-1)
            INTO ps, pers, ds FROM old_rows WHERE binned_at IS NULL;
        ELSE
            SELECT array_agg(r.project_id), array_agg(NULL::text), array_agg(r.d) INTO ps, pers, ds FROM (
                SELECT project_id, 1 AS d FROM new_rows WHERE binned_at IS NULL
                UNION ALL
                SELECT project_id, -1 FROM old_rows WHERE binned_at IS NULL) AS r;
        END IF;
    ELSIF v_shape = 'TRUE|' THEN
        IF TG_OP = 'INSERT' THEN
            SELECT array_agg(project_id), array_agg(NULL::text), array_agg(1)
            INTO ps, pers, ds FROM new_rows;
        ELSIF TG_OP = 'DELETE' THEN
            SELECT array_agg(project_id), array_agg(NULL::text), array_agg(-1)
            INTO ps, pers, ds FROM old_rows;
        ELSE
            RETURN NULL; -- an update neither adds nor removes a row of such a list
        END IF;
    ELSE
        RAISE EXCEPTION 'promo_count_rows: unknown list shape (%, %)', TG_ARGV[1], TG_ARGV[2];
    END IF;
    IF ps IS NULL THEN
        RETURN NULL; -- no row of the statement is counted
    END IF;
    INSERT INTO promo_list_counts AS c (project_id, list, scope, stripe, n)
    SELECT r.project_id, v_list, k.scope, v_stripe, sum(r.d)
    FROM unnest(ps, pers, ds) AS r(project_id, per, d)
    CROSS JOIN LATERAL (VALUES (''), (r.per)) AS k(scope)
    WHERE k.scope IS NOT NULL
    GROUP BY r.project_id, k.scope
    HAVING sum(r.d) <> 0
    ORDER BY r.project_id, k.scope
    ON CONFLICT (project_id, list, scope, stripe) DO UPDATE SET n = c.n + excluded.n;
    RETURN NULL;
END
$fn$;
