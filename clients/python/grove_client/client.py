"""The client: one scheduler, or a high-availability group of them."""

from __future__ import annotations

import getpass
import json
import os
import time
import uuid
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Union

import requests

from .errors import GroveError, Unavailable, error_for
from .models import Explanation, Job, JobLog, Operation, Pool

DEFAULT_SCHEDULER = "http://127.0.0.1:8080"


class Grove:
    """A Grove scheduler's API.

    ``url`` is the scheduler (``http://host:8080``), or every scheduler of a high-availability
    group, comma-separated or as a list: one that cannot be reached is passed over, and a standby's
    ``NOT_LEADER`` is followed to the leader it names when the leader is one of them (the token goes
    to these and no other). Without ``url``: ``GROVE_SCHEDULER``, else ``http://127.0.0.1:8080``.
    ``token``: the bearer token of a scheduler with authentication (``GROVE_TOKEN`` when not given).
    ``user``: who the requests are for on an insecure local scheduler (``grove local``), sent as
    ``X-Grove-User``; by default the login name.
    """

    def __init__(self, url: Union[str, Sequence[str], None] = None, *, token: Optional[str] = None,
                 user: Optional[str] = None, timeout: float = 30.0, session: Optional[requests.Session] = None):
        urls = url if url is not None else os.environ.get("GROVE_SCHEDULER") or DEFAULT_SCHEDULER
        if isinstance(urls, str):
            urls = [part for part in urls.split(",") if part.strip()]
        self.group: List[str] = [self._base(one) for one in urls]
        if not self.group:
            raise ValueError("no scheduler URL")
        self.token = token if token is not None else (os.environ.get("GROVE_TOKEN") or None)
        self.user = user or _login()
        self.timeout = timeout
        self.session = session or requests.Session()
        self._current = self.group[0]

    @staticmethod
    def _base(url: str) -> str:
        url = url.strip()
        if "://" not in url:
            url = "http://" + url
        return url.rstrip("/")

    # ---- operations -----------------------------------------------------------------------

    def submit(self, spec: Optional[Mapping[str, Any]] = None, *, command: Optional[str] = None,
               pool: Optional[str] = None, jobs: int = 1, cpu: float = 1.0, memory: str = "512Mi",
               title: Optional[str] = None, env: Optional[Mapping[str, str]] = None,
               after: Sequence[str] = (), after_any: Sequence[str] = (),
               idempotency_key: Optional[str] = None) -> Operation:
        """Submits an operation: a whole ``spec`` (as in ``POST /api/v1/operations``), or one task of
        ``jobs`` jobs running ``command``, each of ``cpu`` CPUs and ``memory`` (1 and 512Mi, as
        ``grove submit``). ``after`` names operations it waits for to complete, ``after_any`` ones it
        waits for to end however they end (``depends_on``, as ``grove submit --after``). An
        ``idempotency_key`` (made here when not given) makes a retry of a submission that was made
        answer with its operation instead of making another."""
        if spec is None:
            if command is None:
                raise ValueError("give a spec, or a command")
            task: Dict[str, Any] = {"job_count": jobs, "command": command, "cpu": cpu, "memory": memory}
            if env:
                task["env"] = dict(env)
            spec = {"tasks": {"main": task}}
            if pool is not None:
                spec["pool"] = pool
            if title is not None:
                spec["title"] = title
            depends_on = [{"operation": op, "condition": "completed"} for op in after] \
                + [{"operation": op, "condition": "finished"} for op in after_any]
            if depends_on:
                spec["depends_on"] = depends_on
        elif command is not None or pool is not None or after or after_any:
            raise ValueError("give a spec, or a command and its options, not both")
        key = idempotency_key or str(uuid.uuid4())
        return Operation.of(self._call("POST", "/api/v1/operations", body=spec, headers={"Idempotency-Key": key},
                                       retry_unknown=True))

    def get(self, operation_id: str) -> Operation:
        """An operation's whole view."""
        return Operation.of(self._call("GET", "/api/v1/operations/" + _segment(operation_id)))

    def list(self, *, state: Optional[str] = None, pool: Optional[str] = None, user: Optional[str] = None,
             tree: Optional[str] = None, limit: Optional[int] = None) -> List[Operation]:
        """Operation summaries in submission order, every page (or the first ``limit``)."""
        params = {"state": state, "pool": pool, "user": user, "tree": tree}
        return [Operation.of(item) for item in self._pages("/api/v1/operations", params, limit)]

    def wait(self, operation_id: str, *, timeout: Optional[float] = None, interval: float = 1.0,
             on_change: Optional[Callable[[Operation], None]] = None) -> Operation:
        """Waits until the operation has finished (completed, failed or aborted) and returns it;
        ``on_change`` sees each new state of its progress. Raises ``TimeoutError`` after ``timeout``
        seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        seen = None
        while True:
            operation = self.get(operation_id)
            if on_change is not None and (operation.state, operation.progress) != seen:
                seen = (operation.state, operation.progress)
                on_change(operation)
            if operation.finished:
                return operation
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError("%s is still %s after %s s" % (operation_id, operation.state, timeout))
            time.sleep(interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic())))

    def abort(self, operation_id: str) -> Operation:
        """Aborts it: its running jobs are told to stop at their nodes' next heartbeats."""
        return Operation.of(self._call("POST", "/api/v1/operations/" + _segment(operation_id) + "/abort"))

    def explain(self, operation_id: str) -> Explanation:
        """Why it waits: the scheduler's checks for its next job, in their order, and when it should start."""
        return Explanation.of(self._call("GET", "/api/v1/operations/" + _segment(operation_id) + "/explain"))

    def jobs(self, operation_id: str, *, limit: Optional[int] = None) -> List[Job]:
        """Its running jobs and its last ended attempts."""
        return [Job.of(item) for item in
                self._pages("/api/v1/operations/" + _segment(operation_id) + "/jobs", {}, limit)]

    def log(self, operation_id: str, job_id: str, *, stream: str = "stdout", offset: int = 0) -> JobLog:
        """A piece of a job's log (up to 1 MiB from ``offset``; negative counts from the end)."""
        return JobLog.of(self._call("GET", "/api/v1/operations/%s/jobs/%s/logs" % (_segment(operation_id),
                                                                                   _segment(job_id)),
                                    params={"stream": stream, "offset": offset}))

    def logs(self, operation_id: str, job_id: str, *, stream: str = "stdout") -> str:
        """A job's whole log, read piece by piece."""
        text: List[str] = []
        offset = 0
        while True:
            piece = self.log(operation_id, job_id, stream=stream, offset=offset)
            text.append(piece.data)
            if piece.next_offset >= piece.size or piece.next_offset == offset:
                return "".join(text)
            offset = piece.next_offset

    # ---- pools and usage ------------------------------------------------------------------

    def pools(self, tree: Optional[str] = None) -> List[Pool]:
        """The root and every pool of a tree (the default tree when not given), in tree order."""
        name = tree or self._default_tree()
        return [Pool.of(item) for item in self._call("GET", "/api/v1/pool_trees/%s/pools" % _segment(name))]

    def usage(self, *, by: str = "pool", since: str = "30d", until: Optional[str] = None, tree: Optional[str] = None,
              pool: Optional[str] = None, user: Optional[str] = None, per: Optional[str] = None) -> Dict[str, Any]:
        """Resource use from the accounting ledger (``GET /api/v1/usage``), as the API answers it."""
        return self._call("GET", "/api/v1/usage", params={"by": by, "since": since, "until": until, "tree": tree,
                                                           "pool": pool, "user": user, "per": per})

    def _default_tree(self) -> str:
        for tree in self._call("GET", "/api/v1/pool_trees"):
            if tree.get("default"):
                return str(tree["name"])
        raise GroveError(404, "NO_SUCH_TREE", "the scheduler has no default tree")

    # ---- the wire ---------------------------------------------------------------------------

    def _pages(self, path: str, params: Mapping[str, Any], limit: Optional[int]) -> Iterator[Dict[str, Any]]:
        cursor = None
        given = 0
        while True:
            query = dict(params)
            if cursor:
                query["cursor"] = cursor
            items, cursor = self._call("GET", path, params=query, with_cursor=True)
            for item in items:
                if limit is not None and given >= limit:
                    return
                given += 1
                yield item
            if not cursor:
                return

    def _call(self, method: str, path: str, *, params: Optional[Mapping[str, Any]] = None, body: Any = None,
              headers: Optional[Mapping[str, str]] = None, with_cursor: bool = False, retry_unknown: bool = False):
        sent = {"Accept": "application/json", "X-Grove-User": self.user}
        if self.token:
            sent["Authorization"] = "Bearer " + self.token
        if headers:
            sent.update(headers)
        data = None
        if body is not None:
            sent["Content-Type"] = "application/json"
            data = json.dumps(body)
        query = {k: v for k, v in (params or {}).items() if v is not None}
        tried: List[str] = []
        order = [self._current] + [one for one in self.group if one != self._current]
        unreachable: Optional[Exception] = None
        for attempt in range(2 * len(self.group) + 1):
            if not order:
                break
            base = order.pop(0)
            tried.append(base)
            try:
                response = self.session.request(method, base + path, params=query, data=data, headers=sent,
                                                timeout=self.timeout)
            except requests.ConnectionError as e:
                unreachable = e
                continue
            if response.status_code // 100 == 2:
                self._current = base
                answer = response.json()
                return (answer, response.headers.get("X-Next-Cursor")) if with_cursor else answer
            error = error_for(response.status_code, response.text)
            leader = error.details.get("leader") if error.code == "NOT_LEADER" else None
            if leader is not None and self._base(str(leader)) in self.group and self._base(str(leader)) not in tried:
                order.insert(0, self._base(str(leader)))
                continue
            if retry_unknown and error.code == "OUTCOME_UNKNOWN" and attempt == 0:
                # the same Idempotency-Key: a submission that was made answers with its operation
                order.insert(0, base)
                continue
            raise error
        raise Unavailable(0, "UNREACHABLE", "cannot reach the scheduler at %s: %s" % (", ".join(self.group),
                                                                                      unreachable))


def _segment(value: str) -> str:
    from urllib.parse import quote

    return quote(str(value), safe="")


def _login() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name (a container without one)
        return "unknown"
