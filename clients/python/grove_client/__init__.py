"""A Python client for the Grove scheduler's API.

>>> from grove_client import Grove
>>> grove = Grove("http://127.0.0.1:8080")
>>> op = grove.submit(command="echo hello from $GROVE_JOB_INDEX", pool="etl", jobs=4, cpu=0.25)
>>> grove.wait(op.id).state
'completed'
"""

from .client import Grove
from .errors import GroveError, NotFound, Refused, Unavailable
from .models import Check, Explanation, Job, JobLog, Operation, Pool, Progress

__all__ = ["Grove", "GroveError", "NotFound", "Refused", "Unavailable", "Check", "Explanation", "Job", "JobLog",
           "Operation", "Pool", "Progress"]
__version__ = "0.1.0"
