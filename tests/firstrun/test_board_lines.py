"""The live board's `recent` lines, seen through a real run on the scripted server: a criterion is cut between
words, and a model's failure says what failed, without the validator's feedback meant for the model."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.terminal import RunView
from tests.fake_llm import FakeLLM, Reply
from tests.graph.scenario import js, script_planning

LONG = (
    "the calculator command line prints an understandable message instead of a traceback when somebody divides by zero"
)
ECHO = js({"steps": [{"step": "A short title.", "files": "A list of file paths."}], "extra": 1})


def recent_lines(fake: FakeLLM, repo: Path) -> list[str]:
    seen: list[str] = []
    console = Console(width=120, record=True, color_system=None, force_terminal=False)
    with RunView(console) as view:

        def on_event(event: dict) -> None:
            view.on_event(event)
            seen.extend(line for line in view.recent if line not in seen)

        api.run(
            "Make division by zero friendly",
            repo,
            base_url=fake.url,
            model="qwen2.5-coder:7b",
            request_retries=0,
            max_retries=0,
            on_event=on_event,
        )
    return seen


def test_a_long_criterion_is_cut_between_words(fake_llm: FakeLLM, repo: Path) -> None:
    criteria = [{"text": LONG, "priority": "must", "verify": "python -m pytest -q -k nothing_selects_this"}]
    fake_llm.on(SYSTEM["scope_judge"], js({"criteria": criteria}))
    fake_llm.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Friendly zero",
                        "description": "Catch ZeroDivisionError in calc/cli.py",
                        "focus_files": ["calc/cli.py"],
                        "criteria": criteria,
                    }
                ]
            }
        ),
    )
    script_planning(fake_llm)
    fake_llm.on(SYSTEM["worker"], Reply(content="Done."))
    fake_llm.on(SYSTEM["corrector"], Reply(content="Done."))
    fake_llm.on(SYSTEM["tester"], Reply(content="Done."))
    verdicts = [line for line in recent_lines(fake_llm, repo) if "the calculator command line" in line]
    assert verdicts, "no verdict line on the board"
    for line in verdicts:
        shown = line.split(" ", 2)[2]  # "r1t1: FAILED the calculator ..."
        assert len(shown) <= 60 and shown.endswith("…")
        assert LONG.startswith(shown.removesuffix("…")) and LONG[len(shown) - 1] == " ", shown  # a whole word


def test_a_model_failure_says_what_failed_not_the_feedback_for_the_model(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.on(SYSTEM["planner"], Reply(content=ECHO))  # copies the schema's descriptions, three times over
    script_planning(fake_llm)
    for role in ("worker", "corrector", "tester"):
        fake_llm.on(SYSTEM[role], Reply(content="Done."))
    failures = [line for line in recent_lines(fake_llm, repo) if line.startswith("[yellow]planner")]
    assert failures, "no failure line for the planner"
    for line in failures:
        assert "no valid Plan after" in line
        assert "A short title." not in line and "schema" not in line and "description" not in line, line
        assert len(line) <= len("[yellow]planner: ") + 80 + len("[/yellow]")
