-- Model artifacts compressed with LZ4 instead of PostgreSQL's default pglz.
--
-- An artifact is about 8 kB of JSON, stored out of line and compressed. With pglz, compressing a batch's
-- artifacts was most of what recording the batch cost the server (26 artifacts: about 5 ms with pglz,
-- 2 ms with LZ4, at about the same size). Only values written from now on are compressed this way; older
-- ones read as before. A server built without LZ4 support (or older than PostgreSQL 14, which added it)
-- keeps pglz: the migration then changes nothing.
-- (Schema/SQLite/0012_artifact_compression.sql: nothing changes on SQLite, which stores artifacts as written.)

DO $$
BEGIN
    IF current_setting('server_version_num')::integer >= 140000 THEN
        EXECUTE 'ALTER TABLE model_artifacts ALTER COLUMN artifact SET COMPRESSION lz4';
    END IF;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this server cannot compress with LZ4; model artifacts keep pglz';
END $$;
