-- promo schema, version 61: the public vouchers of a qualification in the
-- order of its DEFAULT sorting (issue 31 item 6).
--
-- A qualification read every public voucher (live, active, without holder
-- or campaign) in id order and evaluated each: over 1,000,000 of them it
-- gave no answer within 120 s. It now reads them newest first, then by
-- code (the DEFAULT sorting's key), and stops at the first one that cannot
-- make the page. This index serves that order for the vouchers without a
-- campaign; only they are written to it (a generation's vouchers belong to
-- a campaign and are not). The vouchers of a STANDALONE campaign are read
-- per campaign through promo_vouchers_list_campaign_idx.
CREATE INDEX promo_vouchers_public_idx ON promo_vouchers (project_id, created_at DESC, code)
    WHERE campaign_id IS NULL AND binned_at IS NULL AND holder_id IS NULL AND active = 'true';
