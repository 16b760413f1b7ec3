"""Shared fixtures: the scripted model server, the calculator repository, and an isolated home for settings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# pytest-xdist's workers export COLUMNS=80 and LINES=24, and Rich fixes a console's width when COLUMNS is set as the
# console is made (at import): a test that widens the terminal for one command (env COLUMNS=200) would still get 80.
# A plain pytest run has neither variable; drop them before anything imports slmcode.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)

from tests.fake_llm import FakeLLM  # noqa: E402 (after the variables above are gone)
from tests.isolation import isolate  # noqa: E402


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    """A scripted OpenAI-compatible server on a free loopback port; stopped after the test."""
    with FakeLLM() as server:
        yield server


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The calculator example as a git repository (tests/graph/scenario.make_repo), with this interpreter first on
    PATH so a verify command's `python -m pytest` finds pytest; a module that needs more files overrides it by
    asking for `repo` in its own `repo` fixture."""
    from tests.graph.scenario import make_repo, python_on_path

    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the fixture's pytest starts in 0.5 s, not 3
    return make_repo(tmp_path)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads the developer's ~/.slmcode or their SLMCODE_* variables (tests/isolation.py)."""
    home = tmp_path_factory.mktemp("slmcode-home")
    isolate(monkeypatch, home)
    return home


POSTGRES_BIN = Path("/usr/lib/postgresql/15/bin")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL 15 server on a free loopback port for the whole session.

    PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user in a data
    folder that user owns. fsync is off: the data dies with the session anyway.
    """
    import os
    import shutil
    import socket
    import subprocess
    import tempfile

    initdb, pg_ctl = POSTGRES_BIN / "initdb", POSTGRES_BIN / "pg_ctl"
    if not (initdb.exists() and pg_ctl.exists()):
        pytest.skip(f"PostgreSQL 15 binaries not found in {POSTGRES_BIN} (apt-get install postgresql)")
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    root = Path(tempfile.mkdtemp(prefix="slmcode-pg-"))
    data = root / "data"
    if as_postgres:
        shutil.chown(root, user="postgres", group="postgres")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]

    def pg(*args: str) -> None:
        done = subprocess.run([*as_postgres, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(args[:2])} failed: {done.stderr or done.stdout}")

    pg(str(initdb), "-A", "trust", "-U", "postgres", "-D", str(data))
    options = f"-p {port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off"
    pg(str(pg_ctl), "-D", str(data), "-l", str(root / "server.log"), "-w", "-t", "60", "-o", options, "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_postgres, str(pg_ctl), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


# A test that talks to the scripted model server or starts PostgreSQL drives a whole run, a CLI's model check or a
# database: it belongs to the full suite, not the fast lane (`pytest -m "not slow"`, CONTRIBUTING.md).
WHOLE_RUN_FIXTURES = frozenset({"fake_llm", "postgres_url"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if WHOLE_RUN_FIXTURES & set(getattr(item, "fixturenames", ())) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
