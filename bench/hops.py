"""How far a value travels through slmcode: three walks, each counted as module-boundary crossings.

A hop is a call from one slmcode module into another: along the call stack at a walk's end, each change of
module between consecutive slmcode frames counts one (library frames between them, langgraph's or
langchain's, are passed through and not counted). The walks, on a real `slmcode run --agent worker` in this
process, over the scripted server on loopback, on a copy of examples/calculator:

  run -> first node    the stack when the first graph node (a function in slmcode/nodes/ that langgraph calls)
                       starts, from the command's own frame; and every slmcode module that ran before it;
  worker step -> HTTP  the stack when httpx sends the worker's first request, from the worker node's frame; and
                       every module that ran in that step before the request;
  one tool call        the stack when ws_read's tool function starts, from the worker node's frame; and every
                       module the call runs before it returns.

Usage: python bench/hops.py [--json]. Runs on whatever tree `slmcode` imports from, so the same script gives the
figures before and after a change (PYTHONPATH=OLD_TREE python bench/hops.py). Counting is deterministic; it does
not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "calculator"


# The module holding the worker's two nodes: nodes/worker.py until they moved into the nodes/worker/ package.
WORKER = ("nodes/worker.py", "nodes/worker/loop.py")


def _worker(modules: list[str]) -> str | None:
    return next((m for m in modules if m in WORKER), None)


def _module(frame: FrameType, root: str) -> str | None:
    """`nodes/worker/loop.py` for a frame in slmcode's own code, None for any other."""
    path = frame.f_code.co_filename
    return path[len(root) :] if path.startswith(root) else None


def _stack(frame: FrameType | None, root: str, start: str | None = None) -> list[str]:
    """slmcode modules on the stack, outermost first, from the outermost frame of `start` (a module) on."""
    modules = []
    while frame is not None:
        module = _module(frame, root)
        if module is not None:
            modules.append(module)
        frame = frame.f_back
    modules.reverse()
    if start is not None and start in modules:
        modules = modules[modules.index(start) :]
    return modules


def _package(module: str) -> str:
    return module.split("/")[0] if "/" in module else module.removesuffix(".py")


def walk(modules: list[str], entered: list[str]) -> dict[str, Any]:
    """The stack's path (consecutive frames of one module folded) and what ran on the way to its end."""
    path = [m for i, m in enumerate(modules) if i == 0 or m != modules[i - 1]]
    return {"hops": len(path) - 1, "path": path, "entered": entered}


class Watcher:
    """The profile hook: records each walk's stack the first time its end point is reached."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.walks: dict[str, dict[str, Any]] = {}
        self.entered: dict[int, set[str]] = {}
        self.importing: dict[int, int] = {}
        self.before_first_node: set[str] = set()
        self.tool_frame: FrameType | None = None
        self.tool_thread = 0
        self.tool_modules: set[str] = set()

    def __call__(self, frame: FrameType, event: str, arg: object) -> None:
        # Code run by an import (module bodies, decorators) is start-up, not a hop: skipped while one loads.
        if (
            event in ("call", "return")
            and frame.f_code.co_name == "_find_and_load"
            and frame.f_code.co_filename.startswith("<frozen")
        ):
            thread = threading.get_ident()
            self.importing[thread] = self.importing.get(thread, 0) + (1 if event == "call" else -1)
            return
        if self.importing.get(threading.get_ident()):
            return
        if event != "call":
            if event == "return" and frame is self.tool_frame:
                self.tool_frame = None
                self.walks["tool call"]["entered"] = sorted(self.tool_modules)
            return
        module = _module(frame, self.root)
        if module and module.startswith("eval/"):
            module = None  # the scripted server answering on its own thread is the bench's, not the run's
        if self.tool_frame is not None and module and threading.get_ident() == self.tool_thread:
            self.tool_modules.add(module)
        parent = frame.f_back
        thread = threading.get_ident()
        if module:
            self.entered.setdefault(thread, set()).add(module)
            if "run -> first node" not in self.walks:
                self.before_first_node.add(module)
        node_start = bool(
            module and module.startswith("nodes/") and parent is not None and "/langgraph/" in parent.f_code.co_filename
        )
        if node_start and module in WORKER:
            self.entered[thread] = {module}  # a worker step starts: what it enters from here on
        if "run -> first node" not in self.walks and node_start:
            # The node runs on langgraph's worker thread; the command's own stack waits in the main thread.
            main = sys._current_frames().get(threading.main_thread().ident or 0)
            command = _stack(main, self.root) if thread != threading.main_thread().ident else []
            self.walks["run -> first node"] = walk(
                [*command, *_stack(frame, self.root)], sorted(self.before_first_node)
            )
        name = frame.f_code.co_name
        if (
            "worker step -> HTTP" not in self.walks
            and name == "send"
            and frame.f_code.co_filename.endswith(("httpx/_client.py", "httpx2/_client.py"))
        ):
            modules = _stack(frame, self.root)
            if worker := _worker(modules):
                self.walks["worker step -> HTTP"] = walk(
                    _stack(frame, self.root, worker), sorted(self.entered.get(thread, ()))
                )
        if "tool call" not in self.walks and name == "ws_read" and module == "tools/workspace.py":
            stack = _stack(frame, self.root)
            self.walks["tool call"] = walk(_stack(frame, self.root, _worker(stack)), [])
            self.tool_frame, self.tool_modules, self.tool_thread = frame, {module}, threading.get_ident()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    import slmcode
    from slmcode.cli import main as cli_main
    from slmcode.eval.scripted import FakeLLM, Reply, tool_call

    root = str(Path(slmcode.__file__).parent) + os.sep
    work = Path(tempfile.mkdtemp(prefix="slmcode-hops-"))
    try:
        workspace = work / "calculator"
        shutil.copytree(EXAMPLE, workspace, ignore=shutil.ignore_patterns(".slmcode", "__pycache__"))
        fake = FakeLLM([Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]), Reply(content="Read it.")])
        fake.default = Reply(content="Done.")
        watcher = Watcher(root)
        with fake, contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            os.environ["SLMCODE_HOME"] = str(work / "home")
            sys.argv = [
                "slmcode",
                "run",
                "Read calc/ops.py",
                "-w",
                str(workspace),
                "--agent",
                "worker",
                "--base-url",
                fake.url,
                "--model",
                "qwen2.5-coder:7b",
                "--git-mode",
                "off",
            ]
            threading.setprofile(watcher)
            sys.setprofile(watcher)
            try:
                cli_main()
            except SystemExit:
                pass
            finally:
                sys.setprofile(None)
                threading.setprofile(None)  # type: ignore[arg-type]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(watcher.walks, indent=2))
        return
    print(f"slmcode at {root}")
    for name in ("run -> first node", "worker step -> HTTP", "tool call"):
        found = watcher.walks.get(name)
        if found is None:
            print(f"{name}: not reached")
            continue
        entered = found["entered"]
        packages = sorted({_package(m) for m in entered})
        tools = [m for m in entered if m.startswith("tools/")]
        print(
            f"{name}: {found['hops']} hops on the stack; {len(entered)} modules of {len(packages)} packages ran "
            f"on the way ({len(tools)} of tools/)"
        )
        print("  stack: " + " > ".join(found["path"]))
        print("  packages: " + ", ".join(packages))


if __name__ == "__main__":
    main()
