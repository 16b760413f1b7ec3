"""Writes never land in a repository's internals or the harness's state, at any depth, and the review queue
applies exactly what `slmcode diff` shows, refusing any patch file edited outside slmcode."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from slmcode.errors import PatchError
from slmcode.tools.pending import apply_pending, plan_pending, reject_pending
from slmcode.tools.permissions import content_hash
from tests import inprocess
from tests.tools.conftest import CallTool

CALC = "src/calc.py"


@pytest.fixture
def nested(workspace: Path) -> Path:
    (workspace / "vendor" / "lib" / ".git" / "hooks").mkdir(parents=True)
    (workspace / "vendor" / "lib" / ".git" / "config").write_text("[core]\n")
    (workspace / "vendor" / "sub").mkdir()
    (workspace / "vendor" / "sub" / ".git").write_text("gitdir: ../../.git/modules/sub\n")  # a gitfile
    (workspace / "hooks_link").symlink_to(workspace / "vendor" / "lib" / ".git" / "hooks")
    return workspace


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("path", "folder"),
    [
        ("vendor/lib/.git/hooks/pre-commit", ".git"),
        ("vendor/lib/.git/config", ".git"),
        ("vendor/sub/.git", ".git"),
        ("vendor/new/.git", ".git"),
        ("vendor/lib/.GIT/hooks/post-checkout", ".GIT"),
        ("hooks_link/pre-push", ".git"),
        ("pkg/.slmcode/config.yaml", ".slmcode"),
        ("./vendor/lib/../lib/.git/info/attributes", ".git"),
    ],
)
@pytest.mark.parametrize("tool", ["ws_write", "ws_edit"])
def test_writes_into_any_git_or_slmcode_are_refused(
    nested: Path, call: CallTool, tool: str, path: str, folder: str
) -> None:
    before = _files(nested)
    call("ws_read", path=path)  # reading is allowed where it exists; it must not unlock the edit
    args = {"content": "#!/bin/sh\ntouch /tmp/pwned\n"} if tool == "ws_write" else {"old_str": "[core]", "new_str": "x"}
    result = call(tool, path=path, **args)
    assert result.content == f"Error: {path} is inside {folder}, which tools may not change."
    assert _files(nested) == before


def _stage(make_ctx, old: str = "return a + b", new: str = "return b + a") -> None:  # type: ignore[no-untyped-def]
    from slmcode.tools.toolset import make_tools, run_tool_call

    tools = make_tools(make_ctx(permission="review"))
    for name, args in (("ws_read", {"path": CALC}), ("ws_edit", {"path": CALC, "old_str": old, "new_str": new})):
        run_tool_call(tools, {"name": name, "args": args, "id": "1"})


def _forge(workspace: Path, rehash: bool = True, **fields: object) -> None:
    file = workspace / ".slmcode" / "pending" / "0001.json"
    data = json.loads(file.read_text()) | fields
    if rehash:
        data["sha256"] = content_hash(data["path"], data["new_text"].encode(data["encoding"]), data["base_sha256"])
    file.write_text(json.dumps(data))


def test_diff_shows_exactly_the_bytes_apply_writes(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    _stage(make_ctx)
    # Even a rehashed forgery cannot split them: diff is computed from the same bytes apply writes.
    _forge(workspace, new_text="import os\nos.system('id')\n", diff="-    return a + b\n+    return b + a\n")
    [plan] = plan_pending(workspace)
    assert "+os.system('id')" in plan.diff() and "return b + a" not in plan.diff()  # type: ignore[union-attr]
    apply_pending(workspace)
    assert (workspace / CALC).read_text() == "import os\nos.system('id')\n"


def test_a_latin1_file_staged_for_review_is_applied_byte_exact(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    data = b"# caf\xe9\nx = 1\n"
    (workspace / CALC).write_bytes(data)
    _stage(make_ctx, old="x = 1", new="x = 2")
    [plan] = plan_pending(workspace)
    assert "-x = 1\n+x = 2\n" in plan.diff()  # type: ignore[union-attr]
    apply_pending(workspace)
    assert (workspace / CALC).read_bytes() == b"# caf\xe9\nx = 2\n"


@pytest.mark.parametrize(
    ("fields", "rehash", "error"),
    [
        ({"new_text": "evil\n"}, False, r"patch 0001 \(src/calc.py\) does not match its content hash"),
        ({"sha256": ""}, False, r"does not match its content hash"),
        ({"path": "../outside/secret.txt"}, True, r"patch 0001: \.\./outside/secret\.txt is outside the workspace"),
        ({"path": "link_out/secret.txt"}, True, r"points outside the workspace"),
        ({"path": ".git/hooks/pre-commit", "base_sha256": None}, True, r"inside \.git, which tools may not change"),
        ({"path": "vendor/.git/config", "base_sha256": None}, True, r"inside \.git"),
        ({"path": ".slmcode/config.yaml", "base_sha256": None}, True, r"inside \.slmcode"),
        ({"base_sha256": "0" * 64}, True, r"is stale: the file changed since it was staged"),
        ({"path": "src"}, True, r"targets a folder"),
    ],
    ids=[
        "edited-text",
        "no-hash",
        "outside",
        "symlink-out",
        "git-hook",
        "nested-git",
        "slmcode",
        "stale-base",
        "folder",
    ],
)
def test_a_tampered_patch_is_refused_by_apply_and_flagged_by_diff(  # type: ignore[no-untyped-def]
    make_ctx, workspace: Path, outside: Path, fields: dict[str, object], rehash: bool, error: str
) -> None:
    _stage(make_ctx)
    _forge(workspace, rehash=rehash, **fields)
    before, secret = _files(workspace), (outside / "secret.txt").read_bytes()
    with pytest.raises(PatchError, match=error):
        apply_pending(workspace)
    [plan] = plan_pending(workspace)
    assert isinstance(plan, PatchError) and re.search(error, str(plan))
    assert _files(workspace) == before and (outside / "secret.txt").read_bytes() == secret
    assert [i for i, _ in reject_pending(workspace)] == ["0001"], "a refused patch can always be rejected"


@pytest.mark.parametrize("text", ["{not json", '{"id": "1"}', None], ids=["not-json", "missing-fields", "utf-16"])
def test_a_file_in_the_queue_that_is_not_a_patch_stops_apply_in_one_line(  # type: ignore[no-untyped-def]
    make_ctx, workspace: Path, text: str | None
) -> None:
    _stage(make_ctx)
    file = workspace / ".slmcode" / "pending" / "0001.json"
    if text is None:
        _forge(workspace, rehash=False, encoding="utf-16")
    else:
        file.write_text(text)
    with pytest.raises(PatchError, match=r"^\.slmcode/pending/0001\.json is not a valid patch \(.*\); delete it"):
        apply_pending(workspace)
    assert "def add" in (workspace / CALC).read_text()
    assert reject_pending(workspace, ["1"]) == [("0001", "(not a valid patch)")] and not file.exists()


def test_an_id_inside_a_patch_file_cannot_pick_the_file_apply_deletes(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    _stage(make_ctx)
    _forge(workspace, id="../../README")
    [applied] = apply_pending(workspace)
    assert applied.id == "0001" and (workspace / "README.md").exists()
    assert not (workspace / ".slmcode" / "pending" / "0001.json").exists()


def _cli(workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.slmcode(*args, "--workspace", str(workspace))


def test_cli_diff_and_apply_refuse_a_forged_patch_in_one_line(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    _stage(make_ctx)
    _forge(workspace, rehash=False, new_text="evil\n")
    shown = _cli(workspace, "diff")
    assert shown.returncode == 2 and shown.stdout.splitlines() == [
        "refused patch 0001 (src/calc.py) does not match its content hash: it was changed outside slmcode; "
        "reject it with `slmcode reject 0001`"
    ]
    assert "evil" not in shown.stdout and "Traceback" not in shown.stdout + shown.stderr
    applied = _cli(workspace, "apply")
    assert applied.returncode == 2 and len(applied.stderr.strip().splitlines()) == 1
    assert "def add" in (workspace / CALC).read_text()
    (workspace / ".slmcode" / "pending" / "0001.json").write_text("{not json")
    broken = _cli(workspace, "diff")
    assert broken.returncode == 2 and "0001.json is not a valid patch" in broken.stderr
    assert _cli(workspace, "reject", "1").stdout.strip() == "rejected 0001  (not a valid patch)"
