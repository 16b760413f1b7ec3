"""The simulated model's answers in the roles that judge rather than edit, from what the request showed it and
never from the grader: the planner's check is a guess from the commands and files it was shown (not the
grading command unless the request named it), the reviewer weighs the diff and the checks it was shown and
errs at its profile's rates, and the explorer names the files it was shown, wrongly at its rate. Each error is
a decision of the run's common stream (draws.py)."""

from __future__ import annotations

import re

from slmcode.eval.sim.errors import Dice
from slmcode.eval.sim.knowledge import Knowledge
from slmcode.eval.sim.shown import Shown

# A command the request names in back-quotes, by the program it starts.
NAMED_COMMAND = re.compile(r"`((?:python3?|pytest|node|npm|cargo|go|make|cmake|ctest|mvn|gradle|\./)[^`\n]*)`")
# Without one: the usual command of the project kind its files show (what a model would try first).
CONVENTIONS = (
    ("go.mod", "go test ./..."),
    ("Cargo.toml", "cargo test"),
    ("package.json", "npm test"),
    ("CMakeLists.txt", "ctest"),
    ("pom.xml", "mvn test"),
    (".py", "python -m pytest -q"),
    (".js", "node --test"),
)


def guess_check(shown: Shown) -> str | None:
    """The verify command it would write for "the tests pass": one the request named, else its convention."""
    named = NAMED_COMMAND.search(shown.text)
    if named:
        return named.group(1).strip()
    return next((command for marker, command in CONVENTIONS if marker in shown.text), None)


def _diff_lines(evidence: str) -> tuple[set[str], set[str]]:
    """(lines the evidence shows added or present in a new file, lines it shows removed), stripped."""
    added, removed = set(), set()
    for line in evidence.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            added.add(line[1:].strip())
        elif line.startswith("-") and not line.startswith("---"):
            removed.add(line[1:].strip())
        else:
            added.add(line.strip())  # a new file's head is shown as it is
    return added - {""}, removed - {""}


def carries_change(evidence: str, reference: Knowledge) -> bool:
    """The diff it was shown makes the task's change: every line the change adds is there, every line it removes
    is gone. What a careful reviewer would conclude, before its errors; a file the evidence does not show is
    judged by the checks alone."""
    added, removed = _diff_lines(evidence)
    for change in reference.changes:
        if change.path not in evidence or f"{change.path}: changed (not shown" in evidence:
            continue
        before = {line.strip() for line in change.before.splitlines()} - {""}
        after = {line.strip() for line in change.after.splitlines()} - {""}
        if not (after - before) <= added or not (before - after) <= removed:
            return False
    return True


def review(asked: str, reference: Knowledge, dice: Dice) -> dict[str, object]:
    """Approve or reject the work the review request shows: right work (the change made, no check failing) is
    rejected at `reviewer_rejects_right`, anything else approved at `reviewer_approves_wrong`."""
    checks = asked.split("Checks:", 1)[-1].split("Files changed", 1)[0]
    evidence = asked.split("Files changed", 1)[-1]
    failed = "FAILED" in checks
    right = not failed and carries_change(evidence, reference)
    mind = dice.profile.mind
    if dice.draws is None:
        value = dice.rng.random()
    else:
        key, value, dice.rng = dice.draws.uniform("review")
        dice.drawn.append(key)
    approve = value >= mind.reviewer_rejects_right if right else value < mind.reviewer_approves_wrong
    if approve != right:
        dice.made.append("reviewer_error")
    if approve:
        return {"approve": True, "notes": []}
    why = "a check fails: fix the code until it passes" if failed else "the change does not do what the task asks"
    return {"approve": False, "notes": [why]}


def explorer_answer(title: str, knowledge: Knowledge, shown: Shown, dice: Dice) -> str:
    """Its answer to a question about the repository: the files its belief changes that it was shown, or, at
    `explorer_error`, a file it was shown that the change does not touch (or none)."""
    named = {s.path for s in shown.steps if s.path} | set(re.findall(r"[\w./-]+\.\w+", shown.text))
    meant = [c.path for c in knowledge.changes if c.path in named]
    key, value, rng = (
        dice.draws.uniform("explorer_error") if dice.draws is not None else ("", dice.rng.random(), dice.rng)
    )
    if key:
        dice.drawn.append(key)
    if value < dice.profile.mind.explorer_error:
        dice.made.append("explorer_error")
        others = sorted(named - set(meant))
        meant = [rng.choice(others)] if others else []
    where = ", ".join(meant) if meant else "no file I could find"
    return f"The task concerns {title}; the code to change is in {where}."
