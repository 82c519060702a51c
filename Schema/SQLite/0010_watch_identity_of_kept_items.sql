-- Only an item that stays queued (a kind this version does not apply) has an occurrence, and only
-- such items need their identity: an item without one never conflicts, since a UNIQUE index holds
-- any number of NULLs. The index now holds just the kept items, so queueing and applying an item
-- of a kind this version applies writes one index fewer (its key carried the whole payload).

DROP INDEX watch_items_identity;

CREATE UNIQUE INDEX watch_items_identity ON watch_items (user_id, kind, payload, occurrence)
    WHERE occurrence IS NOT NULL;
