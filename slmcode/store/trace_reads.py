"""Reading the trace store: the runs list, one run by id or prefix, a run's timeline and packs. A mixin of
TraceStore, which gives it `path` and `_rows` (one query on the store's shared connection)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from slmcode.errors import AmbiguousRunError, RunNotFoundError
from slmcode.store.trace_rows import Event, PackRow, RunRow, event_from_row, pack_from_row, run_from_row

RESUMABLE = ("running", "interrupted")
LATEST_FIRST = "ORDER BY started DESC, rowid DESC"  # rowid: runs started in the same millisecond


class TraceReads:
    path: Path

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        raise NotImplementedError

    def runs(self) -> list[RunRow]:
        """Every run, the latest first."""
        rows = self._rows(f"SELECT * FROM runs {LATEST_FIRST}")
        return [run_from_row(r) for r in rows]

    def run(self, run_id: str) -> RunRow:
        """One run by its id or a unique prefix of it; RunNotFoundError otherwise."""
        rows = self._rows(
            f"SELECT * FROM runs WHERE run_id = ? OR run_id LIKE ? ESCAPE '\\' {LATEST_FIRST}",
            (run_id, _like_prefix(run_id)),
        )
        exact = [r for r in rows if r["run_id"] == run_id]
        if exact or len(rows) == 1:
            return run_from_row((exact or rows)[0])
        if rows:
            raise AmbiguousRunError(f"run id '{run_id}' is ambiguous: {', '.join(r['run_id'] for r in rows[:5])}")
        raise RunNotFoundError(f"no run '{run_id}' in {self.path}")

    def latest_unfinished(self) -> str | None:
        """The latest run that neither finished nor failed: what `slmcode resume` continues by default."""
        rows = self._rows(f"SELECT run_id FROM runs WHERE status IN (?, ?) {LATEST_FIRST} LIMIT 1", RESUMABLE)
        return rows[0]["run_id"] if rows else None

    def timeline(self, run_id: str, after: int = 0) -> list[Event]:
        """The run's events in order; `after`: only those past that sequence number (a live view's poll)."""
        rows = self._rows("SELECT * FROM events WHERE run_id = ? AND seq > ? ORDER BY seq", (run_id, after))
        return [event_from_row(r) for r in rows]

    def tokens_by_run(self) -> dict[str, int]:
        """Prompt plus completion tokens of every run's model calls, summed in SQL (the runs list of the web
        view would otherwise decode every event of every run)."""
        rows = self._rows(
            "SELECT run_id, SUM(COALESCE(json_extract(data, '$.prompt_tokens'), 0) + "
            "COALESCE(json_extract(data, '$.completion_tokens'), 0)) AS tokens "
            "FROM events WHERE kind = 'model_call' GROUP BY run_id"
        )
        return {r["run_id"]: int(r["tokens"] or 0) for r in rows}

    def pack_roles(self, run_id: str) -> list[str]:
        """The roles that received a pack in the run, in name order."""
        rows = self._rows("SELECT DISTINCT role FROM packs WHERE run_id = ? ORDER BY role", (run_id,))
        return [r["role"] for r in rows]

    def pack(self, run_id: str, role: str, task_id: str | None = None) -> PackRow | None:
        """The last pack `role` received in the run (for `task_id`, when given)."""
        sql = "SELECT p.*, e.ts FROM packs p JOIN events e USING (run_id, seq) WHERE p.run_id = ? AND p.role = ?"
        params: tuple[Any, ...] = (run_id, role)
        if task_id is not None:
            sql += " AND p.task_id = ?"
            params += (task_id,)
        rows = self._rows(sql + " ORDER BY p.seq DESC LIMIT 1", params)
        if not rows:
            return None
        return pack_from_row(rows[0])


def _like_prefix(prefix: str) -> str:
    return re.sub(r"([\\%_])", r"\\\1", prefix) + "%"
