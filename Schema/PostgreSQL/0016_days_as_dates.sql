-- A day is kept as a `date` instead of text checked by a regular expression, in daily_logs and outbox.
--
-- The type is most of the check: a stored day is a real calendar day (the text check let 2026-02-30 through), and
-- the range keeps the years `Day` has, 1 to 9999, as the text's four digits did (and keeps out `infinity`). It is
-- held in four bytes instead of eleven, compared as a number in the keys (user_id, day) and (user_id, kind, day). The
-- regular expression was the costliest part of writing a day: about a fifth of what a bulk load of days cost the
-- server, and each key comparison of text more than one of a date (docs/benchmarks.md). Pipeline's sessions set
-- `DateStyle` to ISO, so a day reads back as `YYYY-MM-DD` and text in that form is read as a day.
--
-- Both tables are rewritten and their keys rebuilt, in this migration's transaction: a large database is
-- locked for as long as that takes. A stored day that is not a calendar day (which pipeline never writes) stops the
-- migration, and the database stays at the previous version.

ALTER TABLE daily_logs DROP CONSTRAINT daily_logs_day_check, ALTER COLUMN day TYPE date USING day::date,
    ADD CONSTRAINT daily_logs_day_check CHECK (day BETWEEN '0001-01-01' AND '9999-12-31');
ALTER TABLE outbox DROP CONSTRAINT outbox_day_check, ALTER COLUMN day TYPE date USING day::date,
    ADD CONSTRAINT outbox_day_check CHECK (day BETWEEN '0001-01-01' AND '9999-12-31');
