-- The job ledger in blocks (docs/accounting.md#how-records-are-kept): one row holds the records of
-- one operation in one pool that a transaction wrote, so a record costs its bytes, not a row and
-- five index entries. The block id's type is a placeholder (INTEGER PRIMARY KEY on SQLite,
-- BIGSERIAL PRIMARY KEY on PostgreSQL); the rest is the same SQL on both. Migration 4 moves job_records' rows here.
CREATE TABLE job_blocks (
    block_id ${block_id},
    operation_id VARCHAR(256) NOT NULL,
    user_name VARCHAR(256),
    tree VARCHAR(256),
    pool VARCHAR(256),
    pool_path VARCHAR(4096),
    first_end_ms BIGINT NOT NULL,
    last_end_ms BIGINT NOT NULL,
    first_start_ms BIGINT NOT NULL,
    records INTEGER NOT NULL,
    lost INTEGER NOT NULL,
    data BYTEA NOT NULL
);
CREATE INDEX job_blocks_end ON job_blocks (last_end_ms);
CREATE INDEX job_blocks_first_end ON job_blocks (first_end_ms);
CREATE INDEX job_blocks_user_end ON job_blocks (user_name, last_end_ms);
CREATE INDEX job_blocks_pool_end ON job_blocks (tree, pool, last_end_ms);
CREATE INDEX job_blocks_operation ON job_blocks (operation_id, last_end_ms);

-- The scheduler that writes the ledger: each claims it by moving the epoch, and writes only while
-- the epoch is its own (a deposed leader writes nothing more).
CREATE TABLE ledger_writer (
    id INTEGER PRIMARY KEY,
    epoch BIGINT NOT NULL
);
