"""Each part receives the slice of the settings it reads, not the whole: the token arithmetic, compaction, the
packs and the chat clients declare theirs as a typed view (a Protocol), the tools as a frozen copy. A knob read
in a package but missing from its slice, or a function there that asks for the whole `Settings`, fails here."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import slmcode
from slmcode.budget.settings import BudgetSettings
from slmcode.compact.settings import CompactSettings
from slmcode.config import Settings
from slmcode.packs.settings import PackSettings
from slmcode.providers.settings import ProviderSettings
from slmcode.repomap.settings import RepoMapSettings
from slmcode.tools.settings import ToolSettings

ROOT = Path(slmcode.__file__).parent
SLICES = {
    "budget": BudgetSettings,
    "compact": CompactSettings,
    "packs": PackSettings,
    "providers": ProviderSettings,
    "repomap": RepoMapSettings,
    "tools": ToolSettings,
}
# The role table resolves each role from the whole settings (it copies them with the role's share).
RESOLVERS = {"providers/roles.py"}


def _members(view: type) -> set[str]:
    if dataclasses.is_dataclass(view):
        return {f.name for f in dataclasses.fields(view)}
    return {name for klass in view.__mro__ for name in getattr(klass, "__annotations__", {})}


def _reads(package: str) -> dict[str, str]:
    """knob -> a file of `package` that reads it as `settings.KNOB` or `x.settings.KNOB`."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        relative = str(path.relative_to(ROOT))
        if relative in RESOLVERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute):
                owner = node.value
                named = (isinstance(owner, ast.Name) and owner.id == "settings") or (
                    isinstance(owner, ast.Attribute) and owner.attr == "settings"
                )
                if named:
                    found.setdefault(node.attr, relative)
    return found


@pytest.mark.parametrize("package", sorted(SLICES))
def test_a_package_reads_only_the_knobs_its_slice_lists(package: str) -> None:
    members = _members(SLICES[package])
    assert members <= set(Settings.model_fields), "a slice names a knob Settings does not have"
    unlisted = {knob: where for knob, where in _reads(package).items() if knob not in members}
    assert unlisted == {}


@pytest.mark.parametrize("package", sorted(SLICES))
def test_no_function_of_a_package_asks_for_the_whole_settings(package: str) -> None:
    whole = []
    for path in sorted((ROOT / package).rglob("*.py")):
        relative = str(path.relative_to(ROOT))
        if relative in RESOLVERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
                names = {n.id for n in ast.walk(node.annotation) if isinstance(n, ast.Name)}
                # A seam may take either and slice at once (tools: ToolSettings.of); nothing else takes the whole.
                if "Settings" in names and SLICES[package].__name__ not in names:
                    whole.append(f"{relative}:{node.lineno}")
    assert whole == []


def test_the_settings_satisfy_every_slice() -> None:
    settings = Settings(model="m")
    for view in SLICES.values():
        assert all(hasattr(settings, name) for name in _members(view))
