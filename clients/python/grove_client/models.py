"""What the API answers, as typed records. Each keeps the whole answer in ``raw``: the API adds
fields in later versions, and a client reads them there before this package names them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, List, Mapping, Optional

FINISHED = ("completed", "failed", "aborted")


_STAMP = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?")


def _time(value: Any) -> Optional[datetime]:
    """An RFC 3339 time as the API writes it (up to nanoseconds, ``Z`` or an offset) as an aware
    datetime, the same on every Python this package supports (before 3.11, ``fromisoformat`` takes
    neither ``Z`` nor more than six digits of a second). A time without a zone is UTC. What is not
    such a time is ``None`` (the text stays in ``raw``): a client never fails reading an answer to a
    request the scheduler carried out, such as a submission, whose retry would submit twice."""
    if not value:
        return None
    match = _STAMP.fullmatch(str(value).strip())
    if match is None:
        return None
    whole, fraction, zone = match.groups()
    micros = (fraction or "")[:6].ljust(6, "0")
    offset = "+00:00" if zone in (None, "Z") else zone
    try:
        return datetime.fromisoformat(f"{whole}.{micros}{offset}")
    except ValueError:
        return None


@dataclass(frozen=True)
class Progress:
    """How many of an operation's jobs are in each state."""

    total: int = 0
    pending: int = 0
    running: int = 0
    completed: int = 0
    failed: int = 0
    aborted: int = 0

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "Progress":
        return cls(**{name: int(data.get(name, 0)) for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Operation:
    """An operation: its summary, or its whole view when read alone."""

    id: str
    user: str
    state: str
    title: str
    pools: Dict[str, str]
    progress: Progress
    submitted_at: Optional[datetime]
    finished_at: Optional[datetime]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @property
    def finished(self) -> bool:
        """Whether it has ended: completed, failed or aborted."""
        return self.state in FINISHED

    @property
    def pending_reason(self) -> Optional[Dict[str, Any]]:
        """Why it waits (``code``, ``message``, ...), when it does."""
        reason = self.raw.get("pending_reason")
        return reason if isinstance(reason, dict) else None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "Operation":
        return cls(id=str(data["id"]), user=str(data.get("user", "")), state=str(data.get("state", "")),
                   title=str(data.get("title", "")), pools=dict(data.get("pools") or {}),
                   progress=Progress.of(data.get("progress") or {}), submitted_at=_time(data.get("submitted_at")),
                   finished_at=_time(data.get("finished_at")), raw=dict(data))


@dataclass(frozen=True)
class Job:
    """One attempt of one job of an operation."""

    id: str
    operation_id: str
    task: str
    index: int
    attempt: int
    state: str
    node: Optional[str]
    started_at: Optional[datetime]
    finished_at: Optional[datetime]
    reason: Optional[str]
    message: Optional[str]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "Job":
        return cls(id=str(data["id"]), operation_id=str(data.get("operation_id", "")), task=str(data.get("task", "")),
                   index=int(data.get("index", 0)), attempt=int(data.get("attempt", 0)),
                   state=str(data.get("state", "")), node=data.get("node"), started_at=_time(data.get("started_at")),
                   finished_at=_time(data.get("finished_at")), reason=data.get("reason"), message=data.get("message"),
                   raw=dict(data))


@dataclass(frozen=True)
class JobLog:
    """A piece of a job's log: ``data`` from ``offset``; read on from ``next_offset``."""

    job_id: str
    stream: str
    offset: int
    next_offset: int
    size: int
    data: str

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "JobLog":
        return cls(job_id=str(data.get("job_id", "")), stream=str(data.get("stream", "")),
                   offset=int(data.get("offset", 0)), next_offset=int(data.get("next_offset", 0)),
                   size=int(data.get("size", 0)), data=str(data.get("data", "")))


@dataclass(frozen=True)
class Check:
    """One of the checks the scheduler makes before it starts an operation's next job."""

    code: str
    blocks: bool
    message: str
    raw: Dict[str, Any] = field(repr=False, compare=False)


@dataclass(frozen=True)
class Explanation:
    """Why an operation waits: per tree, its checks in order and the verdict; its forecast."""

    operation_id: str
    verdicts: Dict[str, str]
    checks: Dict[str, List[Check]]
    forecast: Optional[Dict[str, Any]]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "Explanation":
        verdicts: Dict[str, str] = {}
        checks: Dict[str, List[Check]] = {}
        for tree in data.get("trees") or []:
            name = str(tree.get("tree", ""))
            verdicts[name] = str(tree.get("verdict", ""))
            checks[name] = [Check(code=str(c.get("code", "")), blocks=bool(c.get("blocks", False)),
                                  message=str(c.get("message", "")), raw=dict(c)) for c in tree.get("checks") or []]
        forecast = data.get("forecast")
        return cls(operation_id=str(data.get("operation_id", data.get("id", ""))), verdicts=verdicts, checks=checks,
                   forecast=forecast if isinstance(forecast, dict) else None, raw=dict(data))


@dataclass(frozen=True)
class Pool:
    """A pool of a tree with its fair share, usage and demand (shares of the tree, per resource)."""

    name: str
    parent: Optional[str]
    fair_share: Dict[str, float]
    usage_share: Dict[str, float]
    demand_share: Dict[str, float]
    raw: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "Pool":
        total = (data.get("fair_share") or {}).get("total") or {}
        return cls(name=str(data.get("name", "")), parent=data.get("parent"), fair_share=dict(total),
                   usage_share=dict(data.get("usage_share") or {}), demand_share=dict(data.get("demand_share") or {}),
                   raw=dict(data))
