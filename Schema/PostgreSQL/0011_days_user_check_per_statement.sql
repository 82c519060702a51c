-- daily_logs' foreign key to users, checked once per statement instead of once per row.
--
-- The constraint checked each new day with a query of its own (an internal trigger per row): about a
-- third of what a bulk load of days cost the server. These triggers keep what it kept — every day's
-- user exists, and is locked against deletion (FOR KEY SHARE) until the writing transaction ends;
-- deleting a user deletes their days, and so does TRUNCATE of users; a user's id cannot change while
-- days refer to it — with one query per statement over the rows it wrote, and errors with the
-- constraint's SQLSTATE (23503), message and name. Each function finds the other table in the schema of
-- the table its trigger is on, whatever the session's search_path.
-- (Schema/SQLite/0011_days_user_check_per_statement.sql keeps SQLite's foreign key.)

ALTER TABLE daily_logs DROP CONSTRAINT daily_logs_user_id_fkey;

-- New days: their users exist, and stay until this transaction ends.
CREATE FUNCTION daily_logs_check_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    wanted bigint;
    found bigint;
BEGIN
    EXECUTE format(
        'SELECT count(*), count(locked.id) FROM (SELECT DISTINCT user_id FROM written) AS new '
        || 'LEFT JOIN LATERAL (SELECT id FROM %I.users WHERE id = new.user_id FOR KEY SHARE) AS locked ON true',
        TG_TABLE_SCHEMA) INTO wanted, found;
    IF found < wanted THEN
        RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation', TABLE = 'daily_logs',
            CONSTRAINT = 'daily_logs_user_id_fkey', MESSAGE = 'insert or update on table "daily_logs" '
                'violates foreign key constraint "daily_logs_user_id_fkey"';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER daily_logs_user_exists AFTER INSERT ON daily_logs
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION daily_logs_check_users();

-- A day moved to another user (pipeline never moves one): that user exists, and stays.
CREATE FUNCTION daily_logs_check_moved_user() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    found bigint;
BEGIN
    EXECUTE format(
        'SELECT count(*) FROM (SELECT FROM %I.users WHERE id = $1 FOR KEY SHARE) AS locked', TG_TABLE_SCHEMA)
        INTO found USING NEW.user_id;
    IF found = 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation', TABLE = 'daily_logs',
            CONSTRAINT = 'daily_logs_user_id_fkey', MESSAGE = 'insert or update on table "daily_logs" '
                'violates foreign key constraint "daily_logs_user_id_fkey"';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER daily_logs_moved_user_exists AFTER UPDATE OF user_id ON daily_logs
    FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION daily_logs_check_moved_user();

-- Deleted users: their days go with them (ON DELETE CASCADE); a TRUNCATE of users empties daily_logs too.
CREATE FUNCTION users_delete_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        EXECUTE format('TRUNCATE %I.daily_logs', TG_TABLE_SCHEMA);
    ELSE
        EXECUTE format('DELETE FROM %I.daily_logs WHERE user_id IN (SELECT id FROM gone)', TG_TABLE_SCHEMA);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER users_delete_days AFTER DELETE ON users
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION users_delete_days();
CREATE TRIGGER users_truncate_days AFTER TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION users_delete_days();

-- A user's id changed (pipeline never changes one): refused while days refer to it (ON UPDATE NO ACTION).
CREATE FUNCTION users_keep_referenced_id() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    orphaned boolean;
BEGIN
    EXECUTE format(
        'SELECT NOT EXISTS (SELECT FROM %1$I.users WHERE id = $1) '
        || 'AND EXISTS (SELECT FROM %1$I.daily_logs WHERE user_id = $1)',
        TG_TABLE_SCHEMA) INTO orphaned USING OLD.id;
    IF orphaned THEN
        RAISE EXCEPTION USING ERRCODE = 'foreign_key_violation', TABLE = 'users',
            CONSTRAINT = 'daily_logs_user_id_fkey', MESSAGE = 'update or delete on table "users" '
                'violates foreign key constraint "daily_logs_user_id_fkey" on table "daily_logs"';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER users_keep_referenced_id AFTER UPDATE OF id ON users
    FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION users_keep_referenced_id();
