"""Awkward inputs the tools meet in real repositories: file names that are not UTF-8, Latin-1 source,
files far too big to read, and search patterns that would make a backtracking engine run for hours."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from tests.tools.conftest import CallTool

ODD = b"calc/caf\xe9.py"  # a Latin-1 byte in a name: Python holds it as the surrogate \udce9
ODD_SHOWN = "calc/caf\\xe9.py"


@pytest.fixture
def odd_tree(workspace: Path) -> Path:
    os.makedirs(os.path.join(bytes(workspace), b"calc"))
    with open(os.path.join(bytes(workspace), ODD), "wb") as handle:
        handle.write(b"def cafe():\n    return 'latte'\n")
    (workspace / ".gitignore").write_text("*.log\nbuild/\n")
    return workspace


def _sendable(text: str) -> None:
    """What the worker does with a result: JSON in a UTF-8 request body. Raises if a surrogate slipped in."""
    json.dumps({"role": "tool", "content": text}, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("ws_list", {"path": "calc"}, ODD_SHOWN),
        ("ws_list", {"glob": "*.py"}, ODD_SHOWN),
        ("ws_list", {"glob": "caf*"}, ODD_SHOWN),
        ("ws_search", {"pattern": "latte"}, f"{ODD_SHOWN}:2: return 'latte'"),
        ("ws_search", {"pattern": "latte", "path": ODD_SHOWN}, f"{ODD_SHOWN}:2: return 'latte'"),
        ("ws_read", {"path": ODD_SHOWN}, "1\tdef cafe():\n2\t    return 'latte'"),
    ],
    ids=["list-folder", "list-glob", "list-name-glob", "search", "search-one-file", "read-as-shown"],
)
def test_a_non_utf8_file_name_is_shown_escaped_and_usable(
    odd_tree: Path, call: CallTool, tool: str, args: dict[str, str], expected: str
) -> None:
    result = call(tool, **args)
    assert result.status == "success" and expected in str(result.content)
    _sendable(str(result.content))


def test_a_file_named_as_shown_can_be_edited_in_place(odd_tree: Path, call: CallTool) -> None:
    call("ws_read", path=ODD_SHOWN)
    result = call("ws_edit", path=ODD_SHOWN, old_str="'latte'", new_str="'mocha'")
    assert result.content == f"edited {ODD_SHOWN} (2 lines)."
    assert Path(os.fsdecode(os.path.join(bytes(odd_tree), ODD))).read_bytes() == b"def cafe():\n    return 'mocha'\n"
    assert not (odd_tree / ODD_SHOWN).exists(), "the escaped form is a way to name the file, not a new file"


def test_a_new_file_in_a_folder_named_as_shown_lands_in_that_folder(workspace: Path, call: CallTool) -> None:
    os.makedirs(os.path.join(bytes(workspace), b"caf\xe9"))
    assert call("ws_write", path="caf\\xe9/new.py", content="X = 1\n").content == "created caf\\xe9/new.py (1 lines)."
    assert os.listdir(os.path.join(bytes(workspace), b"caf\xe9")) == [b"new.py"]
    assert not (workspace / "caf\\xe9").exists()


def test_a_control_character_in_a_name_keeps_one_name_per_line(workspace: Path, call: CallTool) -> None:
    (workspace / "two\nlines.py").write_text("X = 1\n")
    listing = str(call("ws_list").content).splitlines()
    assert "two\\x0alines.py" in listing
    assert call("ws_read", path="two\\x0alines.py").content == "1\tX = 1"


LATIN1 = b"# -*- coding: latin-1 -*-\nname = 'Jos\xe9'\nprice = 10  # \xa310\nflag = 1\n"
CP1252 = b"quote = \x93smart\x94 \x96 dash\nflag = 1\n"


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (LATIN1, "2\tname = 'José'"),
        (CP1252, "1\tquote = \x93smart\x94 \x96 dash"),  # cp1252 bytes read through Latin-1: round-trips
        ("naïve = 'ü'\nflag = 1\n".encode(), "1\tnaïve = 'ü'"),
        (b"\xef\xbb\xbfflag = 1\n", "1\t\ufeffflag = 1"),
    ],
    ids=["latin-1", "cp1252", "utf-8", "utf-8-bom"],
)
def test_text_that_is_not_utf8_is_text_and_an_edit_keeps_every_other_byte(
    workspace: Path, call: CallTool, data: bytes, shown: str
) -> None:
    (workspace / "src" / "legacy.py").write_bytes(data)
    read = str(call("ws_read", path="src/legacy.py").content)
    assert shown in read
    assert ("not UTF-8: shown as latin-1" in read) == (data in (LATIN1, CP1252))
    assert call("ws_edit", path="src/legacy.py", old_str="flag = 1", new_str="flag = 2").status == "success"
    assert (workspace / "src" / "legacy.py").read_bytes() == data.replace(b"flag = 1", b"flag = 2")


def test_a_character_the_files_encoding_cannot_hold_is_refused(workspace: Path, call: CallTool) -> None:
    (workspace / "src" / "legacy.py").write_bytes(LATIN1)
    call("ws_read", path="src/legacy.py")
    result = call("ws_edit", path="src/legacy.py", old_str="flag = 1", new_str="flag = '€'")
    assert result.content == (
        "Error: src/legacy.py is latin-1 text, which cannot hold '€'; write those characters as the language's "
        "escapes instead."
    )
    assert (workspace / "src" / "legacy.py").read_bytes() == LATIN1


@pytest.mark.parametrize(
    "data",
    [bytes(range(256)) * 4, bytes([1, 2, 3, 4, 0x80, 0x90, 5, 6, 7, 0x1F]) * 500, b"\x00" + b"text" * 100],
    ids=["all-bytes", "control-bytes-no-nul", "nul"],
)
def test_binary_files_are_still_refused(workspace: Path, call: CallTool, data: bytes) -> None:
    (workspace / "blob.dat").write_bytes(data)
    assert str(call("ws_read", path="blob.dat").content).startswith("Error: blob.dat is a binary file")


def test_a_huge_one_line_file_is_read_without_loading_it(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from slmcode.tools.workspace import ws_read

    size = 40 << 20
    with (workspace / "one_line.min.js").open("wb") as handle:
        for _ in range(size >> 20):
            handle.write(b"x" * (1 << 20))
    tracemalloc.start()
    try:
        out = ws_read(make_ctx(), "one_line.min.js")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out == "1\t" + "x" * 400 + f"… [{size - 400} bytes cut]"
    assert peak < 8 << 20, f"reading 400 characters of a {size >> 20} MB line held {peak >> 20} MB"


def test_a_big_file_is_sliced_with_its_true_line_count(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from slmcode.tools.workspace import ws_read

    (workspace / "big.log").write_text("".join(f"line {n}\n" for n in range(300_000)) + "tail without newline")
    out = ws_read(make_ctx(max_read_bytes=10_000), "big.log", offset=299_999, limit=5)
    assert out == "299999\tline 299998\n300000\tline 299999\n300001\ttail without newline"
    past = ws_read(make_ctx(max_read_bytes=10_000), "big.log", offset=400_000)
    assert past == "Error: big.log has 300001 lines; offset 400000 is past the end."


def test_search_names_the_files_too_big_to_search(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from slmcode.tools.search import ws_search

    (workspace / "dump.sql").write_text("add " * 5000)
    out = ws_search(make_ctx(max_read_bytes=10_000), "def add")
    assert out == (
        "src/calc.py:1: def add(a, b):\n[not searched, over 10000 bytes: dump.sql; read them in slices with ws_read]"
    )


@pytest.mark.parametrize(
    ("pattern", "first"),
    [
        (r"\bdef\s+add", "src/calc.py:1: def add(a, b):"),
        (r"(?i)RETURN A \+", "src/calc.py:2: return a + b"),
        (r"^def sub", "src/calc.py:5: def sub(a, b):"),
        (r"b\)?:$", "src/calc.py:1: def add(a, b):"),
        ("add(a", "(pattern is not a valid regular expression, searched as plain text)"),
        ("sub(a, b", "(pattern is not a valid regular expression, searched as plain text)"),
    ],
)
def test_search_patterns_that_work(call: CallTool, pattern: str, first: str) -> None:
    assert str(call("ws_search", pattern=pattern).content).splitlines()[0] == first


@pytest.mark.parametrize("pattern", [r"(\w)\1", r"return(?= a)", r"(?<!def )add", r"(?!def)\w+\(", r"a++"])
def test_patterns_re2_cannot_run_get_one_line_back(call: CallTool, pattern: str) -> None:
    result = call("ws_search", pattern=pattern)
    assert result.status == "error" and "\n" not in str(result.content)
    assert str(result.content).startswith(f"Error: ws_search cannot run the pattern {pattern}: ")


def test_a_catastrophic_pattern_ends_at_once(tmp_path: Path) -> None:
    """`(a+)+$` on 40 a's and a b: Python's re would backtrack for hours holding the GIL (so the bound
    here is a subprocess timeout, not a timing assertion)."""
    (tmp_path / "evil.txt").write_text("a" * 40 + "b\n")
    script = (
        "import sys; from pathlib import Path; from slmcode.config import Settings;"
        "from slmcode.tools.context import ToolContext; from slmcode.tools.search import ws_search;"
        "print(ws_search(ToolContext(workspace=Path(sys.argv[1]), settings=Settings()), '(a+)+$'))"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "No matches for (a+)+$." and done.returncode == 0


def test_the_reviewer_sees_a_latin1_edit_under_an_escaped_name(odd_tree: Path) -> None:
    from slmcode.nodes.evidence import disk_evidence

    real = Path(os.fsdecode(os.path.join(bytes(odd_tree), ODD)))
    real.write_bytes(b"name = 'Jos\xe9'\n")
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for args in (["init", "-q"], ["add", "calc"], ["commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=odd_tree, env=env, check=True, capture_output=True)
    real.write_bytes(b"name = 'Jos\xe9 Mar\xeda'\n")
    evidence, missing = disk_evidence(odd_tree, [ODD_SHOWN], 4000)
    assert missing == [] and "+name = 'Jos\ufffd Mar\ufffda'" in evidence


@pytest.mark.parametrize("pattern", [r"^def sub", r"a - b$", r"sub\(a"])
def test_lines_are_numbered_as_ws_read_numbers_them_whatever_the_line_breaks(
    workspace: Path, call: CallTool, pattern: str
) -> None:
    (workspace / "src" / "calc.py").write_bytes(b"# page one\x0cdef sub(a, b):\r    return a - b\rEND\n")
    assert str(call("ws_search", pattern=pattern).content).startswith("src/calc.py:")
    line = int(str(call("ws_search", pattern=pattern).content).split(":")[1])
    assert str(call("ws_read", path="src/calc.py", offset=line, limit=1).content).split("\n")[0].split("\t")[1] in (
        "def sub(a, b):",
        "    return a - b",
    )


def test_a_huge_limit_on_a_big_file_reads_only_what_can_be_shown(make_ctx, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from slmcode.tools.workspace import ws_read

    (workspace / "many.txt").write_text("x\n" * 2_000_000)
    tracemalloc.start()
    try:
        out = ws_read(make_ctx(max_read_bytes=10_000, tool_output_inline_bytes=2_000), "many.txt", limit=10**9)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    *shown, note = out.splitlines()
    assert shown[:2] == ["1\tx", "2\tx"]
    assert note == f"[output cut at line {len(shown)}; continue with offset={len(shown) + 1}]"
    assert peak < 4 << 20, f"a read that shows 2 KB held {peak >> 20} MB"


@pytest.mark.parametrize(
    ("data", "encoding"), [(b"# \xe9t\xe9\n" * 400, "latin-1"), ("# été\n".encode() * 400, "utf-8")]
)
def test_a_read_with_notes_or_accents_stays_inside_its_allowance(  # type: ignore[no-untyped-def]
    make_ctx, workspace: Path, data: bytes, encoding: str
) -> None:
    from slmcode.tools.workspace import ws_read

    (workspace / "accents.py").write_bytes(data)
    out = ws_read(make_ctx(tool_output_inline_bytes=300), "accents.py")
    assert len(out.encode()) <= 300 and out.splitlines()[-1].startswith("[output cut at line")
    assert ("shown as latin-1" in out) == (encoding == "latin-1")


@pytest.mark.parametrize("given", [ODD_SHOWN, "./calc/../" + ODD_SHOWN, os.fsdecode(ODD)])
def test_a_resolved_path_carries_the_printable_name_whichever_form_was_given(odd_tree: Path, given: str) -> None:
    from slmcode.environment.containment import resolve_path

    resolved = resolve_path(odd_tree, given)
    assert resolved.rel == ODD_SHOWN and resolved.real.read_bytes().startswith(b"def cafe")
    _sendable(resolved.rel)  # it goes into transcripts, checkpoints and prompts
