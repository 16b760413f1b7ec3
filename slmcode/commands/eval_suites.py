"""`slmcode eval --suite polyglot DIR` and `slmcode eval --suite swebench FILE.jsonl --repos DIR`: the standard
suites on the user's model, reported in the shape of the published tables (eval/suites)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from slmcode.commands.common import console, err_console, print_json
from slmcode.errors import SlmcodeError

DEFAULT_TRIES = {"polyglot": 2, "swebench": 1}  # aider's leaderboard reports pass@2; SWE-bench one try


def run_standard(
    suite: str,
    source: Path | None,
    *,
    repos: Path | None,
    tries: int | None,
    settings: Any,
    task: str | None,
    tasks: int | None,
    jobs: int,
    timeout: float,
    as_json: bool,
    out: Path,
    keep: bool,
) -> None:
    from slmcode.commands.eval import _progress  # the bundled suite's bar: solved so far
    from slmcode.eval.report import write_json
    from slmcode.eval.suites import items as suite_items
    from slmcode.eval.suites.report import payload
    from slmcode.eval.suites.run import run_items
    from slmcode.eval.suites.sandboxed import GRADE_TIMEOUT_SECONDS
    from slmcode.serving import model_endpoint

    if source is None:
        what = "DIR (a checkout of Aider's polyglot-benchmark)" if suite == "polyglot" else "FILE.jsonl"
        raise SlmcodeError(f"--suite {suite} needs {what}: `slmcode eval --suite {suite} PATH`")
    tries = DEFAULT_TRIES.get(suite, 1) if tries is None else tries
    if suite == "swebench" and tries != 1:
        raise SlmcodeError("--tries: SWE-bench is graded once (the hidden tests are not shown to the agent)")
    if not 1 <= tries <= 2:
        raise SlmcodeError(f"--tries: 1 or 2 (aider's protocol), got {tries}")
    chosen = suite_items.narrow(suite_items.load(suite, source, repos), item_id=task, count=tasks)
    if not as_json:
        _say_skipped(chosen.skipped)
    with model_endpoint(settings) as live:
        run_settings: dict[str, Any] = {
            "base_url": live.base_url,
            "model": live.model,
            "server_dialect": live.server_dialect,
            "max_parallel": live.max_parallel,
        }
        bar, on_result = _progress(len(chosen.items))
        with bar:
            attempts = run_items(
                chosen.items,
                run_settings,
                tries=tries,
                parallel=jobs,
                timeout=timeout,
                grade_timeout=min(timeout, GRADE_TIMEOUT_SECONDS),
                on_result=on_result,
                keep=out / "workspaces" if keep else None,
            )
    data = payload(
        suite,
        str(source),
        attempts,
        tries=tries,
        total=chosen.total,
        skipped=chosen.skipped,
        model=live.model,
        base_url=run_settings["base_url"] or "",
    )
    path = write_json(out, data)
    _show(suite, data, attempts, path, as_json)


def _say_skipped(skipped: dict[str, str]) -> None:
    """One line per reason (a language's missing toolchain, a repository's missing clone), not per item."""
    by_reason: dict[str, list[str]] = {}
    for item_id, why in skipped.items():
        by_reason.setdefault(why, []).append(item_id)
    for why, ids in by_reason.items():
        which = ids[0] if len(ids) == 1 else f"{len(ids)} items ({ids[0]}, ...)"
        err_console.print(f"[yellow]skipped[/yellow] {which}: {why}", highlight=False, soft_wrap=True)


def _show(suite: str, data: dict[str, Any], attempts: list[Any], path: Path, as_json: bool) -> None:
    from slmcode.eval.suites.report import attempts_table, polyglot_table, swebench_table

    if as_json:
        print_json(data | {"report": str(path)})
        return
    console.print(attempts_table(attempts))
    console.print((polyglot_table if suite == "polyglot" else swebench_table)(data["summary"]))
    console.print(f"[dim]report: {path}[/dim]", highlight=False)
