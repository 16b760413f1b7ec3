"""Running the bundled suite's attempts: a fresh copy of the task's repository in a temp folder per attempt, the
attempt in its own process with a deadline (eval/process.py), `jobs` of them at a time."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slmcode.eval.attempt import Attempt, settle
from slmcode.eval.harness import AgentRun, trace_figures
from slmcode.eval.process import commit_all, run_all, spawn
from slmcode.eval.recording_proxy import RecordingProxy
from slmcode.eval.replay import REPLAY_MODEL, Replay, serve
from slmcode.eval.suite import EvalTask, changed_files, copy_repo


@dataclass(frozen=True)
class Job:
    task: EvalTask
    agent: str  # harness | baseline
    settings: dict[str, Any]  # base_url, model and the other run settings
    replay: Replay | None = None
    record: Path | None = None  # a folder: the attempt's answers are kept there as a replay


def _attempt(job: Job, spec: dict[str, Any], workspace: Path, timeout: float) -> Attempt:
    started = time.monotonic()
    record, timed_out, stderr = spawn("slmcode.eval.attempt", spec, timeout)
    if record is not None:
        return Attempt(**record)
    # Killed at its deadline, or crashed: recorded from what the workspace and the trace show.
    run = trace_figures(workspace, spec["run_id"]) if job.agent == "harness" else AgentRun()
    run.signals.error = "" if timed_out else (stderr.strip().splitlines() or ["the attempt crashed"])[-1]
    return settle(
        spec,
        run,
        files=changed_files(job.task, workspace),
        solved=False,
        timed_out=timed_out,
        seconds=time.monotonic() - started,
        grade_output=stderr,
    )


def run_job(job: Job, timeout: float, keep: Path | None = None) -> Attempt:
    """One attempt end to end; never raises for a failed attempt."""
    root = Path(tempfile.mkdtemp(prefix=f"slmcode-eval-{job.task.id}-"))
    server = serve(job.replay) if job.replay else None
    proxy = RecordingProxy(job.settings["base_url"]).start() if job.record and not job.replay else None
    try:
        workspace = copy_repo(job.task, root / job.task.id)
        commit_all(workspace, "task")
        settings = dict(job.settings)
        if server is not None:
            settings |= {"base_url": server.url, "model": REPLAY_MODEL, "request_retries": 0}
        if proxy is not None:
            settings["base_url"] = proxy.url
        run_id = f"eval-{job.task.id}-{job.agent}"
        spec = {
            "task": job.task.id,
            "suite": str(job.task.folder.parent),
            "agent": job.agent,
            "workspace": str(workspace),
            "run_id": run_id,
            "settings": settings,
        }
        attempt = _attempt(job, spec, workspace, timeout)
        if proxy is not None and job.record is not None:
            head = {"task": job.task.id, "agent": job.agent, "expect": attempt.failure or "solved"}
            proxy.write(job.record / f"{job.task.id}.{job.agent}.jsonl", head)
        return attempt
    finally:
        for stoppable in (server, proxy):
            if stoppable is not None:
                stoppable.stop()
        if keep is not None:
            shutil.copytree(
                root,
                keep / f"{job.task.id}-{job.agent}",
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("target", "node_modules"),
            )
        shutil.rmtree(root, ignore_errors=True)


def run_jobs(
    jobs: list[Job], *, parallel: int, timeout: float, on_result: Callable[[Attempt], None], keep: Path | None = None
) -> list[Attempt]:
    """Every job, `parallel` at a time; results in the jobs' order."""
    return run_all(jobs, lambda job: run_job(job, timeout, keep), parallel=parallel, on_result=on_result)
