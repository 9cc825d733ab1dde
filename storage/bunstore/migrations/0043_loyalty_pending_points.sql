-- promo schema, version 43: pending points (issue 27). Each entry is its
-- JSON document with the columns the lists and the activation of due
-- entries read: a card's or a program's PENDING entries in id order, and a
-- project's PENDING entries by due time.
CREATE TABLE promo_loyalty_pending (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    voucher_id  text COLLATE "C" NOT NULL,
    campaign_id text COLLATE "C" NOT NULL,
    status      text COLLATE "C" NOT NULL,
    due         timestamptz NOT NULL,
    doc         jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX promo_loyalty_pending_voucher_idx ON promo_loyalty_pending (project_id, voucher_id, id) WHERE status = 'PENDING';
CREATE INDEX promo_loyalty_pending_campaign_idx ON promo_loyalty_pending (project_id, campaign_id, id) WHERE status = 'PENDING';
CREATE INDEX promo_loyalty_pending_due_idx ON promo_loyalty_pending (project_id, due, id) WHERE status = 'PENDING';
