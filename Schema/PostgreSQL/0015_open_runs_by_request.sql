-- The runs in progress found by their request through a plain index of the default partition, instead of one
-- partial to `finished_at IS NULL`.
--
-- Every finish moves its runs out of the default partition, and each leaves a dead row and its index entries there
-- until vacuum comes. The partial index matched the `finished_at IS NULL` of the statement that finishes a batch
-- by id: a planner with a stale picture of the partition took it for small, read it beside the index by id, and
-- so read every entry a night's moved runs had left: a finish's cost grew with the runs finished before it. The
-- statements that find open runs by id now have the unique index by id alone to choose; the one that finds them by
-- request (a reclaim closing a dead worker's run) this one, which reads only that request's entries.

DROP INDEX task_runs_open;
CREATE INDEX task_runs_default_by_request ON task_runs_default (request_id);
