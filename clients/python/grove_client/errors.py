"""The errors a Grove scheduler answers, said as the ``grove`` command says them."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

# The hints the grove command adds to some codes (cli/.../SchedulerClient.java).
HINTS: Dict[str, str] = {
    "TOO_MANY_OPERATIONS": "wait for operations of the pool to finish, or submit to another pool",
    "UNKNOWN_POOL": "see the pools with 'grove pools'",
    "UNKNOWN_TREE": "see the trees with 'grove pools --tree NAME' or GET /api/v1/pool_trees",
    "NO_SUCH_OPERATION": "see your operations with 'grove ops list --all'",
    "INVALID_STATE": "the operation has finished already",
    "USER_REQUIRED": "say who you are with --user",
    "NO_FAIR_SHARE_YET": "the scheduler has not computed fair shares yet; try again in a second",
    "FORBIDDEN": "ask an administrator of the pool",
}


class GroveError(Exception):
    """A refusal or failure of the scheduler's API.

    ``status`` is the HTTP status, ``code`` the API's error code (``UNKNOWN_POOL``,
    ``NO_SUCH_OPERATION``, ...; ``HTTP_<status>`` when the answer was not the API's), ``message``
    its message, ``details`` what it added (``problems`` of an invalid spec, the ``leader`` of a
    standby). ``str()`` is the line the ``grove`` command prints.
    """

    def __init__(self, status: int, code: str, message: str, details: Optional[Mapping[str, Any]] = None):
        self.status = status
        self.code = code
        self.message = message
        self.details: Dict[str, Any] = dict(details or {})
        super().__init__(self._line())

    @property
    def problems(self) -> List[Dict[str, Any]]:
        """The problems of an invalid spec: ``code``, ``path``, ``attribute``, ``line``, ``message``."""
        problems = self.details.get("problems")
        return list(problems) if isinstance(problems, list) else []

    def _line(self) -> str:
        line = self.message
        for problem in self.problems:
            where = ""
            if problem.get("line", 0) and int(problem["line"]) > 0:
                where += "line %s: " % problem["line"]
            if problem.get("path"):
                where += "%s: " % problem["path"]
            line += "\n  " + where + str(problem.get("message", ""))
        hint = HINTS.get(self.code)
        if hint:
            line += " (" + hint + ")"
        return line

    @classmethod
    def from_answer(cls, status: int, body: str) -> "GroveError":
        """The error an answer carries; a body that is not the API's error JSON is kept as the message."""
        import json

        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("code"), str):
            details = parsed.get("details") if isinstance(parsed.get("details"), dict) else {}
            return cls(status, parsed["code"], str(parsed.get("message", "")), details)
        return cls(status, "HTTP_%d" % status, (body or "").strip() or "HTTP %d" % status)


class NotFound(GroveError):
    """A 404: no such operation, pool, tree or job."""


class Refused(GroveError):
    """A 4xx other than 404: an invalid spec, an ACL, a limit, a state."""


class Unavailable(GroveError):
    """A 5xx: the scheduler could not do it now (not the leader, not written, too busy)."""


def error_for(status: int, body: str) -> GroveError:
    """The error of the right kind for an answer's status."""
    plain = GroveError.from_answer(status, body)
    kind = NotFound if status == 404 else Refused if 400 <= status < 500 else Unavailable
    return kind(plain.status, plain.code, plain.message, plain.details)
