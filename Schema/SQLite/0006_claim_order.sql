-- Claims take the due request that has waited longest. Without an index in that order every claim
-- sorted all of a task's requests, so a launch over N users did N claims of N log N each: a cohort
-- of 10,000 users spent minutes claiming. These partial indexes hold the pending requests in claim
-- order (one over every task, one per task), and the leased ones by lease expiry, so each claim
-- reads the first due entry and stops.

CREATE INDEX task_requests_claimable
    ON task_requests (coalesce(earliest_begin_at, submitted_at), id) WHERE lease_owner IS NULL;

CREATE INDEX task_requests_claimable_by_task
    ON task_requests (identifier, coalesce(earliest_begin_at, submitted_at), id) WHERE lease_owner IS NULL;

CREATE INDEX task_requests_leased ON task_requests (lease_expires_at) WHERE lease_owner IS NOT NULL;
