-- promo schema, version 18: voucher transactions (issue 15).
--
-- promo_voucher_transactions holds every movement of a gift card's credits
-- or a loyalty card's points as its document (doc). A row is written once,
-- in the transaction that moves the balance, while that transaction holds
-- the voucher's row (the spend's UPDATE or the balance change's lock), so
-- seq orders a voucher's transactions as their changes committed (a
-- campaign's follow the same sequence).
CREATE TABLE promo_voucher_transactions (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    voucher_id  text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C",
    seq         bigserial NOT NULL,
    created_at  timestamptz NOT NULL,
    doc         jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX promo_voucher_transactions_voucher_idx ON promo_voucher_transactions (project_id, voucher_id, seq);
CREATE INDEX promo_voucher_transactions_campaign_idx ON promo_voucher_transactions (project_id, campaign_id, seq) WHERE campaign_id IS NOT NULL;
