"""`slmcode map` as a user runs it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from slmcode.cli import app
from tests import inprocess

runner = CliRunner()


def workspace(tmp_path: Path) -> Path:
    (tmp_path / "util.py").write_text("def log(message):\n    print(message)\n")
    (tmp_path / "billing.py").write_text("from util import log\n\ndef charge_invoice(n):\n    log(n)\n")
    return tmp_path


def test_map_prints_the_ranked_map(tmp_path: Path) -> None:
    result = runner.invoke(app, ["map", "--workspace", str(workspace(tmp_path)), "--query", "charge_invoice"])
    assert result.exit_code == 0, result.output
    assert "billing.py:\n  3-4: def charge_invoice(n):" in result.output


def test_map_json_lists_files_symbols_and_tokens(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["map", "-w", str(workspace(tmp_path)), "--budget", "200", "--json", "--focus", "billing.py"]
    )
    data = json.loads(result.stdout)
    assert data["files"] == ["util.py", "billing.py"]
    assert data["symbols"][0] == {
        "path": "util.py",
        "name": "log",
        "kind": "function",
        "start": 1,
        "end": 2,
        "rank": data["symbols"][0]["rank"],
    }
    assert 0 < data["tokens"] <= 200


def test_map_of_a_missing_folder_is_one_line_exit_2(tmp_path: Path) -> None:
    done = inprocess.slmcode("map", "-w", str(tmp_path / "nope"))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "does not exist" in done.stderr


def slmcode(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.slmcode(*args)


def test_pack_and_map_read_a_typescript_new_of_an_expression(tmp_path: Path) -> None:
    # tree-sitter marks `(opts?.Err ?? Err)` as the name `new` calls: one name holding spaces, which the
    # cache once split into several and then failed to pair with their counts.
    (tmp_path / "boom.ts").write_text(
        "export class Err extends Error {}\n"
        "export function boom(opts?: {Err?: any}, x?: string) {\n  throw new (opts?.Err ?? Err)(x);\n}\n"
        "export function other(a: any, b: any, x: string) {\n  return new (a ?? b)(x);\n}\n"
    )
    for _ in range(2):  # the second run reads the cache the first one wrote
        packed = slmcode("pack", "-w", str(tmp_path), "--query", "what does boom throw", "--budget", "2000")
        assert packed.returncode == 0, packed.stderr
        assert "boom.ts" in packed.stdout and "repo map failed" not in packed.stderr
        mapped = slmcode("map", "-w", str(tmp_path))
        assert mapped.returncode == 0, mapped.stderr
        assert "2-4: export function boom(" in mapped.stdout


def test_pack_and_map_survive_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    calc = tmp_path / "calc"
    calc.mkdir()
    (calc / "main.py").write_text("from calc import add_numbers\n\ndef main():\n    return add_numbers(1, 2)\n")
    # A Latin-1 name: the byte 0xE9 alone is not UTF-8.
    (calc / "caf\udce9.py").write_text("def add_numbers(a, b):\n    return a + b\n")
    for _ in range(2):
        packed = slmcode("pack", "-w", str(tmp_path), "--query", "fix add_numbers", "--budget", "2000")
        assert packed.returncode == 0, packed.stderr
        # Shown as the tools show such a name, \xNN, never as a raw byte a prompt or a trace cannot hold.
        assert "### calc/caf\\xe9.py (2 lines)" in packed.stdout
        mapped = slmcode("map", "-w", str(tmp_path), "--query", "add_numbers")
        assert mapped.returncode == 0, mapped.stderr
        assert "calc/caf\\xe9.py:\n  1-2: def add_numbers(a, b):" in mapped.stdout


def test_a_cache_row_this_version_cannot_read_is_parsed_again(tmp_path: Path) -> None:
    import sqlite3

    (tmp_path / "util.py").write_text("def log(message):\n    print(message)\n")
    assert slmcode("map", "-w", str(tmp_path)).returncode == 0
    # What an older build wrote under the same format number: references joined by spaces, counts unmatched.
    with sqlite3.connect(tmp_path / ".slmcode" / "cache" / "repomap.sqlite") as conn:
        conn.execute("DELETE FROM graphs")  # as a cache written before the graph was cached
        conn.execute("""UPDATE files SET names = '{"n":["log"],"s":[1],"r":"a b c","c":[1]}'""")
    packed = slmcode("pack", "-w", str(tmp_path), "--query", "log a message", "--budget", "2000")
    assert packed.returncode == 0, packed.stderr
    mapped = slmcode("map", "-w", str(tmp_path))
    assert "util.py:\n  1-2: def log(message):" in mapped.stdout


def test_map_and_pack_in_a_fresh_git_repository_keep_their_caches_out_of_a_commit(tmp_path: Path) -> None:
    """Before: `map` and `pack` created .slmcode/ for their caches without its .gitignore, so a user's
    `git add -A` staged the repo map and the lexical index."""
    ws = workspace(tmp_path)
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    for command in (["map", "-w", str(ws)], ["pack", "-w", str(ws), "--query", "charge_invoice"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
    assert (ws / ".slmcode").is_dir()
    subprocess.run(["git", "-C", str(ws), "add", "-A"], check=True)
    staged = subprocess.run(["git", "-C", str(ws), "diff", "--cached", "--name-only"], capture_output=True, text=True)
    assert sorted(staged.stdout.split()) == ["billing.py", "util.py"]
