"""A workspace that arrives with a hostile .git/config (a tarball, a downloaded fixture): the git calls slmcode
makes itself, outside the agent's sandbox, run none of the programs it names. The repo map lists files with
`git ls-files` (which runs `core.fsmonitor`); the reviewer reads `git diff` (which runs `diff.external` and a
driver's `textconv`)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from typer.testing import CliRunner

from slmcode.cli import app
from slmcode.nodes.evidence import disk_evidence

IDENTITY = ["-c", "user.name=t", "-c", "user.email=t@t"]


def hostile_repo(tmp_path: Path) -> tuple[Path, Path]:
    ws, marker = tmp_path / "ws", tmp_path / "ran"
    ws.mkdir()
    (ws / "billing.py").write_text("def charge_invoice(n):\n    return n\n")
    (ws / ".gitattributes").write_text("*.py diff=py\n")
    for argv in (["init", "-q"], ["add", "-A"], [*IDENTITY, "commit", "-qm", "start"]):
        subprocess.run(["git", *argv], cwd=ws, check=True, capture_output=True)
    with (ws / ".git" / "config").open("a") as config:
        config.write(
            f"[core]\n\tfsmonitor = touch {marker}.fsmonitor; false\n"
            f"[diff]\n\texternal = touch {marker}.external\n"
            f'[diff "py"]\n\ttextconv = touch {marker}.textconv; cat\n'
        )
    return ws, marker


def ran(marker: Path) -> list[str]:
    return sorted(p.name for p in marker.parent.glob(f"{marker.name}.*"))


def test_the_plain_git_would_run_them(tmp_path: Path) -> None:
    """The repository is hostile as built: without slmcode's switches, git runs all three."""
    ws, marker = hostile_repo(tmp_path)
    (ws / "billing.py").write_text("def charge_invoice(n):\n    return n + 1\n")
    subprocess.run(["git", "ls-files"], cwd=ws, check=True, capture_output=True)
    subprocess.run(["git", "diff"], cwd=ws, capture_output=True)
    subprocess.run(["git", "diff", "--no-ext-diff"], cwd=ws, capture_output=True)
    assert ran(marker) == ["ran.external", "ran.fsmonitor", "ran.textconv"]


def test_map_lists_the_files_and_runs_nothing(tmp_path: Path) -> None:
    ws, marker = hostile_repo(tmp_path)
    result = CliRunner().invoke(app, ["map", "-w", str(ws), "--query", "charge_invoice"])
    assert result.exit_code == 0, result.output
    assert "billing.py" in result.output
    assert ran(marker) == []


def test_review_evidence_shows_the_diff_and_runs_nothing(tmp_path: Path) -> None:
    ws, marker = hostile_repo(tmp_path)
    (ws / "billing.py").write_text("def charge_invoice(n):\n    return n + 1\n")
    evidence, missing = disk_evidence(ws, ["billing.py"], 4000)
    assert missing == []
    assert "+    return n + 1" in evidence
    assert ran(marker) == []
