-- The watch queue: items applied by kind, retried on failure, and moved to a dead-letter list after
-- five failed attempts so that nothing is ever dropped silently.

CREATE TABLE watch_items (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (length(kind) > 0),
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    enqueued_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error TEXT
) STRICT;

CREATE INDEX watch_items_by_kind ON watch_items (kind, user_id, id);

CREATE TABLE watch_dead_letters (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    enqueued_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    last_error TEXT NOT NULL,
    failed_at INTEGER NOT NULL
) STRICT;
