-- Model artifacts with their history, and which artifact each user is served.
--
-- An artifact is written whether or not it was promoted, with the reason, so the history says why
-- a model was kept. Promotion is the update of `serving_models` in the same transaction as the
-- insert: a crash before it leaves the previous model serving. The population model has the scope
-- '*', which no user id can be. `as_of_day` is the day the fit treated as today, and
-- `design_fingerprint` identifies the exact training matrix, so `pipeline features` can rebuild it
-- and say whether the data changed since.

CREATE TABLE model_artifacts (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    spec_version INTEGER NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('personal', 'population')),
    as_of_day TEXT NOT NULL,
    trained_at INTEGER NOT NULL,
    promoted INTEGER NOT NULL CHECK (promoted IN (0, 1)),
    reason TEXT NOT NULL,
    design_fingerprint TEXT,
    artifact TEXT NOT NULL CHECK (json_valid(artifact))
) STRICT;

CREATE INDEX model_artifacts_by_scope ON model_artifacts (scope, id);

CREATE TABLE serving_models (
    scope TEXT PRIMARY KEY NOT NULL,
    artifact_id INTEGER NOT NULL REFERENCES model_artifacts (id),
    promoted_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
