-- The durable BGTaskScheduler port (DESIGN §4): task requests, waiting or running, and the history
-- of every run. Timestamps are milliseconds since 1970-01-01 UTC. A scope is a user id, or '' for a
-- request that belongs to no user.
--
-- A request is pending while `lease_owner` is NULL and running while a worker holds its lease. A
-- lease that expired belongs to a worker that died: the request is claimable again, and the claim
-- closes the dead worker's run in `task_runs`. The statements live in
-- Sources/Storage/Store+Scheduler.swift.

CREATE TABLE task_requests (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL CHECK (length(identifier) BETWEEN 1 AND 128),
    scope TEXT NOT NULL CHECK (length(scope) <= 64),
    kind TEXT NOT NULL CHECK (kind IN ('refresh', 'processing')),
    earliest_begin_at INTEGER,
    requires_external_power INTEGER NOT NULL DEFAULT 0 CHECK (requires_external_power IN (0, 1)),
    requires_network INTEGER NOT NULL DEFAULT 0 CHECK (requires_network IN (0, 1)),
    submitted_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    lease_owner TEXT,
    lease_expires_at INTEGER,
    claimed_at INTEGER,
    -- Only processing requests have conditions, as on iOS.
    CHECK (kind = 'processing' OR (requires_external_power = 0 AND requires_network = 0)),
    CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL)),
    CHECK ((lease_owner IS NULL) = (claimed_at IS NULL))
) STRICT;

-- At most one pending request per identifier and scope. `.keep` inserts against it with ON CONFLICT
-- DO NOTHING and `.replace` upserts over it, so overlapping launches cannot create two.
CREATE UNIQUE INDEX task_requests_pending ON task_requests (identifier, scope) WHERE lease_owner IS NULL;

-- Every request of an identifier and scope, pending or running (`.keep`, status).
CREATE INDEX task_requests_by_task ON task_requests (identifier, scope);

-- The claim's search for due requests.
CREATE INDEX task_requests_due ON task_requests (earliest_begin_at);

CREATE TABLE task_runs (
    id INTEGER PRIMARY KEY,
    -- The request this run served; requests are deleted when they succeed, so not a foreign key.
    request_id INTEGER NOT NULL,
    identifier TEXT NOT NULL,
    scope TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('refresh', 'processing')),
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    worker TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    lease_expires_at INTEGER NOT NULL,
    finished_at INTEGER,
    outcome TEXT CHECK (outcome IN ('success', 'failure', 'expired')),
    reason TEXT,
    -- Whether a request of the same identifier and scope was pending when the run finished: a
    -- successful run without one broke its chain.
    successor_pending INTEGER CHECK (successor_pending IN (0, 1)),
    CHECK ((finished_at IS NULL) = (outcome IS NULL))
) STRICT;

CREATE INDEX task_runs_by_task ON task_runs (identifier, scope, id);

-- Runs still open: at most one per request, closed by its worker or by the claim that reclaims it.
CREATE INDEX task_runs_open ON task_runs (request_id) WHERE finished_at IS NULL;
