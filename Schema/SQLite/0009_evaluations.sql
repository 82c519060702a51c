-- What `pipeline evaluate` measured (issue 15, item 2): the walk-forward figures `pipeline report`
-- shows on the cohort page. One row per run: when it ran (milliseconds since 1970-01-01 UTC), the
-- walked days, and the whole result as a JSON document (headline figures and the per-week errors,
-- the same document `evaluate --json` prints). Only the latest runs are kept; saving one deletes
-- the older ones in the same transaction.

CREATE TABLE evaluations (
    id INTEGER PRIMARY KEY,
    evaluated_at INTEGER NOT NULL,
    first_day TEXT NOT NULL,
    last_day TEXT NOT NULL,
    days INTEGER NOT NULL CHECK (days >= 1),
    result TEXT NOT NULL CHECK (json_valid(result))
) STRICT;

CREATE INDEX evaluations_by_time ON evaluations (evaluated_at, id);
