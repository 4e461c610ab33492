"""The README's first-day commands, run as written (``./grove ...`` lines of its shell blocks)
against the session's real ``grove local``, pointed at it by ``GROVE_SCHEDULER`` as the README's
``grove local`` banner says to. ``./grove local`` itself is that session's cluster; the lines
that build, install or need root or another machine are not first-day commands."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from conftest import REPOSITORY


def first_day_commands():
    text = (REPOSITORY / "README.md").read_text()
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("./grove ") and not line.startswith("./grove local"):
                commands.append(line)
    return commands


def test_the_readme_has_first_day_commands():
    commands = first_day_commands()
    assert len(commands) >= 5, commands
    assert any(c.startswith("./grove submit") for c in commands), commands


@pytest.mark.parametrize("command", first_day_commands())
def test_a_readme_command_runs_as_written(grove_url, tmp_path, command):
    if not (REPOSITORY / "cli" / "target" / "grove.jar").is_file():
        pytest.skip("no grove jar: build it first (mvn -q -DskipTests package)")
    env = dict(os.environ, GROVE_SCHEDULER=grove_url, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("GROVE_TOKEN", None)
    # the line as a shell runs it, its comment and all
    done = subprocess.run(["bash", "-c", command], cwd=REPOSITORY, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, "%s\nexit %d\n%s%s" % (command, done.returncode, done.stdout[-2000:],
                                                        done.stderr[-2000:])
    assert "grove:" not in done.stderr, done.stderr
