"""The Python client against a real ``grove local``."""

from __future__ import annotations

import pytest

from grove_client import Grove, GroveError, NotFound, Refused
from conftest import await_condition


@pytest.fixture()
def grove(grove_url):
    return Grove(grove_url, user="alice")


def test_submit_wait_jobs_and_logs(grove):
    op = grove.submit(command="echo hello from job $GROVE_JOB_INDEX", pool="etl", jobs=2, cpu=0.25, title="greetings")
    assert op.id.startswith("op-") and op.user == "alice" and op.title == "greetings"
    seen = []
    done = grove.wait(op.id, timeout=120, interval=0.2, on_change=seen.append)
    assert done.state == "completed", done
    assert done.progress.completed == 2 and done.progress.total == 2
    assert seen[-1].state == "completed"
    assert done.finished_at is not None and done.submitted_at <= done.finished_at
    jobs = grove.jobs(op.id)
    assert sorted(job.index for job in jobs) == [0, 1]
    assert all(job.state == "completed" for job in jobs)
    first = next(job for job in jobs if job.index == 0)
    assert grove.logs(op.id, first.id) == "hello from job 0\n"
    piece = grove.log(op.id, first.id, offset=6)
    assert piece.data == "from job 0\n" and piece.next_offset == piece.size


def test_a_whole_spec_list_and_filters(grove):
    op = grove.submit({"pool": "analytics", "title": "whole spec",
                       "tasks": {"main": {"job_count": 1, "command": "true", "cpu": 0.25, "memory": "64Mi"}}})
    grove.wait(op.id, timeout=120, interval=0.2)
    mine = grove.list(user="alice")
    assert op.id in [o.id for o in mine]
    assert all(o.user == "alice" for o in mine)
    assert op.id in [o.id for o in grove.list(state="completed", pool="analytics")]
    assert len(grove.list(limit=1)) == 1


def test_explain_and_abort_a_waiting_operation(grove):
    # more than the machine: most of its jobs wait, and the explanation says why
    op = grove.submit(command="sleep 300", pool="research", jobs=200, cpu=0.25)
    await_condition("it runs", lambda: grove.get(op.id).progress.running > 0)
    # once the node is full, a check blocks its next job
    await_condition("a check blocks its next job", lambda: any(
        check.blocks for checks in grove.explain(op.id).checks.values() for check in checks))
    why = grove.explain(op.id)
    assert why.operation_id == op.id
    assert why.verdicts, why.raw
    tree, checks = next(iter(why.checks.items()))
    assert checks and any(check.blocks for check in checks), why.raw
    assert why.verdicts[tree] == next(check.code for check in checks if check.blocks)
    aborted = grove.abort(op.id)
    assert aborted.id == op.id
    assert grove.wait(op.id, timeout=120, interval=0.2).state == "aborted"
    with pytest.raises(Refused) as again:
        grove.abort(op.id)
    assert again.value.status == 409 and again.value.code == "INVALID_STATE"
    assert str(again.value).endswith("(the operation has finished already)")


def test_errors_are_what_the_grove_command_says(grove):
    with pytest.raises(Refused) as unknown:
        grove.submit(command="true", pool="no-such-pool")
    assert unknown.value.code == "UNKNOWN_POOL"
    assert str(unknown.value).endswith("(see the pools with 'grove pools')")
    with pytest.raises(NotFound) as missing:
        grove.get("op-999999")
    assert missing.value.status == 404 and missing.value.code == "NO_SUCH_OPERATION"
    with pytest.raises(Refused) as invalid:
        grove.submit({"tasks": {"main": {"job_count": 0, "command": "true", "cpu": "lots"}}})
    assert invalid.value.code == "INVALID_SPEC"
    assert len(invalid.value.problems) >= 2
    assert "line" in str(invalid.value) or "tasks" in str(invalid.value)
    assert isinstance(invalid.value, GroveError)


def test_a_retried_submission_with_its_key_is_made_once(grove):
    first = grove.submit(command="true", pool="etl", cpu=0.25, idempotency_key="python-client-key-1")
    again = grove.submit(command="true", pool="etl", cpu=0.25, idempotency_key="python-client-key-1")
    assert first.id == again.id


def test_pools_and_usage(grove):
    pools = grove.pools()
    names = [pool.name for pool in pools]
    assert names[0] == "<Root>" and "etl" in names and "research" in names
    root = pools[0]
    assert root.parent is None and set(root.fair_share) >= {"cpu", "memory", "user_slots"}
    assert all(pool.parent for pool in pools[1:])
    usage = grove.usage(by="pool", since="1d")
    assert usage["by"] == "pool" and isinstance(usage["rows"], list)


def test_a_group_passes_over_a_scheduler_that_cannot_be_reached(grove_url):
    from conftest import free_port

    grove = Grove(["http://127.0.0.1:%d" % free_port(), grove_url], user="alice")
    assert grove.pools()[0].name == "<Root>"


def test_a_command_asks_for_what_grove_submit_asks_by_default(grove):
    # 1 cpu and 512Mi a job, as the CLI: two jobs demand 2 cpu and 1Gi in their tree
    op = grove.submit(command="sleep 300", pool="research", jobs=2)
    try:
        tree = next(iter(grove.get(op.id).raw["trees"].values()))
        assert tree["demand"]["cpu"] == 2 and tree["demand"]["memory"] == 2 * 512 * 1024 * 1024, tree
        assert op.submitted_at is not None and op.submitted_at.tzinfo is not None
    finally:
        grove.abort(op.id)


def test_an_operation_after_another_waits_for_it_and_says_so(grove):
    first = grove.submit(command="sleep 2", pool="etl", cpu=0.25)
    second = grove.submit(command="true", pool="etl", cpu=0.25, after=[first.id])
    waiting = grove.get(second.id)
    assert waiting.pending_reason["code"] == "dependency", waiting.raw
    assert waiting.pending_reason["message"].startswith("it waits for operation " + first.id + " to complete")
    assert grove.wait(second.id, timeout=120, interval=0.2).state == "completed"
    assert grove.get(first.id).finished_at <= grove.get(second.id).finished_at
    with pytest.raises(Refused):
        grove.submit(command="true", pool="etl", cpu=0.25, after=["op-999999"])
