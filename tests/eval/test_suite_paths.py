"""A benchmark checkout, a JSONL line and a test patch are data: a path in them never reaches a file outside
the workspace or the checkout. Judged by effect: a marker file outside (in tmp_path, beside the checkout and
the workspace) is never created, changed or deleted, and an outside file's bytes never enter a workspace."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from slmcode.errors import SlmcodeError
from slmcode.eval.suites.polyglot import changed_files, copy_exercise, load_polyglot, restore_tests
from slmcode.eval.suites.swebench import Instance, checkout, parse_instance
from slmcode.eval.suites.swegrade import apply_test_patch
from tests.eval.test_suites import instance_line, make_clone, make_polyglot

SECRET = "SECRET-8842-host-only"


def _alpha(bench: Path) -> Path:
    return bench / "python" / "exercises" / "practice" / "alpha"


def _set_tests(exercise: Path, tests: list[str]) -> None:
    config = exercise / ".meta" / "config.json"
    data = json.loads(config.read_text())
    data["files"]["test"] = tests
    config.write_text(json.dumps(data))


def _restore_all(bench: Path, dest: Path) -> None:
    dest.mkdir()
    try:
        alpha = load_polyglot(bench)[0]
        restore_tests(alpha, copy_exercise(alpha, dest / "alpha"))
    except SlmcodeError as exc:
        assert "\n" not in str(exc) and "leads out of the exercise folder" in str(exc)  # one line


def test_a_test_name_with_dotdot_creates_no_file_outside_the_workspace(tmp_path: Path) -> None:
    bench = make_polyglot(tmp_path / "bench")
    _set_tests(_alpha(bench), ["alpha_test.py", "../beta/beta_test.py"])  # a file the checkout does have
    _restore_all(bench, tmp_path / "ws")
    assert not (tmp_path / "ws" / "beta" / "beta_test.py").exists()  # beside the workspace ws/alpha


def test_an_absolute_test_name_leaves_that_host_file_unchanged(tmp_path: Path) -> None:
    bench = make_polyglot(tmp_path / "bench")
    marker = tmp_path / "marker.spec.js"
    marker.write_text("xtest('a host file', () => {});\n")  # restoring "switches on" a .spec.js: a rewrite
    _set_tests(_alpha(bench), ["alpha_test.py", str(marker)])
    _restore_all(bench, tmp_path / "ws")
    assert marker.read_text() == "xtest('a host file', () => {});\n"


def test_a_link_the_agent_left_where_a_test_goes_is_not_followed_when_tests_are_restored(tmp_path: Path) -> None:
    alpha = load_polyglot(make_polyglot(tmp_path / "bench"))[0]
    workspace = copy_exercise(alpha, tmp_path / "ws")
    marker = tmp_path / "marker.txt"
    marker.write_text("untouched\n")
    (workspace / "alpha_test.py").unlink()
    (workspace / "alpha_test.py").symlink_to(marker)  # what a command in the jail can leave behind
    refused = restore_tests(alpha, workspace)
    assert marker.read_text() == "untouched\n"
    assert "alpha_test.py" in refused and "\n" not in refused  # the try fails with this line as its output


def test_an_exercise_link_out_of_the_checkout_is_refused_and_its_bytes_never_copied(tmp_path: Path) -> None:
    bench = make_polyglot(tmp_path / "bench")
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    alpha_dir = _alpha(bench)
    (alpha_dir / "helper.py").symlink_to("alpha.py")  # a link inside the exercise: kept as a link
    (alpha_dir / "data.txt").symlink_to(os.path.relpath(secret, alpha_dir))
    alpha = load_polyglot(bench)[0]
    with pytest.raises(SlmcodeError, match=r"data[.]txt: a symlink to .*secret[.]txt, outside"):
        copy_exercise(alpha, tmp_path / "ws")
    copied = [p.read_bytes() for p in (tmp_path / "ws").rglob("*") if p.is_file() and not p.is_symlink()]
    assert not any(SECRET.encode() in data for data in copied)

    (alpha_dir / "data.txt").unlink()
    (alpha_dir / "zero").symlink_to("/dev/zero")  # copied as bytes, this link never ends
    with pytest.raises(SlmcodeError, match="zero: a symlink to /dev/zero"):
        copy_exercise(alpha, tmp_path / "ws2")
    (alpha_dir / "zero").unlink()
    workspace = copy_exercise(alpha, tmp_path / "ws3")
    assert os.readlink(workspace / "helper.py") == "alpha.py"
    (workspace / "out").symlink_to(secret)  # an agent's link is compared by its target, never read
    assert changed_files(alpha, workspace) == ["out"]


def _instance(base: str, patch: str) -> Instance:
    return parse_instance(instance_line("acme__calc-1", base, patch), "instances.jsonl:1")


@pytest.mark.parametrize("where", ["dotdot", "absolute", "through-a-link"])
def test_a_test_patch_header_outside_the_workspace_deletes_nothing(tmp_path: Path, where: str) -> None:
    clone, base, _patch = make_clone(tmp_path / "repos")
    workspace = checkout(clone, base, tmp_path / "ws")
    outside = tmp_path / "outside"
    outside.mkdir()
    marker = outside / "marker.py"
    marker.write_text("keep me\n")
    (workspace / "linked").symlink_to(outside)  # a link the agent's command made
    rel = {"dotdot": "../outside/marker.py", "absolute": str(marker), "through-a-link": "linked/marker.py"}[where]
    patch = f"diff --git a/{rel} b/{rel}\nnew file mode 100644\n--- /dev/null\n+++ b/{rel}\n@@ -0,0 +1 @@\n+x = 1\n"
    error = apply_test_patch(_instance(base, patch), workspace)
    assert marker.read_text() == "keep me\n"
    assert rel in error and "\n" not in error  # the instance is graded unresolved with this line


@pytest.mark.parametrize("repo", ["acme/..", "../calc", "acme/."])
def test_a_repo_name_that_would_leave_the_clones_folder_is_one_line(repo: str) -> None:
    with pytest.raises(SlmcodeError, match="repo must read owner/name"):
        parse_instance(instance_line("x-1", "0" * 40, "diff", repo=repo), "instances.jsonl:1")
