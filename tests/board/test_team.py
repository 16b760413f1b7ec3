"""The smaller team (`team: auto`): one requirement and a plan naming one file -> one worker, no splitter,
no coordinator; the trace's `team` event and `slmcode compose` say so."""

from __future__ import annotations

import json
from pathlib import Path

from slmcode import api
from slmcode.config import Settings
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.team import is_small, plan_files
from slmcode.state import PRD
from slmcode.store.trace import TraceStore
from tests import inprocess
from tests.board.scenario import CHECK, DIVIDE, MULTIPLY_TEST, TESTS
from tests.board.test_solo import roles_asked
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import MULTIPLY_END, js


def test_a_one_file_task_gets_one_worker_and_no_splitter(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.on(SYSTEM["clarify"], js({"requirements": ["calc.ops has divide(a, b)"], "questions": []}))
    fake_llm.on(
        SYSTEM["scope_judge"],
        js({"criteria": [{"text": "divide is tested", "priority": "must", "verify": f"{CHECK} -k divide"}]}),
    )
    fake_llm.on(SYSTEM["planner"], js({"steps": [{"step": "add divide", "files": ["calc/ops.py"]}]}))
    fake_llm.on(SYSTEM["reviewer"], js({"approve": True, "notes": []}))
    fake_llm.on(SYSTEM["learn"], js({"lessons": []}))
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE)]
        ),
        Reply(tool_calls=[tool_call("ws_read", path="tests/test_ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="tests/test_ops.py",
                    old_str=MULTIPLY_TEST,
                    new_str=MULTIPLY_TEST + TESTS["TASK-DIVIDE"],
                )
            ]
        ),
        Reply(content="Added divide and its test."),
    )
    result = api.run("Add divide", repo, base_url=fake_llm.url, model="m", request_retries=0, team="auto")
    assert result.outcome == "done", result.outcome
    assert [(t.id, t.kind, t.status, t.focus_files) for t in result.tasks] == [
        ("r1t1", "code", "done", ["calc/ops.py"])
    ]
    assert "splitter" not in roles_asked(fake_llm) and "tester" not in roles_asked(fake_llm)
    store = TraceStore.for_workspace(repo)
    events = store.timeline(result.run_id)
    teams = [e.data for e in events if e.kind == "team"]
    assert teams == [{"team": "one worker", "reason": "one requirement and a plan that names one file (calc/ops.py)"}]
    phases = [e.data.get("phase") for e in events if e.kind == "phase"]
    assert "splitter" not in phases and "coordinator" not in phases


def test_only_one_requirement_and_one_file_is_small() -> None:
    prd = PRD(goal="g", requirements=["r"])
    auto = Settings(team="auto")
    assert plan_files("1. add divide [calc/ops.py]\n2. test it [calc/ops.py]") == ["calc/ops.py"]
    assert is_small({"prd": prd, "plan": "1. add divide [calc/ops.py]"}, auto)
    assert not is_small({"prd": prd, "plan": "1. add divide [calc/ops.py, tests/test_ops.py]"}, auto)
    assert not is_small({"prd": prd, "plan": "1. add divide"}, auto)  # a plan naming no file: the whole team
    assert not is_small({"prd": PRD(goal="g", requirements=["r", "s"]), "plan": "1. x [a.py]"}, auto)
    assert not is_small({"prd": prd, "plan": "1. add divide [calc/ops.py]"}, Settings())  # team: full
    assert not is_small({"prd": prd, "plan": "1. x [a.py]"}, Settings(team="auto", approve="plan"))


def test_compose_says_which_team(repo: Path) -> None:
    def compose(*args: str) -> str:
        done = inprocess.slmcode("compose", "Add divide", "-w", str(repo), "--json", *args)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["team"]

    assert compose().startswith("team: the whole team")
    assert compose("--agent", "explorer").startswith("team: the explorer alone")
    (repo / ".slmcode" / "config.yaml").write_text("team: auto\n")
    assert compose().startswith("team: one worker (no splitter, coordinator or tester task)")
