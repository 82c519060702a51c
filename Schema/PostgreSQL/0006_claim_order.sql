-- Claims take the due request that has waited longest: these partial indexes hold the pending
-- requests in claim order (one over every task, one per task), and the leased ones by lease expiry,
-- so each claim reads the first due entries and stops. (PostgreSQL form of
-- Schema/SQLite/0006_claim_order.sql.)

CREATE INDEX task_requests_claimable
    ON task_requests ((coalesce(earliest_begin_at, submitted_at)), id) WHERE lease_owner IS NULL;

CREATE INDEX task_requests_claimable_by_task
    ON task_requests (identifier, (coalesce(earliest_begin_at, submitted_at)), id) WHERE lease_owner IS NULL;

CREATE INDEX task_requests_leased ON task_requests (lease_expires_at) WHERE lease_owner IS NOT NULL;
