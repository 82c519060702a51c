-- Claims read each task's due requests through task_requests_claimable_by_task alone.
--
-- The claim takes each identifier's earliest due requests (SQL+Scheduler.swift, claimTaskRequests), and both
-- claimable indexes give that order once the identifier is fixed. The planner took the one without the identifier,
-- reckoning a task's requests spread evenly through it, and walked past every due request of the other tasks at
-- each claim: a first night's retrain claims passed 50,000 health refreshes each, 6.7 ms a claim instead of 0.3.
-- Without that index there is one way to read them, and each new request updates one index less.
-- (Schema/SQLite/0013_claims_by_task.sql: nothing changes on SQLite, whose claims name their index.)

DROP INDEX task_requests_claimable;
