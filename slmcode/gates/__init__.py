"""Quality gates: small checks of a task's change that do not trust the worker's word.

Each gate takes what it needs (the changed files as they are on disk, the edits the task made, its shell runs,
the language pack's commands) and returns a GateVerdict: PASSED or FAILED with one line of evidence, or
UNVERIFIED when it could not check (a linter that is not installed); None when it does not apply. The verify
phase (nodes/verify.py) runs the gates the quality block switches on (blocks.schema.QualityGates) and adds
their verdicts to the task's verdict table, so a FAILED gate rejects the task like a failed criterion does.
"""

from slmcode.gates.claims import check_claims
from slmcode.gates.completeness import check_completeness
from slmcode.gates.lint import check_lint
from slmcode.gates.placeholder import check_placeholders
from slmcode.gates.smoke import check_smoke
from slmcode.gates.suite import GateInputs, run_gates
from slmcode.gates.task_record import Edit, ShellRun, TaskRecord, task_record
from slmcode.gates.verdict import GateVerdict

__all__ = [
    "Edit",
    "GateInputs",
    "GateVerdict",
    "ShellRun",
    "TaskRecord",
    "check_claims",
    "check_completeness",
    "check_lint",
    "check_placeholders",
    "check_smoke",
    "run_gates",
    "task_record",
]
