-- promo schema, version 41: async actions with a serial key (issue 29: a
-- campaign's voucher jobs) run one at a time per project and key, in the
-- order they were inserted (seq), so an import, update or delete asked
-- for while a campaign's vouchers are generated waits for the generation.
--
-- seq is a bigint column whose default a sequence gives, set apart from
-- ADD COLUMN: a Citus cluster refuses to add an identity column, or a
-- column with a nextval default, to a distributed table with rows. Rows
-- older than this migration keep a NULL seq: they have no serial key, so
-- no claim compares it.
ALTER TABLE promo_async_actions ADD COLUMN serial_key text COLLATE "C" NOT NULL DEFAULT '';
CREATE SEQUENCE promo_async_actions_seq AS bigint;
ALTER TABLE promo_async_actions ADD COLUMN seq bigint;
ALTER TABLE promo_async_actions ALTER COLUMN seq SET DEFAULT nextval('promo_async_actions_seq');
-- What a claim asks of a keyed action: is an earlier one of its key pending?
CREATE INDEX promo_async_actions_serial_idx ON promo_async_actions (project_id, serial_key, seq)
    WHERE status IN ('ENQUEUED', 'IN_PROGRESS') AND serial_key <> '';
