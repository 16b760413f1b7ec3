"""A scripted team for end-to-end runs: the fake model's answers per role, and a small git repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from slmcode.nodes.prompts import SYSTEM
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, Reply, tool_call

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "calculator"

DIVIDE_BUGGY = '''

def divide(a: float, b: float) -> float:
    """Return a divided by b."""
    return a * b
'''
DIVIDE = DIVIDE_BUGGY.replace("a * b", "a / b")
MULTIPLY_END = '''    """Return the product of a and b."""
    return a * b
'''
TEST_DIVIDE = """

def test_divide() -> None:
    assert ops.divide(6, 3) == 2
"""


def _runtime_files(folder: str, names: list[str]) -> set[str]:
    """What a run of the example leaves behind; its .slmcode/blocks is part of the example."""
    skip = {n for n in names if n in ("__pycache__", ".pytest_cache")}
    if Path(folder).name == ".slmcode":
        skip |= {n for n in names if n != "blocks"}
    return skip


def make_repo(root: Path) -> Path:
    repo = root / "calculator"
    shutil.copytree(EXAMPLE, repo, ignore=_runtime_files)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "init"]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=env)
    if os.environ.get("SLMCODE_HOME"):  # a test's own home, never the developer's ~/.slmcode
        trust_workspace(repo)  # as the README's demo does: the example's quality block (its test command) applies
    return repo


def add_bulk_code(repo: Path, functions: int = 150) -> None:
    """calc/more_ops.py with enough code that the packs and the map fill what a 4K-8K budget allows: a request
    sized from the wrong window then runs past what the server keeps."""
    (repo / "calc" / "more_ops.py").write_text(
        "".join(
            f"def scaled_operation_{i}(left: float, right: float) -> float:\n"
            f'    """Combine left and right with weight {i}, rounding half to even."""\n'
            f"    return round(left * {i} + right / {i + 1}, 6)\n\n\n"
            for i in range(functions)
        )
    )


def python_on_path() -> str:
    """PATH with this interpreter's folder first, so `python -m pytest` in a verify command finds pytest."""
    return f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"


def js(value: object) -> str:
    return json.dumps(value)


def script_planning(fake: FakeLLM) -> None:
    fake.on(SYSTEM["clarify"], js({"requirements": ["calc.ops has divide(a, b)"], "questions": []}))
    fake.on(
        SYSTEM["scope_judge"],
        js({"criteria": [{"text": "the tests pass", "priority": "must", "verify": "python -m pytest -q"}]}),
    )
    fake.on(
        SYSTEM["planner"],
        js({"steps": [{"step": "add divide and its test", "files": ["calc/ops.py", "tests/test_ops.py"]}]}),
    )
    fake.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Add divide",
                        "description": "Add divide(a, b) to calc/ops.py and a test in tests/test_ops.py",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                        "criteria": [{"text": "the tests pass", "priority": "must", "verify": "python -m pytest -q"}],
                    }
                ]
            }
        ),
    )
    fake.on(SYSTEM["learn"], js({"lessons": ["Run python -m pytest -q after every edit in calc/."]}))
    fake.on(SYSTEM["reviewer"], js({"approve": True, "notes": []}))
    fake.on(SYSTEM["escalate"], js({"decision": "give_up", "guidance": ""}))


def divide_worker_replies(divide: str = DIVIDE) -> list[Reply]:
    """A worker that adds `divide` (correct by default) to calc/ops.py and its test, reading each file first."""
    return [
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + divide)]
        ),
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="tests/test_ops.py",
                    old_str="    assert ops.multiply(4, 3) == 12\n",
                    new_str="    assert ops.multiply(4, 3) == 12\n" + TEST_DIVIDE,
                )
            ]
        ),
        Reply(content="Added divide and its test."),
    ]


def script_buggy_worker_then_fix(fake: FakeLLM, *, fix: bool = True) -> None:
    """The worker adds divide with a bug and its test; the corrector fixes the bug (or, fix=False, gives up)."""
    fake.on(
        SYSTEM["worker"],
        *divide_worker_replies(DIVIDE_BUGGY)[:-1],
        Reply(tool_calls=[tool_call("ws_read", path="calc/cli.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="calc/cli.py",
                    old_str='"multiply": ops.multiply}',
                    new_str='"multiply": ops.multiply, "divide": ops.divide}',
                )
            ]
        ),
        Reply(content="Added divide, its test and the command."),
    )
    if not fix:
        fake.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
    fake.on(
        SYSTEM["corrector"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="calc/ops.py",
                    old_str='by b."""\n    return a * b',
                    new_str='by b."""\n    return a / b',
                )
            ]
        ),
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Fixed divide."),
    )
    fake.on(
        SYSTEM["tester"],
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Tests pass."),
    )
