-- A watch item is its user, kind and payload, byte for byte: the same item queued again (an
-- ingestion run a second time after a crash) is kept once, so re-running an ingestion changes
-- nothing the first run stored. Copies already queued twice are merged into the oldest.

DELETE FROM watch_items
WHERE id NOT IN (SELECT min(id) FROM watch_items GROUP BY user_id, kind, payload);

CREATE UNIQUE INDEX watch_items_identity ON watch_items (user_id, kind, payload);
