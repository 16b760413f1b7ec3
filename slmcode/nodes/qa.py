"""QA: the project's real install and test commands, through the shell whitelist and the OS sandbox. Compiling
alone is not a pass, and neither is a test run that ran no test (pytest's exit 5). The install step runs only
where the sandbox may reach the network."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.nodes.quality import quality_of
from slmcode.run_context import RunContext, emit, environment_of, settings_of, trace_of, workspace_of
from slmcode.state import Criterion, QAResult, RunState
from slmcode.tools.criteria import run_criteria


def run_qa(state: RunState, runtime: Runtime[RunContext]) -> dict:
    settings, workspace = settings_of(runtime), workspace_of(runtime)
    quality = quality_of(runtime)
    emit(runtime, state["run_id"], "phase", phase="qa", command=quality.test)
    if not quality.test:
        result = QAResult(passed=False, reason="no test command for this project: nothing proves the change")
        return {"phase": "qa", "qa": result, "work_log": [f"qa: {result.reason}"]}
    # Installing fetches packages: in a sandbox without network it can only fail, and that failure would say
    # nothing about the change. The tests then run against what is installed, and the log says so.
    install = quality.install if settings.sandbox_network else None
    skipped = [f"qa: install step `{quality.install}` skipped: the sandbox has no network (sandbox_network: false)"]
    steps = [Criterion(text="dependencies install", verify=install)] if install else []
    steps.append(Criterion(text="the test suite passes", verify=quality.test))
    verdicts = run_criteria(
        steps,
        workspace=workspace,
        settings=settings,
        allowed_commands=quality.commands(),
        environment=environment_of(runtime),
    )
    failed = next((v for v in verdicts if v.status != "PASSED"), None)
    last = verdicts[-1]
    for v in verdicts:
        trace_of(runtime).record_verdict(
            state["run_id"], task_id="qa", criterion=v.criterion.text, status=v.status, evidence=v.evidence
        )
    result = QAResult(
        passed=failed is None,
        command=quality.test,
        exit_code=last.exit_code,
        evidence=(failed or last).evidence,
        reason="" if failed is None else f"{failed.criterion.text}: {failed.status} (`{failed.criterion.verify}`)",
    )
    emit(runtime, state["run_id"], "qa", passed=result.passed, reason=result.reason)
    notes = skipped if quality.install and not install else []
    return {"phase": "qa", "qa": result, "work_log": [*notes, f"qa: {'passed' if result.passed else result.reason}"]}
