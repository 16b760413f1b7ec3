"""What the kernel itself sees of a jailed command when slmcode runs as root: a file only root may read, on a
system path the jail shows read-only, stays unread, while the files the command writes in the workspace are
still the user's. Without the launcher the command's kernel uid is root's 0 (whatever the namespace shows),
and the owner's read bit lets it through."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from slmcode.environment import kerneluid, ossandbox
from tests.sandboxcheck import needs_sandbox
from tests.tools.test_attacks import MARK, SECRET, tries
from tests.tools.test_attacks_wall import run_in

pytestmark = [
    needs_sandbox,
    pytest.mark.skipif(os.geteuid() != 0, reason="only root's commands have a kernel uid to lose"),
]


@pytest.fixture
def root_only_file():
    """A 0600 file of root's under /opt, which every jail binds read-only as it is."""
    folder = tempfile.mkdtemp(prefix="slmcode-root-only-", dir="/opt")
    secret = Path(folder, "key")
    secret.write_text(SECRET + "\n")
    secret.chmod(0o600)
    os.chmod(folder, 0o755)
    yield secret
    shutil.rmtree(folder)


def test_a_file_only_root_may_read_stays_unread(tmp_path: Path, root_only_file: Path) -> None:
    if not kerneluid.available(ossandbox.SANDBOX_UID, ossandbox.SANDBOX_GID):
        pytest.skip("no idmapped mounts here: the command keeps kernel uid 0 (slmcode doctor says so)")
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    result = run_in(ws, tries(f"print(open('{root_only_file}').read())") + "open('made.txt', 'w').write('x')\n")
    assert SECRET not in result.output and MARK not in result.output, result.output
    made = ws / "made.txt"
    assert made.read_text() == "x"
    assert (made.stat().st_uid, made.stat().st_gid) == (os.getuid(), os.getgid())


def test_doctor_says_which_kernel_uid_commands_have() -> None:
    said = ossandbox.status()
    real = kerneluid.available(ossandbox.SANDBOX_UID, ossandbox.SANDBOX_GID)
    assert ("kernel uid 65534" in said) == real and ("kernel uid 0" in said) == (not real), said
