-- promo schema, version 51: referral programs (issue 28).
--
-- promo_referral_conversions has one row per referral program and
-- referee that converted: its primary key is what makes a referee convert
-- once per program, however many redemptions or custom events convert it
-- at once (INSERT ... ON CONFLICT DO NOTHING waits for a concurrent claim
-- and then finds it). The referrer index serves the referred_customers
-- count of a customer's loyalty summary.
--
-- promo_referral_holders has one row per referee assigned to a referral
-- code through the holders API (its referrer is its wallet row in
-- promo_holders); the unique key refuses a second assignment.
CREATE TABLE promo_referral_conversions (
    project_id          text COLLATE "C" NOT NULL,
    campaign_id         text COLLATE "C" NOT NULL,
    referee_id          text COLLATE "C" NOT NULL,
    referrer_id         text COLLATE "C" NOT NULL,
    voucher_id          text COLLATE "C" NOT NULL,
    related_object_type text COLLATE "C" NOT NULL,
    related_object_id   text COLLATE "C" NOT NULL,
    created_at          timestamptz NOT NULL,
    PRIMARY KEY (project_id, campaign_id, referee_id)
);
CREATE INDEX promo_referral_conversions_referee_idx ON promo_referral_conversions (project_id, referee_id, created_at);
CREATE INDEX promo_referral_conversions_referrer_idx ON promo_referral_conversions (project_id, referrer_id, campaign_id);

CREATE TABLE promo_referral_holders (
    project_id  text COLLATE "C" NOT NULL,
    id          text COLLATE "C" NOT NULL,
    voucher_id  text COLLATE "C" NOT NULL,
    customer_id text COLLATE "C" NOT NULL,
    created_at  timestamptz NOT NULL,
    doc         jsonb NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX promo_referral_holders_key ON promo_referral_holders (project_id, voucher_id, customer_id);
CREATE INDEX promo_referral_holders_voucher_idx ON promo_referral_holders (project_id, voucher_id, id);
