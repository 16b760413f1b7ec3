"""The gates a quality block switches on, run over one task's change, in a fixed order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.blocks.schema import QualityGates
from slmcode.config import Settings
from slmcode.environment import Environment
from slmcode.gates.claims import check_claims
from slmcode.gates.completeness import check_completeness
from slmcode.gates.lint import check_lint
from slmcode.gates.placeholder import check_placeholders
from slmcode.gates.smoke import check_smoke
from slmcode.gates.task_record import TaskRecord
from slmcode.gates.verdict import GateVerdict

READ_LIMIT = 1_000_000  # bytes of one changed file the placeholder gate reads


@dataclass(frozen=True)
class GateInputs:
    workspace: Path
    settings: Settings
    record: TaskRecord
    files_changed: Sequence[str] = ()
    focus_files: Sequence[str] = ()  # empty for a task the plan named no files for (the tester's)
    test_commands: Sequence[str] = ()  # the quality block's and the task's verify commands
    verified: Sequence[str] = ()  # the verify commands that PASSED on the finished work (nodes/verify.py)
    lint_commands: Sequence[str] = ()
    allowed: Sequence[str] = field(default_factory=tuple)  # the shell whitelist's quality commands
    environment: Environment | None = None  # the run's, where the lint and smoke commands run


def changed_texts(workspace: Path, files: Sequence[str]) -> dict[str, str]:
    """The changed files as they are on disk now (a deleted one is left out)."""
    texts = {}
    for rel in files:
        path = workspace / rel
        if path.is_file():
            with path.open("rb") as handle:
                texts[rel] = handle.read(READ_LIMIT).decode("utf-8", "replace")
    return texts


def run_gates(inputs: GateInputs, switches: QualityGates) -> list[GateVerdict]:
    """The verdicts of the gates that are on and apply to this task."""
    files = list(inputs.files_changed)
    verdicts: list[GateVerdict | None] = []
    if switches.placeholder:
        verdicts.append(check_placeholders(changed_texts(inputs.workspace, files), inputs.record.edits()))
    if switches.completeness:
        verdicts.append(check_completeness(inputs.focus_files, files, inputs.record.final_message))
    if switches.claims:
        verdicts.append(check_claims(inputs.record, inputs.test_commands, inputs.verified))
    if switches.lint:
        verdicts.append(
            check_lint(
                inputs.workspace, inputs.settings, inputs.lint_commands, files, inputs.allowed, inputs.environment
            )
        )
    if switches.smoke:
        verdicts.append(check_smoke(inputs.workspace, inputs.settings, files, inputs.allowed, inputs.environment))
    return [v for v in verdicts if v is not None]
