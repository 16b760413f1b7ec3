"""Crash resume: a run in a subprocess is killed with SIGKILL at a chosen point, resumed in a new process,
and must end exactly as an uninterrupted run of the same script does (files, tasks, verdicts, outcome, the
stored conversations and the trace's record of tool calls), with no edit applied twice.

The fake model server lives in this process, so its script survives the kill. Each kill point is detected,
never guessed with a sleep: from the requests the server received, or from the pause gate's marker file.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from slmcode.memory.journal import journal_path
from slmcode.memory.trace import TraceStore
from tests.fake_llm import FakeLLM
from tests.graph.resume_runner import final_state
from tests.graph.resume_scenario import (
    PAUSE_ENV,
    QUERY,
    hold,
    is_first_power_request,
    is_review,
    make_pausable_repo,
    script_two_tasks,
)
from tests.graph.scenario import python_on_path

pytestmark = pytest.mark.slow

PROJECT = Path(__file__).resolve().parents[2]
SLMCODE = Path(sys.executable).parent / "slmcode"
RUN_TIMEOUT_S = 240.0
SKIPPED_PARTS = {".slmcode", ".git", "__pycache__", ".pytest_cache"}


def environment(home: Path, pause_file: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLMCODE_")}
    return {**env, "SLMCODE_HOME": str(home), "PATH": python_on_path(), PAUSE_ENV: str(pause_file),
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # the fixture repo's pytest starts in 0.5 s, not 3


@dataclass
class RunProcess:
    proc: subprocess.Popen[bytes]
    out: Path
    err: Path

    def errors(self) -> str:
        return self.err.read_text()[-3000:]


@dataclass
class Scene:
    """One workspace, its fake server and the environment its runs get."""

    repo: Path
    fake: FakeLLM
    env: dict[str, str]
    pause_file: Path
    run_id: str = field(default_factory=lambda: f"run-resume-{uuid.uuid4().hex[:8]}")  # unique in PostgreSQL

    def start(self, *, checkpoint_url: str | None = None) -> RunProcess:
        argv = ["run", "--query", QUERY, *(["--checkpoint-url", checkpoint_url] if checkpoint_url else [])]
        return self._spawn("run", [sys.executable, "-m", "tests.graph.resume_runner", *argv, *self._common()])

    def resume_api(self) -> RunProcess:
        return self._spawn("resume", [sys.executable, "-m", "tests.graph.resume_runner", "resume", *self._common()])

    def resume_cli(self) -> RunProcess:
        """`slmcode resume` with no run id: it must find the run by itself."""
        return self._spawn("resume", [str(SLMCODE), "resume", "--workspace", str(self.repo), "--yes", "--json"])

    def _common(self) -> list[str]:
        return ["--workspace", str(self.repo), "--run-id", self.run_id, "--base-url", self.fake.url]

    def _spawn(self, name: str, argv: list[str]) -> RunProcess:
        # Output to files, not pipes: nobody reads a pipe while the run goes on, and a full one would stall it.
        out, err = self.repo.parent / f"{name}.out", self.repo.parent / f"{name}.err"
        with out.open("w") as stdout, err.open("w") as stderr:
            # A session of its own: the kill reaches the whole process group, as a crash or closed terminal would.
            proc = subprocess.Popen(argv, cwd=PROJECT, env=self.env, stdout=stdout, stderr=stderr,
                                    start_new_session=True)
        return RunProcess(proc, out, err)

    def trace(self) -> TraceStore:
        return TraceStore.for_workspace(self.repo)


@contextmanager
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], Scene]]:
    """Make fresh scenes: a new repository and a freshly scripted fake server each; servers stop at the end."""
    with ExitStack() as stack:

        def make() -> Scene:
            root = tmp_path_factory.mktemp("resume")
            fake = stack.enter_context(FakeLLM())
            script_two_tasks(fake)
            pause = root / "pause"
            return Scene(make_pausable_repo(root), fake, environment(root / "home", pause), pause)

        yield make


def finish(run: RunProcess) -> dict[str, Any]:
    """Wait for a run process to end well; its stdout is the run's JSON summary."""
    run.proc.wait(timeout=RUN_TIMEOUT_S)
    assert run.proc.returncode == 0, f"exit {run.proc.returncode}\n{run.errors()}"
    return json.loads(run.out.read_text())


def kill(run: RunProcess) -> None:
    os.killpg(run.proc.pid, signal.SIGKILL)
    assert run.proc.wait(timeout=30) == -signal.SIGKILL


def wait_until(reached: Callable[[], bool], what: str, run: RunProcess) -> None:
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while not reached():
        if run.proc.poll() is not None:
            pytest.fail(f"the run ended before {what}: exit {run.proc.returncode}\n{run.errors()}")
        if time.monotonic() > deadline:
            kill(run)
            pytest.fail(f"the run never reached {what}")
        time.sleep(0.05)


def workspace_files(repo: Path) -> dict[str, str]:
    return {
        str(p.relative_to(repo)): p.read_text()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and not SKIPPED_PARTS & set(p.relative_to(repo).parts)
    }


def trace_record(scene: Scene, run_id: str) -> dict[str, list[Any]]:
    """What the trace says was done, in order: tool calls (with arguments), model calls, verdicts."""
    with scene.trace() as trace:
        events = trace.timeline(run_id)
    return {
        "tools": [(e.task_id, e.data["name"], e.data["args"]) for e in events if e.kind == "tool_call"],
        "models": [(e.role, e.task_id) for e in events if e.kind == "model_call"],
        "verdicts": [(e.task_id, e.data["criterion"], e.data["status"]) for e in events if e.kind == "verdict"],
    }


def ending(scene: Scene, run_id: str) -> dict[str, Any]:
    return {"state": final_state(scene.repo, run_id), "files": workspace_files(scene.repo),
            "trace": trace_record(scene, run_id)}


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

def gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
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
    # The step's two edits ran (and were journaled) before its pytest call, which the kill interrupted.
    with sqlite3.connect(journal_path(scene.repo)) as conn:
        (journaled,) = conn.execute("SELECT COUNT(*) FROM calls WHERE run_id = ?", (scene.run_id,)).fetchone()
    assert journaled == 4  # two reads, two edits
    assert (scene.repo / "calc" / "ops.py").read_text().count("def divide") == 1
    assert "test_divide" in (scene.repo / "tests" / "test_ops.py").read_text()


def unpause_pytest(scene: Scene) -> None:
    """Let the orphaned pytest of the killed run (a session of its own) finish before resuming."""
    pid = int(started_file(scene).read_text())
    scene.pause_file.unlink()
    deadline = time.monotonic() + 60
    while not gone(pid) and time.monotonic() < deadline:
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
        first_task_done_second_not_started),
    "review": KillPoint(
        lambda scene: hold(scene.fake, is_review),
        lambda scene: any(is_review(r) for r in list(scene.fake.requests)),
        second_task_verified_not_reviewed),
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
