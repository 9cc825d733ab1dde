-- promo schema, version 17: validation sessions (LOCK reservations).
--
-- promo_voucher_sessions holds what a session reserves on a voucher: a unit
-- of its redemption quantity, gift credits, loyalty points, until
-- expires_at. promo_vouchers.reserved_until is the latest expiry of the
-- voucher's reservations, NULL when it holds none: every reservation write
-- sets it under the voucher's row lock, so the spend's conditional UPDATE
-- only checks that column of the row it updates (its recheck after a
-- concurrent commit sees it), and the session-aware spend counts the
-- reservations under the row lock, in a statement of its own. A
-- reservation past its expiry simply stops counting; the next write that
-- holds the voucher's lock deletes it. Rows of a deleted voucher are left
-- (nothing reads them: reads go through a live voucher).
ALTER TABLE promo_vouchers ADD COLUMN reserved_until timestamptz;

CREATE TABLE promo_voucher_sessions (
    project_id text COLLATE "C" NOT NULL,
    voucher_id text COLLATE "C" NOT NULL,
    key        text COLLATE "C" NOT NULL,
    quantity   bigint NOT NULL DEFAULT 0,
    credits    bigint NOT NULL DEFAULT 0,
    points     bigint NOT NULL DEFAULT 0,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (project_id, voucher_id, key)
);
-- A session's reservations across vouchers (a LOCK reusing a key replaces them).
CREATE INDEX promo_voucher_sessions_key_idx ON promo_voucher_sessions (project_id, key);
