"""`slmcode map` as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from slmcode.cli import app

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
    result = runner.invoke(app, ["map", "-w", str(workspace(tmp_path)), "--budget", "200", "--json",
                                 "--focus", "billing.py"])
    data = json.loads(result.stdout)
    assert data["files"] == ["util.py", "billing.py"]
    assert data["symbols"][0] == {"path": "util.py", "name": "log", "kind": "function", "start": 1, "end": 2,
                                  "rank": data["symbols"][0]["rank"]}
    assert 0 < data["tokens"] <= 200


def test_map_of_a_missing_folder_is_one_line_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from slmcode.cli import main; main()", "map", "-w", str(tmp_path / "nope")],
        capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a folder" in done.stderr
