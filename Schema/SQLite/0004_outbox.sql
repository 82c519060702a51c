-- Messages for users (reminders, insights) waiting for a sender, which consumes them with
-- `pipeline outbox` and acknowledges what it sent. One message per user, kind and day, so a task
-- that runs again the same day never queues a second one. Timestamps are milliseconds since
-- 1970-01-01 UTC.

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
    day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    created_at INTEGER NOT NULL,
    acknowledged_at INTEGER,
    UNIQUE (user_id, kind, day)
) STRICT;

CREATE INDEX outbox_unacknowledged ON outbox (id) WHERE acknowledged_at IS NULL;
