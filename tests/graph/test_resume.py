"""Crash resume: a run in a subprocess is killed with SIGKILL at a chosen point, resumed in a new process,
and must end exactly as an uninterrupted run of the same script does (files, tasks, verdicts, outcome, the
stored conversations and the trace's record of tool and model calls), with no edit applied twice.

The fake model server lives in this process, so its script survives the kill. Each kill point is detected,
never guessed with a sleep: from the requests the server received, or from the pause gate's marker file.
"""

from __future__ import annotations

import fcntl
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.graph.crash import Scene, ending, finish, kill, scenes, trace_record, wait_until
from tests.graph.resume_scenario import hold, is_first_power_request, is_review

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The same script run once without interruption."""
    with pytest.MonkeyPatch.context() as mp, scenes(tmp_path_factory) as make:
        scene = make()
        mp.setenv("SLMCODE_HOME", scene.env["SLMCODE_HOME"])
        result = finish(scene.start())
        yield {"result": result, **ending(scene, scene.run_id)}


@pytest.fixture
def new_scene(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], Scene]]:
    with scenes(tmp_path_factory) as make:
        yield make


# -- kill points: how to set each trap, how to see the run is inside it, what must hold at that moment ----------


def ended(started: Path) -> bool:
    """The paused pytest holds a lock on its marker until it ends (or is killed): free means gone."""
    with started.open() as marker:
        try:
            fcntl.flock(marker, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@dataclass(frozen=True)
class KillPoint:
    arm: Callable[[Scene], None]
    reached: Callable[[Scene], bool]
    check: Callable[[Scene], None]
    release: Callable[[Scene], None] = lambda scene: None


def started_file(scene: Scene) -> Path:
    return Path(f"{scene.pause_file}.started")


def pause_pytest(scene: Scene) -> None:
    scene.pause_file.touch()


def in_tool_call(scene: Scene) -> bool:
    return started_file(scene).is_file() and started_file(scene).read_text().strip() != ""


def edits_done_shell_running(scene: Scene) -> None:
    # The step's two edits ran (a call is journaled, then traced) before its pytest call, which the kill cut.
    done = [name for _, name, _ in trace_record(scene, scene.run_id)["tools"]]
    assert done == ["ws_read", "ws_read", "ws_edit", "ws_edit"]
    assert (scene.repo / "calc" / "ops.py").read_text().count("def divide") == 1
    assert "test_divide" in (scene.repo / "tests" / "test_ops.py").read_text()


def unpause_pytest(scene: Scene) -> None:
    """Let the orphaned pytest of the killed run (a session of its own) finish before resuming."""
    scene.pause_file.unlink()
    deadline = time.monotonic() + 60
    while not ended(started_file(scene)) and time.monotonic() < deadline:
        time.sleep(0.05)


def task_events(scene: Scene) -> list[tuple[str | None, str | None]]:
    with scene.trace() as trace:
        return [(e.task_id, e.data.get("status")) for e in trace.timeline(scene.run_id) if e.kind == "task"]


def first_task_done_second_not_started(scene: Scene) -> None:
    events = task_events(scene)
    assert ("r1t1", "done") in events
    assert not [e for e in trace_record(scene, scene.run_id)["tools"] if e[0] == "r1t2"]


def second_task_verified_not_reviewed(scene: Scene) -> None:
    record = trace_record(scene, scene.run_id)
    assert ("r1t2", "the tests pass", "PASSED") in record["verdicts"]
    assert ("r1t2", "done") not in task_events(scene)


POINTS = {
    "tool_call": KillPoint(pause_pytest, in_tool_call, edits_done_shell_running, unpause_pytest),
    "between_tasks": KillPoint(
        lambda scene: hold(scene.fake, is_first_power_request),
        lambda scene: any(is_first_power_request(r) for r in list(scene.fake.requests)),
        first_task_done_second_not_started,
    ),
    "review": KillPoint(
        lambda scene: hold(scene.fake, is_review),
        lambda scene: any(is_review(r) for r in list(scene.fake.requests)),
        second_task_verified_not_reviewed,
    ),
}


def crash(scene: Scene, point: str, checkpoint_url: str | None = None) -> None:
    """Start the run, SIGKILL it once it is inside `point`, check where it stopped, undo the trap."""
    kill_point = POINTS[point]
    kill_point.arm(scene)
    run = scene.start(checkpoint_url=checkpoint_url)
    wait_until(lambda: kill_point.reached(scene), point, run)
    kill(run)
    kill_point.check(scene)
    kill_point.release(scene)


def assert_same_end(scene: Scene, resumed: dict[str, Any], reference: dict[str, Any]) -> None:
    assert resumed["run_id"] == scene.run_id
    assert resumed["outcome"] == reference["result"]["outcome"] == "done"
    end = ending(scene, scene.run_id)
    assert end["files"] == reference["files"]  # so no edit was applied twice
    assert end["files"]["calc/ops.py"].count("def divide") == 1
    assert end["state"] == reference["state"]
    assert end["trace"] == reference["trace"]


# -- the tests ------------------------------------------------------------------------------------------------


def test_the_uninterrupted_run_passes_every_kill_point(reference: dict[str, Any]) -> None:
    """Guards the script: the points the other tests kill at all happen in a run that is never killed."""
    assert reference["result"]["outcome"] == "done", reference["result"]
    assert "ai:ws_edit,ws_edit,ws_shell" in reference["state"]["conversations"]["r1t1/1"]
    assert ("reviewer", "r1t2") in reference["trace"]["models"]  # the review the `review` point kills
    assert [t["status"] for t in reference["state"]["tasks"]] == ["done", "done", "done"]
    assert reference["files"]["calc/ops.py"].count("def divide") == 1


@pytest.mark.parametrize("point", ["tool_call", "review"])
def test_a_run_killed_mid_step_resumes_to_the_end_of_an_uninterrupted_run(
    point: str, new_scene: Callable[[], Scene], reference: dict[str, Any]
) -> None:
    scene = new_scene()
    crash(scene, point)
    assert_same_end(scene, finish(scene.resume_api()), reference)


@pytest.mark.postgres
def test_a_run_checkpointed_in_postgres_resumes_after_a_kill(
    new_scene: Callable[[], Scene], reference: dict[str, Any], postgres_url: str
) -> None:
    scene = new_scene()
    crash(scene, "tool_call", checkpoint_url=postgres_url)
    assert_same_end(scene, finish(scene.resume_api()), reference)
    assert not (scene.repo / ".slmcode" / "checkpoints.sqlite").exists()


def test_slmcode_resume_without_an_id_continues_the_latest_unfinished_run(
    new_scene: Callable[[], Scene], reference: dict[str, Any]
) -> None:
    scene = new_scene()
    with scene.trace() as trace:  # an older unfinished run: not the latest
        trace.start_run("run-older", query="older", workspace=str(scene.repo), model="m", settings={})
    crash(scene, "between_tasks")
    with scene.trace() as trace:  # a newer run that finished: not unfinished
        trace.start_run("run-newer", query="newer", workspace=str(scene.repo), model="m", settings={})
        trace.finish_run("run-newer", status="done", outcome="done")
    assert_same_end(scene, finish(scene.resume_cli()), reference)
    with scene.trace() as trace:
        assert trace.latest_unfinished() == "run-older"
