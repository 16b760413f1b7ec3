"""Recorded model answers, served again against today's code: CI checks the harness's parsing, editing and
grading without a model.

A replay is eval/replays/<case>.jsonl. Its first line says which task and agent it is for and what the
attempt must come to: {"task": "py-median-even", "agent": "harness", "expect": "solved"} (or a failure label,
e.g. "tests_failed"). Every other line is one answer of one role, in the order the role received them:
{"role": "worker", "content": "...", "tool_calls": [{"name": "ws_read", "arguments": {"path": "stats.py"}}]}.
A role's last answer repeats when it is asked again. Roles are recognised by their system prompt, as the
pipeline sends it (nodes/prompts.SYSTEM; the baseline's eval/prompts.BASELINE_SYSTEM).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slmcode.errors import SlmcodeError
from slmcode.eval.prompts import BASELINE_SYSTEM
from slmcode.eval.scripted import FakeLLM, Reply

REPLAY_DIR = Path(__file__).resolve().parent / "replays"
REPLAY_MODEL = "replay"


@dataclass(frozen=True)
class Replay:
    name: str
    task: str
    agent: str
    expect: str  # "solved" or a failure label
    answers: dict[str, list[dict[str, Any]]]  # role -> answers in order


def load_replay(path: Path) -> Replay:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not lines or "task" not in lines[0]:
        raise SlmcodeError(f"replay {path.name}: the first line must name its task, agent and expectation")
    head, answers = lines[0], dict[str, Any]()
    for line in lines[1:]:
        answers.setdefault(line["role"], []).append(line)
    return Replay(path.stem, head["task"], head.get("agent", "harness"), head.get("expect", "solved"), answers)


def load_replays(root: Path = REPLAY_DIR, task_id: str | None = None) -> list[Replay]:
    replays = [load_replay(p) for p in sorted(root.glob("*.jsonl"))]
    return [r for r in replays if task_id is None or r.task == task_id]


def _reply(answer: dict[str, Any]) -> Reply:
    content = answer.get("content", "")
    if not isinstance(content, str):  # a structured answer may be written as the JSON value itself
        content = json.dumps(content)
    return Reply(content=content, tool_calls=list(answer.get("tool_calls", [])))


def role_prompt(role: str) -> str:
    from slmcode.nodes.prompts import SYSTEM

    if role == "baseline":
        return BASELINE_SYSTEM
    if role not in SYSTEM:
        raise SlmcodeError(f"replay: unknown role '{role}' (roles: baseline, {', '.join(SYSTEM)})")
    return SYSTEM[role]


def script(server: FakeLLM, replay: Replay) -> FakeLLM:
    """Teach `server` the replay's answers, one rule per role."""
    for role, answers in replay.answers.items():
        server.on(role_prompt(role), *[_reply(a) for a in answers])
    return server


def serve(replay: Replay) -> FakeLLM:
    """A started scripted server answering as the recording did; the caller stops it."""
    return script(FakeLLM(models=[REPLAY_MODEL]), replay).start()
