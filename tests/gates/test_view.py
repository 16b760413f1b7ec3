"""`slmcode run`'s table: the criteria's statuses, then the gates in a few words (a failed one by name)."""

from __future__ import annotations

from rich.console import Console

from slmcode.api import RunResult
from slmcode.state import Criterion, Task, Verdict
from slmcode.terminal import result_table

CHECK = Criterion(text="divide is tested", verify="python -m pytest -q -k divide")
GATE = Criterion(text="gate")


def rendered(*verdicts: Verdict) -> str:
    task = Task(id="r1t1", title="Add divide", status="rejected", verdicts=list(verdicts))
    console = Console(width=200, record=True)
    console.print(result_table(RunResult(run_id="run-1", status="failed", outcome="failed", tasks=[task])))
    return console.export_text()


def test_a_failed_gate_is_named_and_passed_gates_are_counted() -> None:
    failed = rendered(
        Verdict(criterion=CHECK, status="PASSED"),
        Verdict(criterion=GATE, status="PASSED", gate="smoke"),
        Verdict(criterion=GATE, status="FAILED", gate="placeholder"),
    )
    assert "criterion PASSED; gate placeholder failed" in failed  # not "PASSED placeholder:FAILED"
    passed = rendered(Verdict(criterion=CHECK, status="PASSED"), Verdict(criterion=GATE, status="PASSED", gate="smoke"))
    assert "criterion PASSED; gates 1/1 passed" in passed
