from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from slmcode.errors import RunNotFoundError
from slmcode.memory.flywheel import record_learning
from slmcode.store.sessions import list_sessions, show_session


def test_sessions_list_newest_first_and_show_by_prefix(tmp_path: Path) -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for i, run_id in enumerate(["alpha-1", "alpha-2", "beta-1"]):
        record_learning(
            tmp_path,
            run_id=run_id,
            query=f"task {i}",
            lessons=[],
            touched=[],
            conventions=[],
            summary="",
            now=start + timedelta(hours=i),
        )
    (tmp_path / ".slmcode/sessions/notes.json").write_text("not a session")
    assert [s.run_id for s in list_sessions(tmp_path)] == ["beta-1", "alpha-2", "alpha-1"]
    assert show_session(tmp_path, "beta").query == "task 2"
    assert show_session(tmp_path, "alpha-1").thread_id == "alpha-1"
    with pytest.raises(RunNotFoundError, match="ambiguous: alpha-2, alpha-1"):
        show_session(tmp_path, "alpha")
    with pytest.raises(RunNotFoundError, match="no session 'gamma'"):
        show_session(tmp_path, "gamma")
