"""A real ``grove local`` on loopback ports for the tests: the jar the build made (``GROVE_JAR``,
else ``cli/target/grove.jar`` of this repository), one agent, a data directory of its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPOSITORY = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def await_condition(what, condition, timeout=60.0):
    """The one waiting loop of these tests: ``condition`` until true, or fail saying ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (requests.ConnectionError, OSError):
            pass
        time.sleep(0.1)
    raise AssertionError("not within %s s: %s" % (timeout, what))


@pytest.fixture(scope="session")
def grove_url(tmp_path_factory):
    jar = Path(os.environ.get("GROVE_JAR", REPOSITORY / "cli" / "target" / "grove.jar"))
    if not jar.is_file():
        pytest.skip("no grove jar at %s: build it first (mvn -q -DskipTests package)" % jar)
    java = os.environ.get("JAVA", "java")
    http, node = free_port(), free_port()
    data = tmp_path_factory.mktemp("grove-local")
    log = open(data / "grove-local.log", "w")
    process = subprocess.Popen([java, "-jar", str(jar), "local", "--agents", "1", "--http-port", str(http),
                                "--node-port", str(node), "--data-dir", str(data)], stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = "http://127.0.0.1:%d" % http
    try:
        def up():
            if process.poll() is not None:
                raise AssertionError("grove local exited (%s):\n%s" % (process.returncode,
                                                                    (data / "grove-local.log").read_text()[-4000:]))
            return any(n.get("state") == "online" for n in requests.get(url + "/api/v1/nodes", timeout=2).json())

        await_condition("grove local answers with a node online", up)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
