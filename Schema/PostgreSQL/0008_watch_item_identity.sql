-- A watch item is its user, kind and payload, byte for byte: the same item queued again (an
-- ingestion run a second time after a crash) is kept once, so re-running an ingestion changes
-- nothing the first run stored. Copies already queued twice are merged into the oldest.
-- (PostgreSQL form of Schema/SQLite/0008_watch_item_identity.sql. `json` keeps the payload's text
-- as given and has no equality, so the key is the text's digest: a B-tree entry must stay small.)

DELETE FROM watch_items AS later
USING watch_items AS earlier
WHERE later.user_id = earlier.user_id AND later.kind = earlier.kind
    AND later.payload::text = earlier.payload::text AND later.id > earlier.id;

CREATE UNIQUE INDEX watch_items_identity ON watch_items (user_id, kind, md5(payload::text));
