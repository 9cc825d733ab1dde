-- promo schema, version 55: the campaign summary's read (issue 29).
--
-- GET /v1/campaigns/{id}/summary sums a campaign's ledger rows within a
-- date window in one aggregate; this index gives the campaign's rows alone,
-- in date order (its publications have promo_publications_campaign_idx).
CREATE INDEX promo_redemptions_campaign_idx ON promo_redemptions (project_id, campaign_id, created_at) WHERE campaign_id IS NOT NULL;
