"""A standard suite's items as the runner takes them, and what is skipped with its reason: a polyglot language
whose toolchain is missing here, a SWE-bench instance whose clone or base commit is missing."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from slmcode.errors import SlmcodeError
from slmcode.eval.process import commit_all
from slmcode.eval.suites import polyglot, swebench
from slmcode.eval.suites.run import Item

SUITES = ("polyglot", "swebench")


@dataclass
class Chosen:
    items: list[Item]
    skipped: dict[str, str] = field(default_factory=dict)  # item id -> why it did not run
    total: int = 0  # items in the suite as given (before --task/--tasks), for the published tables' denominator


def _exercise_workspace(exercise: polyglot.Exercise, dest: Path) -> Path:
    return commit_all(polyglot.copy_exercise(exercise, dest), "exercise")


def polyglot_items(root: Path) -> Chosen:
    exercises = polyglot.load_polyglot(root)
    chosen = Chosen([], total=len(exercises))
    for ex in exercises:
        if why := polyglot.missing_toolchain(ex.language):
            chosen.skipped[ex.id] = why
            continue
        chosen.items.append(
            Item(
                "polyglot",
                ex.id,
                ex.language,
                {"folder": str(ex.folder), "language": ex.language},
                partial(_exercise_workspace, ex),
                partial(polyglot.changed_files, ex),
            )
        )
    return chosen


def swebench_items(path: Path, repos: Path | None) -> Chosen:
    if repos is None:
        raise SlmcodeError(
            "--suite swebench needs --repos DIR: the folder holding your clones (DIR/<owner>__<name> or DIR/<name>)"
        )
    if not repos.is_dir():
        raise SlmcodeError(f"--repos {repos}: not a folder")
    instances = swebench.load_instances(path)
    chosen = Chosen([], total=len(instances))
    for inst in instances:
        clone, why = swebench.find_clone(inst, repos)
        if clone is None:
            chosen.skipped[inst.instance_id] = why
            continue
        chosen.items.append(
            Item(
                "swebench",
                inst.instance_id,
                inst.repo,
                inst.as_dict(),
                partial(swebench.checkout, clone, inst.base_commit),
                partial(swebench.touched_files, inst.base_commit),
            )
        )
    return chosen


def load(suite: str, source: Path, repos: Path | None) -> Chosen:
    if suite not in SUITES:
        raise SlmcodeError(f"--suite {suite}: unknown (suites: {', '.join(SUITES)})")
    return polyglot_items(source) if suite == "polyglot" else swebench_items(source, repos)


def narrow(chosen: Chosen, *, item_id: str | None, count: int | None) -> Chosen:
    """One item by id, or the first `count` spread over the groups (a small run is not all one language)."""
    items = chosen.items
    if item_id is not None:
        items = [i for i in items if i.id == item_id]
        if not items:
            why = chosen.skipped.get(item_id)
            raise SlmcodeError(f"no item '{item_id}' to run" + (f": {why}" if why else ""))
    elif count is not None:
        groups: dict[str, list[Item]] = {}
        for item in items:
            groups.setdefault(item.group, []).append(item)
        spread: list[Item] = []
        while len(spread) < min(count, len(items)):
            for queue in groups.values():
                if queue and len(spread) < count:
                    spread.append(queue.pop(0))
        items = spread
    # A subset's rate is over the subset: the whole file's count would read as a full run's figure.
    narrowed = item_id is not None or count is not None
    return Chosen(items, chosen.skipped, len(items) if narrowed else chosen.total)
