"""The pids cgroups of command lines that run at once (parallel attempts, a web server's requests) are removed
from many threads at the same time: each one goes exactly once and no cleanup raises."""

from __future__ import annotations

import os
import threading

import pytest

from slmcode.environment.limits import PidsCgroup, remove_pending

THREADS = 16
ROUNDS = 40


@pytest.mark.skipif(os.geteuid() != 0, reason="a pids cgroup is made only for commands that would run as root")
def test_cgroups_removed_from_many_threads_at_once_raise_nothing_and_leave_nothing() -> None:
    if PidsCgroup(8).path is None:
        pytest.skip("no pids cgroup can be made here")
    remove_pending(wait=1)
    start = threading.Barrier(THREADS)
    errors: list[BaseException] = []
    made: list[str] = []

    def command_lines() -> None:
        start.wait()
        for _ in range(ROUNDS):
            try:
                group = PidsCgroup(8)
                made.append(str(group.path))
                group.remove()
            except Exception as error:  # the failure this test counts
                errors.append(error)

    threads = [threading.Thread(target=command_lines) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(set(made)) == THREADS * ROUNDS
    assert remove_pending(wait=5) == []
    assert not any(os.path.exists(path) for path in made)
