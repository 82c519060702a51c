-- An item of a kind this version does not apply stays queued, so the same input ingested twice
-- (after a crash, say) would queue it twice. Such an item is its user, kind, payload (byte for
-- byte) and its occurrence: which copy of that item it is within its input. The second ingestion
-- of an input then queues none of its copies again, and an input that repeats an item keeps every
-- repeat. Items that are applied have no occurrence: applied again in order, they change nothing.
-- (PostgreSQL form of Schema/SQLite/0008_watch_item_identity.sql. `json` keeps the payload's text
-- as given and has no equality, so the key is the text's digest: a B-tree entry must stay small.)

ALTER TABLE watch_items ADD COLUMN occurrence INTEGER CHECK (occurrence >= 1);

CREATE UNIQUE INDEX watch_items_identity ON watch_items (user_id, kind, md5(payload::text), occurrence);
