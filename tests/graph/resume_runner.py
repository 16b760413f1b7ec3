"""A run in its own process, so a test can SIGKILL it: `python -m tests.graph.resume_runner run|resume ...`.

It starts (or resumes) the run through slmcode.api and prints the result as `slmcode run --json` does.
`final_state` reads what a run ended with back from its checkpointer: the outcome, the tasks with their
verdicts, and the shape of each stored conversation (who spoke, which tools were called). Fields that
differ between two honest runs (pytest's timing line, tool call ids) are normalised so runs compare with ==.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from slmcode import api
from slmcode.config import load_settings
from slmcode.graph.builder import build_graph
from slmcode.graph.checkpoint import open_checkpointer
from slmcode.state import Task

MODEL = "qwen2.5-coder:7b"
PYTEST_TIMING = re.compile(r" in \d+\.\d+s\b")


def normalise(text: str) -> str:
    return PYTEST_TIMING.sub(" in <t>s", text)


def task_summary(task: Task) -> dict[str, Any]:
    data = task.model_dump(mode="json")
    for verdict in data["verdicts"]:
        verdict["evidence"] = normalise(verdict["evidence"])
    return data


def message_shape(message: BaseMessage) -> str:
    """A message as its kind plus the tools it called or answered; ids and timings left out."""
    if isinstance(message, AIMessage):
        return "ai:" + ",".join(c["name"] for c in message.tool_calls)
    if isinstance(message, ToolMessage):
        return f"tool:{message.name}:{message.status}"
    return message.type


def final_state(workspace: Path, run_id: str) -> dict[str, Any]:
    """The run's last checkpoint, read back through the checkpointer the run used, normalised."""
    saved = json.loads((workspace / ".slmcode" / "runs" / f"{run_id}.json").read_text())
    settings = load_settings(workspace, flags=saved["overrides"]).settings
    with open_checkpointer(settings, workspace) as saver:
        snapshot = build_graph(saver).get_state({"configurable": {"thread_id": run_id}})
    values = snapshot.values
    qa = values.get("qa")
    return {
        "next": list(snapshot.next),
        "phase": values.get("phase"),
        "rounds": values.get("rounds"),
        "outcome": values.get("outcome"),
        "tasks": [task_summary(t) for t in values.get("tasks", [])],
        "qa": None if qa is None else {"passed": qa.passed, "reason": normalise(qa.reason)},
        "lessons": values.get("lessons", []),
        "conversations": {
            key: [message_shape(m) for m in messages]
            for key, messages in sorted(values.get("conversations", {}).items())
        },
    }


def main(argv: list[str] | None = None) -> None:
    """Run or resume, then print what `slmcode run --json` prints."""
    parser = argparse.ArgumentParser(prog="resume_runner")
    parser.add_argument("mode", choices=["run", "resume"])
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--run-id", required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--query", default="")
    parser.add_argument("--checkpoint-url", default=None)
    args = parser.parse_args(argv)
    if args.mode == "run":
        result = api.run(
            args.query,
            args.workspace,
            run_id=args.run_id,
            base_url=args.base_url,
            model=MODEL,
            request_retries=0,
            max_parallel=1,
            checkpoint_url=args.checkpoint_url,
        )
    else:
        result = api.resume(args.run_id, args.workspace, base_url=args.base_url)
    print(
        json.dumps(
            {
                "run_id": result.run_id,
                "status": result.status,
                "outcome": result.outcome,
                "ok": result.ok,
                "tasks": [t.model_dump(mode="json") for t in result.tasks],
            }
        )
    )


if __name__ == "__main__":
    main()
