"""Permission modes end to end: auto writes, dry-run writes nothing, review stages for apply or reject."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from slmcode.errors import PatchError
from slmcode.tools.pending import apply_pending, list_pending, plan_pending, reject_pending
from slmcode.tools.toolset import make_tools, run_tool_call
from tests import inprocess

CALC = "src/calc.py"


def _edit_and_create(make_ctx, mode: str) -> tuple[list[str], object]:  # type: ignore[no-untyped-def]
    ctx = make_ctx(permission=mode)
    tools = make_tools(ctx)

    def call(name: str, **args: object) -> str:
        return str(run_tool_call(tools, {"name": name, "args": args, "id": "1"}).content)

    call("ws_read", path=CALC)
    results = [
        call("ws_edit", path=CALC, old_str="return a + b", new_str="return b + a"),
        call("ws_edit", path=CALC, old_str="return a - b", new_str="return -b + a"),  # same file: same patch
        call("ws_write", path="src/fresh.py", content="FRESH = 1\n"),
        call("ws_read", path=CALC),
    ]
    return results, ctx


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".slmcode" not in p.parts
    }


def test_dry_run_writes_nothing_and_says_so(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    before = _tree(workspace)
    results, ctx = _edit_and_create(make_ctx, "dry-run")
    assert _tree(workspace) == before
    assert results[0] == (
        "dry-run: not written. edited src/calc.py recorded as patch 0001; later reads show it, the disk does not."
    )
    assert results[2].startswith("dry-run: not written. created src/fresh.py recorded as patch 0002")
    assert results[3].startswith("[src/calc.py: dry-run patch 0001 is shown here; it is not on disk")
    assert "2\t    return b + a" in results[3] and "6\t    return -b + a" in results[3]
    assert ctx.files_changed == [] and ctx.staged_patches == ["0001", "0002"]
    assert list_pending(workspace) == [], "dry-run patches are never offered for apply"


def test_review_stages_then_apply_writes_them(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    before = _tree(workspace)
    results, _ = _edit_and_create(make_ctx, "review")
    assert _tree(workspace) == before
    assert results[0] == (
        "review: staged as patch 0001 for src/calc.py; not on disk until the user runs `slmcode apply 0001`."
    )
    pending = list_pending(workspace)
    assert [(p.id, p.path) for p in pending] == [("0001", CALC), ("0002", "src/fresh.py")]
    assert "-    return a + b\n+    return b + a\n" in plan_pending(workspace)[0].diff()  # type: ignore[union-attr]
    assert [p.id for p in apply_pending(workspace, ["1"])] == ["0001"]
    assert "return -b + a" in (workspace / CALC).read_text() and not (workspace / "src/fresh.py").exists()
    apply_pending(workspace)
    assert (workspace / "src/fresh.py").read_text() == "FRESH = 1\n"
    assert list_pending(workspace) == []


def test_reject_discards_without_touching_files(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    before = _tree(workspace)
    _edit_and_create(make_ctx, "review")
    assert [i for i, _ in reject_pending(workspace)] == ["0001", "0002"]
    assert list_pending(workspace) == [] and _tree(workspace) == before


def test_a_stale_patch_is_refused(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    _edit_and_create(make_ctx, "review")
    (workspace / CALC).write_text("# changed by the user meanwhile\n")
    with pytest.raises(PatchError, match=r"patch 0001 \(src/calc.py\) is stale: the file changed since it was staged"):
        apply_pending(workspace)
    assert (workspace / CALC).read_text() == "# changed by the user meanwhile\n"
    assert not (workspace / "src/fresh.py").exists(), "nothing is applied when one patch is stale"


def test_unknown_patch_id_is_a_clear_error(workspace: Path) -> None:
    with pytest.raises(PatchError, match="no pending patch 7"):
        apply_pending(workspace, ["7"])


def _cli(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.slmcode(*args, "--workspace", str(workspace))


def test_cli_diff_apply_reject(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    _edit_and_create(make_ctx, "review")
    shown = _cli(workspace, "diff")
    assert "patch 0001  src/calc.py" in shown.stdout and "+    return b + a" in shown.stdout
    assert _cli(workspace, "reject", "2").stdout.strip() == "rejected 0002  src/fresh.py"
    (workspace / CALC).write_text("changed\n")
    stale = _cli(workspace, "apply")
    assert stale.returncode == 2 and "is stale" in stale.stderr
    assert _cli(workspace, "reject").stdout.strip() == "rejected 0001  src/calc.py"
    assert _cli(workspace, "apply").stdout.strip() == "No pending patches."
