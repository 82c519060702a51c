-- Run history that pruning keeps up with: each chain's latest finished run, which `pipeline status` reads (last
-- success, broken chains, chains never started) and `pipeline history` keeps showing, lives in a table of its own,
-- written by the statement that finishes a batch of runs. `task_runs` then has no row that pruning must skip, so
-- pruning deletes the oldest finished runs by `task_runs_by_finish` and stops at its bound, with no per-row check
-- for a later run of the same chain. (On PostgreSQL the same version also splits `task_runs` by day, so that
-- pruning drops whole days: Schema/PostgreSQL/0014_history_retention.sql.) Timestamps are milliseconds since
-- 1970-01-01 UTC.

CREATE TABLE latest_task_runs (
    identifier TEXT NOT NULL,
    scope TEXT NOT NULL,
    -- The latest finished run of the chain (the highest run id): task_runs' columns, its id as run_id.
    run_id INTEGER NOT NULL,
    request_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('refresh', 'processing')),
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    worker TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    lease_expires_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure', 'expired')),
    reason TEXT,
    successor_pending INTEGER CHECK (successor_pending IN (0, 1)),
    periods INTEGER CHECK (periods >= 1),
    -- When a run of the chain last succeeded, whichever run is the latest.
    last_success_at INTEGER,
    PRIMARY KEY (identifier, scope)
) STRICT, WITHOUT ROWID;

-- The history there is, carried over.
INSERT INTO latest_task_runs (
    identifier, scope, run_id, request_id, kind, attempt, worker, started_at, lease_expires_at, finished_at, outcome,
    reason, successor_pending, periods, last_success_at)
SELECT r.identifier, r.scope, r.id, r.request_id, r.kind, r.attempt, r.worker, r.started_at, r.lease_expires_at,
    r.finished_at, r.outcome, r.reason, r.successor_pending, r.periods, s.last_success_at
FROM (
    SELECT max(id) AS id, max(CASE WHEN outcome = 'success' THEN finished_at END) AS last_success_at
    FROM task_runs WHERE finished_at IS NOT NULL GROUP BY identifier, scope) AS s
JOIN task_runs AS r ON r.id = s.id;
