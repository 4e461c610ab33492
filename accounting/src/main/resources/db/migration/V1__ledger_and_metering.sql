-- Grove's accounting (docs/accounting.md). The same SQL runs on SQLite and PostgreSQL.

-- One row per job attempt that ended; written at least once, kept once (its id is the key).
CREATE TABLE job_records (
    job_id VARCHAR(256) PRIMARY KEY,
    operation_id VARCHAR(256) NOT NULL,
    task VARCHAR(256) NOT NULL,
    job_index INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    user_name VARCHAR(256),
    tree VARCHAR(256),
    pool VARCHAR(256),
    pool_path VARCHAR(4096),
    node VARCHAR(256),
    user_slots DOUBLE PRECISION NOT NULL,
    cpu DOUBLE PRECISION NOT NULL,
    gpu DOUBLE PRECISION NOT NULL,
    memory DOUBLE PRECISION NOT NULL,
    network DOUBLE PRECISION NOT NULL,
    start_ms BIGINT NOT NULL,
    end_ms BIGINT NOT NULL,
    state VARCHAR(32) NOT NULL,
    exit_code INTEGER,
    reason VARCHAR(64),
    message TEXT,
    cpu_seconds DOUBLE PRECISION,
    gpu_seconds DOUBLE PRECISION NOT NULL
);
CREATE INDEX job_records_end ON job_records (end_ms, job_id);
CREATE INDEX job_records_user_end ON job_records (user_name, end_ms);
CREATE INDEX job_records_pool_end ON job_records (tree, pool, end_ms);
CREATE INDEX job_records_operation ON job_records (operation_id);

-- One row per operation that finished.
CREATE TABLE operation_records (
    operation_id VARCHAR(256) PRIMARY KEY,
    user_name VARCHAR(256) NOT NULL,
    title VARCHAR(1024),
    pools VARCHAR(4096) NOT NULL,
    weight DOUBLE PRECISION NOT NULL,
    submitted_ms BIGINT NOT NULL,
    finished_ms BIGINT NOT NULL,
    state VARCHAR(32) NOT NULL,
    completed INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    aborted INTEGER NOT NULL,
    message TEXT
);
CREATE INDEX operation_records_finished ON operation_records (finished_ms);

-- Resource-seconds of a pool per hour, by kind (used, fair_share, strong_guarantee, resource_flow,
-- burst_guarantee), and the same per day (the sums of the hours): kept whatever the retention.
CREATE TABLE pool_hours (
    tree VARCHAR(256) NOT NULL,
    pool VARCHAR(256) NOT NULL,
    hour BIGINT NOT NULL,
    kind VARCHAR(32) NOT NULL,
    user_slots DOUBLE PRECISION NOT NULL,
    cpu DOUBLE PRECISION NOT NULL,
    gpu DOUBLE PRECISION NOT NULL,
    memory DOUBLE PRECISION NOT NULL,
    network DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tree, pool, hour, kind)
);
CREATE INDEX pool_hours_hour ON pool_hours (hour);
CREATE TABLE pool_days (
    tree VARCHAR(256) NOT NULL,
    pool VARCHAR(256) NOT NULL,
    day BIGINT NOT NULL,
    kind VARCHAR(32) NOT NULL,
    user_slots DOUBLE PRECISION NOT NULL,
    cpu DOUBLE PRECISION NOT NULL,
    gpu DOUBLE PRECISION NOT NULL,
    memory DOUBLE PRECISION NOT NULL,
    network DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tree, pool, day, kind)
);
CREATE INDEX pool_days_day ON pool_days (day);

-- Where each tree's metering left off: rows hold resource-seconds up to this instant.
CREATE TABLE metering_marks (
    tree VARCHAR(256) PRIMARY KEY,
    metered_until_ms BIGINT NOT NULL
);
