"""A plan filled without the model when the request is simple: "Add a divide operation to calc/ops.py with a test".

Such a request already says everything the planning phases would ask a model for: the file (it exists), the new
name (not defined there yet), and whether a test comes with it. A 135M model asked to restate that as a PRD, a
set of criteria, a plan and a task list mostly copies the schemas' descriptions back, slowly; so the harness
fills those four answers itself: the request is the requirement, the one task's focus is the file and its test
file, and the criterion is a check that fails before the change (`pytest -q -k divide` selects no test yet) and
passes once the new function and its test exist. Anything less plain goes to the model as before.

`simple_plan`: auto (the default) does this for the embedded model and models under 1B parameters; on for every
model; off never.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from slmcode.budget.profiles import parse_size_billions
from slmcode.nodes.quality import quality_of
from slmcode.run_context import RunContext, settings_of, workspace_of
from slmcode.state import Criterion

TINY_BILLIONS = 1.0
EMBEDDED = "embedded"  # settings.model when slmcode serves its own model
REQUEST = re.compile(
    r"^\s*add\s+(?:an?\s+|the\s+)?(?:new\s+)?`?(?P<name>[A-Za-z_]\w*)`?(?:\(\))?\s+"
    r"(?:operation|function|method|helper)\s+(?:to|in)\s+`?(?P<file>[\w./-]+\.py)`?"
    r"(?P<test>\s+with\s+(?:a|its|one)\s+test)?\s*\.?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class SimpleTask:
    name: str  # the new function
    file: str  # workspace-relative, exists
    test_file: str | None  # the file the test goes in, when the request asks for one
    check: str | None  # a command that fails before the change and passes after it

    @property
    def focus(self) -> list[str]:
        return [self.file, *([self.test_file] if self.test_file else [])]

    # Short on purpose: on a 2K window every word here is a line of calc/ops.py the worker does not see.
    @property
    def title(self) -> str:
        return f"Add {self.name}"

    @property
    def description(self) -> str:
        test = f", and test_{self.name} to {self.test_file}" if self.test_file else ""
        return f"Add {self.name} to {self.file} like its neighbours{test}."

    def criteria(self) -> list[Criterion]:
        if self.check is None:
            return []
        return [Criterion(text=f"test_{self.name} passes", priority="must", verify=self.check)]


def _test_file(workspace: Path, file: str) -> str | None:
    stem = Path(file).stem
    for candidate in (f"tests/test_{stem}.py", f"test_{stem}.py", f"{Path(file).parent}/test_{stem}.py"):
        if (workspace / candidate).is_file():
            return candidate
    return None


def parse_simple(query: str, workspace: Path, test_command: str | None) -> SimpleTask | None:
    """The request read as one new Python function in one existing file, or None when it says more than that."""
    match = REQUEST.match(query)
    if match is None:
        return None
    name, file = match["name"], match["file"].removeprefix("./")
    path = workspace / file
    if ".." in Path(file).parts or not path.is_file():
        return None
    if re.search(rf"^\s*def\s+{re.escape(name)}\s*\(", path.read_text(errors="replace"), re.MULTILINE):
        return None  # it exists already: a change to it is not this simple
    wants_test = bool(match["test"])
    test_file = _test_file(workspace, file) if wants_test else None
    if wants_test and test_file is None:
        return None
    # pytest -k NAME selects no test before the change (exit 5): the check proves the change, not the old tree.
    check = f"{test_command} -k {name}" if wants_test and test_command and "pytest" in test_command else None
    return SimpleTask(name=name, file=file, test_file=test_file, check=check)


def enabled(runtime: Runtime[RunContext]) -> bool:
    settings = settings_of(runtime)
    if settings.simple_plan != "auto":
        return settings.simple_plan == "on"
    if settings.model == EMBEDDED or settings.server_dialect == "llama-cpp-python":  # the embedded SmolLM2-135M
        return True
    size = parse_size_billions(settings.model)
    return size is not None and size < TINY_BILLIONS


def simple_task_of(state: Mapping[str, Any], runtime: Runtime[RunContext]) -> SimpleTask | None:
    """The run's request as a simple task, when this run fills simple plans itself; else None."""
    # Every round: a second one (QA failed) planned by a 135M model took minutes to copy the schemas back.
    if not enabled(runtime):
        return None
    return parse_simple(state["query"], workspace_of(runtime), quality_of(runtime).test)
