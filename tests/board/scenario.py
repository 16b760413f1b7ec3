"""A scripted team whose splitter proposes two tasks (divide, and a README logo the user will drop); each
worker is matched by a marker in its task's description, so a request shows which task it served."""

from __future__ import annotations

from slmcode.eval.scripted import Request, request_text
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import MULTIPLY_END, js

CHECK = "python -m pytest -q"
MULTIPLY_TEST = "    assert ops.multiply(4, 3) == 12\n"
TESTS = {
    "TASK-DIVIDE": "\n\ndef test_divide() -> None:\n    assert ops.divide(6, 3) == 2\n",
    "TASK-POWER": "\n\ndef test_power() -> None:\n    assert ops.power(2, 3) == 8\n",
}
DIVIDE = '\n\ndef divide(a: float, b: float) -> float:\n    """Return a divided by b."""\n    return a / b\n'
POWER = '\n\ndef power(a: float, b: float) -> float:\n    """Return a to the power b."""\n    return a**b\n'
DIVIDE_TASK = {
    "title": "Add divide",
    "description": "TASK-DIVIDE: add divide(a, b) to calc/ops.py",
    "focus_files": ["calc/ops.py", "tests/test_ops.py"],
    "criteria": [{"text": "divide works", "verify": CHECK + " -k divide"}],
}
LOGO_TASK = {
    "title": "Draw a logo",
    "description": "TASK-LOGO: put an ASCII logo in README.md",
    "focus_files": ["README.md"],
    "criteria": [{"text": "tests pass", "verify": CHECK}],
}
POWER_TASK = {
    "title": "Add power",
    "description": "TASK-POWER: add power(a, b) to calc/ops.py",
    "focus_files": ["calc/ops.py", "tests/test_ops.py"],
    "criteria": [{"text": "power works", "verify": CHECK + " -k power"}],
}


def is_worker_for(marker: str):
    def match(request: Request) -> bool:
        return request_text(request).startswith(SYSTEM["worker"]) and marker in request_text(request)

    return match


def worker_requests(fake: FakeLLM, marker: str) -> list[Request]:
    return [r for r in fake.requests if is_worker_for(marker)(r)]


def script_team(fake: FakeLLM, tasks: list[dict] | None = None) -> None:
    fake.on(SYSTEM["clarify"], js({"requirements": ["calc.ops has divide and power"], "questions": []}))
    fake.on(SYSTEM["scope_judge"], js({"criteria": [{"text": "the tests pass", "priority": "must", "verify": CHECK}]}))
    fake.on(
        SYSTEM["planner"],
        js(
            {
                "steps": [
                    {"step": "add divide", "files": ["calc/ops.py"]},
                    {"step": "add a logo", "files": ["README.md"]},
                ]
            }
        ),
    )
    fake.on(SYSTEM["splitter"], js({"tasks": tasks if tasks is not None else [DIVIDE_TASK, LOGO_TASK]}))
    fake.on(SYSTEM["learn"], js({"lessons": []}))
    fake.on(SYSTEM["reviewer"], js({"approve": True, "notes": []}))
    fake.on(SYSTEM["escalate"], js({"decision": "give_up", "guidance": ""}))
    for marker, code in (("TASK-DIVIDE", DIVIDE), ("TASK-POWER", POWER)):
        fake.on(
            is_worker_for(marker),
            Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
            Reply(
                tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + code)]
            ),
            Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
            Reply(
                tool_calls=[
                    tool_call(
                        "ws_edit",
                        path="tests/test_ops.py",
                        old_str=MULTIPLY_TEST,
                        new_str=MULTIPLY_TEST + TESTS[marker],
                    )
                ]
            ),
            Reply(content="Done."),
        )
    fake.on(is_worker_for("TASK-LOGO"), Reply(content="The logo task was never meant to run."))
    fake.on(SYSTEM["tester"], Reply(tool_calls=[tool_call("ws_shell", command=CHECK)]), Reply(content="Tests pass."))
