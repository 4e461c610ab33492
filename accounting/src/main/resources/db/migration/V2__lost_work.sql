-- The work a preempted job lost: seconds from its last checkpoint (or its start) to its end; NULL
-- for a job that lost none (docs/scheduling.md#least-lost-work). The same SQL on SQLite and PostgreSQL.
ALTER TABLE job_records ADD COLUMN lost_work_seconds DOUBLE PRECISION;
