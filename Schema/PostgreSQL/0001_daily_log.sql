-- Users, their one-row-per-day logs and their settings: the PostgreSQL form of
-- Schema/SQLite/0001_daily_log.sql, with the same columns, keys and checks.
--
-- Every metric column has a companion `<column>_source` ('user' or 'health'), set exactly when the
-- value is; the merge rules (a user value always wins) are enforced by the upserts in
-- Sources/Storage/PostgreSQL/PostgreSQLDriver+DailyLog.swift. Timestamps are milliseconds since
-- 1970-01-01 UTC.

CREATE TABLE users (
    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    created_at BIGINT NOT NULL
);

CREATE TABLE daily_logs (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day TEXT NOT NULL CHECK (day ~ '^[0-9]{4}-[0-1][0-9]-[0-3][0-9]$'),
    symptom_severity INTEGER CHECK (symptom_severity BETWEEN 0 AND 10),
    mood INTEGER CHECK (mood BETWEEN 1 AND 5),
    energy INTEGER CHECK (energy BETWEEN 1 AND 5),
    notes TEXT CHECK (length(notes) <= 2000),
    hrv DOUBLE PRECISION CHECK (hrv BETWEEN 1 AND 300),
    hrv_source TEXT CHECK (hrv_source IN ('user', 'health')),
    resting_heart_rate DOUBLE PRECISION CHECK (resting_heart_rate BETWEEN 20 AND 250),
    resting_heart_rate_source TEXT CHECK (resting_heart_rate_source IN ('user', 'health')),
    step_count BIGINT CHECK (step_count BETWEEN 0 AND 200000),
    step_count_source TEXT CHECK (step_count_source IN ('user', 'health')),
    sleep_duration DOUBLE PRECISION CHECK (sleep_duration BETWEEN 0 AND 86400),
    sleep_duration_source TEXT CHECK (sleep_duration_source IN ('user', 'health')),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, day),
    CHECK ((hrv IS NULL) = (hrv_source IS NULL)),
    CHECK ((resting_heart_rate IS NULL) = (resting_heart_rate_source IS NULL)),
    CHECK ((step_count IS NULL) = (step_count_source IS NULL)),
    CHECK ((sleep_duration IS NULL) = (sleep_duration_source IS NULL))
);

CREATE TABLE user_settings (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    -- `json` keeps the text exactly as written and refuses text that is not JSON.
    value JSON NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
);
