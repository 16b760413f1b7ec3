"""The mini-swe-agent-like peer: what a user of mini-swe-agent runs instead of the harness. One bash command per
reply, parsed from the reply's one fenced block (any other count is a format error sent back, nothing run);
the command runs in a fresh shell in the sandbox and its return code and output are the next message; the run
ends when a command's output starts with the submit marker, or at the same turn limit as the harness. No tools
on the wire, no structured edits, no pack, no repair: the model edits with sed, heredocs or scripts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from slmcode.config import load_settings
from slmcode.environment import LocalEnvironment
from slmcode.environment.ossandbox import SandboxUnavailable
from slmcode.eval.harness import AgentRun
from slmcode.eval.plain_loop import ask
from slmcode.eval.prompts import (
    MINI_SWE_FORMAT_ERROR,
    MINI_SWE_OBSERVATION,
    MINI_SWE_SUBMIT,
    MINI_SWE_SYSTEM,
    MINI_SWE_TASK,
    MINI_SWE_TIMEOUT,
)
from slmcode.eval.taxonomy import longest_repeat
from slmcode.providers.roles import RoleTable

BASH_BLOCK = re.compile(r"```bash\s*\n(.*?)\n```", re.DOTALL)
OUTPUT_CHARS = 10_000  # mini-swe-agent's cut: longer output keeps its head and tail


def actions(text: str) -> list[str]:
    """The reply's bash blocks' commands."""
    return [block.strip() for block in BASH_BLOCK.findall(text)]


def observation(returncode: int, output: str) -> str:
    if len(output) > OUTPUT_CHARS:
        half = OUTPUT_CHARS // 2
        output = f"{output[:half]}\n[... {len(output) - OUTPUT_CHARS} characters left out ...]\n{output[-half:]}"
    return MINI_SWE_OBSERVATION.format(returncode=returncode, output=output)


def submitted(output: str) -> bool:
    lines = output.lstrip().splitlines()
    return bool(lines) and lines[0].strip() == MINI_SWE_SUBMIT


def run_mini_swe(prompt: str, workspace: Path, test_command: str, settings: dict[str, Any]) -> AgentRun:
    """Loop `model -> one bash command` until the model submits or the turn limit is reached."""
    live = load_settings(workspace, flags=settings).settings
    environment = LocalEnvironment.from_settings(workspace, live)
    worker = RoleTable(live)
    model = worker.client("worker")
    max_turns = worker["worker"].profile.max_turns
    task = MINI_SWE_TASK.format(task=prompt, test_command=test_command)
    messages: list[BaseMessage] = [SystemMessage(MINI_SWE_SYSTEM), HumanMessage(task)]
    record = AgentRun(outcome="turn limit")
    commands: list[tuple[str, Any]] = []
    for _ in range(max_turns):
        answer = ask(model, messages, record)
        if answer is None:
            break
        messages.append(answer)
        found = actions(str(answer.content))
        if len(found) != 1:  # the protocol's own malformed answer: told, nothing ran
            record.signals.malformed_calls += 1
            messages.append(HumanMessage(MINI_SWE_FORMAT_ERROR.format(count=len(found))))
            continue
        command = found[0]
        commands.append(("bash", command))
        try:
            done = environment.run(["bash", "-c", command], timeout=live.shell_timeout_seconds)
        except TimeoutError:
            messages.append(HumanMessage(MINI_SWE_TIMEOUT.format(seconds=live.shell_timeout_seconds)))
            continue
        except SandboxUnavailable as exc:  # no jail here: the peer runs nothing outside it
            record.signals.error = f"no sandbox: {exc}"[:500]
            record.outcome = "error"
            break
        output = (done.stdout + done.stderr).decode("utf-8", "replace")
        if submitted(output):
            record.outcome = "answered"
            break
        messages.append(HumanMessage(observation(done.returncode, output)))
    record.signals.longest_repeat = longest_repeat(commands)
    return record
