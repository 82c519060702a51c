-- What an operator needs (issue 11, items 6–9): retries that end, a launch heartbeat, catch-up
-- periods, dead letters that can be requeued, and indexes for pruning old history. Timestamps are
-- milliseconds since 1970-01-01 UTC.

-- Why the request's latest attempt failed; shown by `pipeline requests`.
ALTER TABLE task_requests ADD COLUMN last_error TEXT;

-- Requests taken out of the schedule: after their last attempt failed (`cause` 'attempts'), or by an
-- operator (`cause` 'cancelled'). While a row of an identifier and scope is here, a launch does not
-- start that chain again (`.keep` counts these rows), so a task that keeps failing, or that an
-- operator stopped, waits for a person: `pipeline requests retry` puts it back. Its own id, not the
-- request's: SQLite may hand a deleted request's id to a new request.
CREATE TABLE discarded_task_requests (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL,
    identifier TEXT NOT NULL CHECK (length(identifier) BETWEEN 1 AND 128),
    scope TEXT NOT NULL CHECK (length(scope) <= 64),
    kind TEXT NOT NULL CHECK (kind IN ('refresh', 'processing')),
    earliest_begin_at INTEGER,
    requires_external_power INTEGER NOT NULL CHECK (requires_external_power IN (0, 1)),
    requires_network INTEGER NOT NULL CHECK (requires_network IN (0, 1)),
    submitted_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL CHECK (attempts >= 0),
    last_error TEXT,
    cause TEXT NOT NULL CHECK (cause IN ('attempts', 'cancelled')),
    discarded_at INTEGER NOT NULL
) STRICT;

CREATE INDEX discarded_task_requests_by_task ON discarded_task_requests (identifier, scope);
CREATE INDEX discarded_task_requests_by_age ON discarded_task_requests (discarded_at);

-- How many of the task's periods a run covered: more than 1 when it caught up after missed launches.
ALTER TABLE task_runs ADD COLUMN periods INTEGER CHECK (periods >= 1);

-- The latest launch, however little it did: a dead cron shows as a launch long ago. One row.
CREATE TABLE scheduler_launches (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    launched_at INTEGER NOT NULL,
    worker TEXT NOT NULL
) STRICT;

-- A dead letter an operator requeued: when, and the new watch item that took its place.
ALTER TABLE watch_dead_letters ADD COLUMN resolved_at INTEGER;
ALTER TABLE watch_dead_letters ADD COLUMN requeued_as INTEGER;

-- Pruning walks each kind of old history in age order and stops at its bound.
CREATE INDEX task_runs_by_finish ON task_runs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX outbox_by_acknowledgement ON outbox (acknowledged_at) WHERE acknowledged_at IS NOT NULL;
CREATE INDEX watch_dead_letters_by_resolution ON watch_dead_letters (resolved_at) WHERE resolved_at IS NOT NULL;
