"""Tool latency benchmark: what one call of each workspace tool costs on this repository.

Runs each operation N times on a copy-free view of the repository (reads only; edits go to a temporary
workspace) and prints the median and worst wall time. Nothing here is a test and nothing asserts.

Usage: python bench/tools_speed.py [WORKSPACE] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from langchain_core.messages import AIMessage

from slmcode.config import Settings
from slmcode.tools.context import ToolContext
from slmcode.tools.nearmiss import nearest_lines
from slmcode.tools.repair import repair_tool_calls
from slmcode.tools.toolset import make_tools, run_tool_call


def timed(action: Callable[[], object], runs: int) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workspace", nargs="?", default=".")
    parser.add_argument("--runs", type=int, default=20)
    options = parser.parse_args()
    root = Path(options.workspace).resolve()
    ctx = ToolContext(workspace=root, settings=Settings(), allowed_commands=(f"{sys.executable} -c",))
    tools = make_tools(ctx)

    def call(name: str, **args: object) -> Callable[[], object]:
        return lambda: run_tool_call(tools, {"name": name, "args": args, "id": "b"})

    big = "\n".join(f"    value_{n} = compute(value_{n - 1}, {n})" for n in range(5000))
    scratch = Path(tempfile.mkdtemp())
    (scratch / "m.py").write_text(big)
    edit_ctx = ToolContext(workspace=scratch, settings=Settings(), read_paths={"m.py"})
    edit_tools = make_tools(edit_ctx)
    counter = iter(range(10**9))
    text_call = AIMessage(content='<tool_call>{"name": "read_file", "arguments": {"file_path": "a.py"}}</tool_call>')
    rows = [
        ("ws_read 200 lines", call("ws_read", path="slmcode/cli.py")),
        ("ws_list glob *.py", call("ws_list", glob="*.py")),
        ("ws_search regex, whole repo", call("ws_search", pattern=r"def \w+_pending")),
        ("ws_shell `git status`", call("ws_shell", command="git status --short")),
        ("ws_shell python -c pass", call("ws_shell", command=f"{sys.executable} -c pass")),
        (
            "ws_edit, 5,000-line file",
            lambda: run_tool_call(
                edit_tools,
                {
                    "name": "ws_edit",
                    "args": {
                        "path": "m.py",
                        "old_str": f"value_{next(counter) % 4000 + 10} = compute",
                        "new_str": "v = compute",
                    },
                    "id": "e",
                },
            ),
        ),
        ("near-miss, 5,000-line file", lambda: nearest_lines(big, "value_2500 = compute(value_2499, 25OO)")),
        ("repair a text call", lambda: repair_tool_calls(text_call, tools)),
    ]
    print(f"workspace: {root}   runs: {options.runs}")
    print(f"{'operation':<32}{'median ms':>12}{'worst ms':>12}")
    for label, action in rows:
        median, worst = timed(action, options.runs)
        print(f"{label:<32}{median:>12.2f}{worst:>12.2f}")


if __name__ == "__main__":
    main()
