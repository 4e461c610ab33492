"""Reading the API's answers, without a scheduler."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from grove_client.models import _time

UTC = timezone.utc


@pytest.mark.parametrize("text, expected", [
    # what the scheduler writes: Java's Instant, to the nanosecond, or to the second
    ("2026-11-28T10:00:00.123456789Z", datetime(2026, 11, 28, 10, 0, 0, 123456, tzinfo=UTC)),
    ("2026-11-28T10:00:00Z", datetime(2026, 11, 28, 10, 0, 0, tzinfo=UTC)),
    ("2026-11-28T10:00:00.5Z", datetime(2026, 11, 28, 10, 0, 0, 500000, tzinfo=UTC)),
    ("2026-11-28T10:00:00.123Z", datetime(2026, 11, 28, 10, 0, 0, 123000, tzinfo=UTC)),
    # an offset, with and without a fraction
    ("2026-11-28T12:00:00.000000001+02:00", datetime(2026, 11, 28, 10, 0, 0, tzinfo=UTC)),
    ("2026-11-28T05:30:00-04:30", datetime(2026, 11, 28, 10, 0, 0, tzinfo=UTC)),
    # no zone: UTC
    ("2026-11-28T10:00:00.25", datetime(2026, 11, 28, 10, 0, 0, 250000, tzinfo=UTC)),
])
def test_every_time_the_api_writes_is_an_aware_datetime(text, expected):
    read = _time(text)
    assert read == expected
    assert read.tzinfo is not None and read.utcoffset() == expected.astimezone(read.tzinfo).utcoffset()


def test_times_with_and_without_a_fraction_compare():
    whole = _time("2026-11-28T10:00:00Z")
    fraction = _time("2026-11-28T10:00:00.999999999Z")
    assert fraction - whole == timedelta(microseconds=999999)


@pytest.mark.parametrize("text", ["", None, "yesterday", "2026-11-28", "2026-11-28T25:00:00Z",
                                  "2026-11-28T10:00:00.Z", "2026-11-28T10:00:00Zjunk"])
def test_what_is_not_a_time_reads_as_none_and_never_raises(text):
    assert _time(text) is None
