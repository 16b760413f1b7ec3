"""`slmcode eval`: measure what the harness does for a model on the bundled suite, against a plain baseline
loop (--compare), or replay recorded answers against today's code (--replay, for CI)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from slmcode.commands.common import (
    BaseUrlOpt,
    JsonOpt,
    ModelOpt,
    console,
    err_console,
    positive,
    print_json,
    settings_for,
)
from slmcode.errors import SlmcodeError

app = typer.Typer()

EMBEDDED_SUBSET = 2  # tasks the embedded model runs by default: it is tiny, and it will mostly fail
DEFAULT_TIMEOUT = 900.0


@app.command("eval")
def eval_command(
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    tasks: Annotated[int | None, typer.Option("--tasks", help="Run the first N tasks, spread over languages.")] = None,
    task: Annotated[str | None, typer.Option("--task", help="Run one task by id.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", help="Attempts run at the same time.")] = 1,
    as_json: JsonOpt = False,
    out: Annotated[Path, typer.Option("--out", help="Folder for the JSON report.")] = Path(".slmcode/eval"),
    list_tasks: Annotated[bool, typer.Option("--list", help="List the tasks and their languages.")] = False,
    compare: Annotated[bool, typer.Option("--compare", help="Also run the baseline agent; show both.")] = False,
    peer: Annotated[
        str | None,
        typer.Option(
            "--peer",
            help="Also run a peer protocol users pick instead: mini-swe (mini-swe-agent-like: one bash command "
            "per reply), aider (aider-like: whole files in the prompt and back), aider-diff (aider-like with "
            "search/replace blocks back) (comma-separated).",
        ),
    ] = None,
    replay: Annotated[bool, typer.Option("--replay", help="Serve recorded answers instead of a model.")] = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per attempt.")] = DEFAULT_TIMEOUT,
    keep: Annotated[bool, typer.Option("--keep", help="Keep each attempt's workspace under --out.")] = False,
    record: Annotated[bool, typer.Option("--record", help="Keep the model's answers as replays under --out.")] = False,
    standard: Annotated[
        str | None,
        typer.Option("--suite", help="A standard suite instead: polyglot DIR, or swebench FILE.jsonl --repos DIR."),
    ] = None,
    source: Annotated[Path | None, typer.Argument(help="--suite's checkout or JSONL file.", show_default=False)] = None,
    repos: Annotated[Path | None, typer.Option("--repos", help="swebench: the folder of your clones.")] = None,
    tries: Annotated[int | None, typer.Option("--tries", help="polyglot: 1 or 2 tries (default 2).")] = None,
    sim: Annotated[
        str | None,
        typer.Option(
            "--sim",
            help="A SIMULATED small model instead of a real one: perfect, tiny, 7b, 14b, all, or a YAML "
            "profile's path.",
        ),
    ] = None,
    ablate: Annotated[
        str | None,
        typer.Option(
            "--ablate",
            help="With --sim: the harness with each lever off too: all, or packs, repo_map, tool_repair, "
            "compaction, verify, loop_guard, edit_format, stall, focus; attempts is switched on (2) instead "
            "(comma-separated).",
        ),
    ] = None,
    seeds: Annotated[int, typer.Option("--seeds", help="With --sim: seeds per task.")] = 1,
    fallback_sim: Annotated[
        str | None,
        typer.Option(
            "--fallback-sim",
            help="With --sim: a row with a SIMULATED fallback model of this profile (e.g. 14b) on a "
            "second server, which a failed task escalates to.",
        ),
    ] = None,
) -> None:
    """Run the bundled suite; per task solved/failed, turns, tokens, time and why it failed."""
    from slmcode.eval.sim.compare import parse_peers
    from slmcode.eval.suite import load_suite, missing_toolchain, select

    # Before: --tasks 0 measured nothing, --timeout 0 timed every attempt out, --jobs 0 quietly ran one.
    positive(tasks, "--tasks", "tasks")
    positive(jobs, "--jobs", "attempts at a time")
    positive(timeout, "--timeout", "seconds")
    peers = parse_peers(peer)
    if standard is not None:  # the standard suites for real models (commands/eval_suites.py)
        from slmcode.commands.eval_suites import run_standard

        if standard == "polyglot" and sim is not None and not (replay or record or list_tasks):
            from slmcode.commands.eval_polyglot_sim import run_polyglot_sim

            positive(seeds, "--seeds", "seeds")
            run_polyglot_sim(
                sim,
                source,
                compare=compare,
                peers=peers,
                tries=2 if tries is None else tries,
                seeds=seeds,
                task=task,
                tasks=tasks,
                jobs=jobs,
                timeout=timeout,
                as_json=as_json,
                out=out,
                ablate=ablate,
            )
            return
        if standard == "swebench" and sim is not None and not (replay or record or list_tasks or ablate or tries):
            from slmcode.commands.eval_suite_sim import run_swebench_sim

            positive(seeds, "--seeds", "seeds")
            run_swebench_sim(
                sim,
                source,
                repos=repos,
                compare=compare,
                peers=peers,
                seeds=seeds,
                task=task,
                tasks=tasks,
                jobs=jobs,
                timeout=timeout,
                as_json=as_json,
                out=out,
            )
            return
        if compare or replay or record or list_tasks or ablate or sim is not None:
            raise SlmcodeError(
                "--compare and --sim go together on --suite polyglot and --suite swebench; --replay, --record "
                "and --list are for the bundled suite; --ablate goes with --sim on the bundled suite and polyglot"
            )
        settings = settings_for(Path("."), base_url=base_url, model=model).settings
        run_standard(
            standard,
            source,
            repos=repos,
            tries=tries,
            settings=settings,
            task=task,
            tasks=tasks,
            jobs=jobs,
            timeout=timeout,
            as_json=as_json,
            out=out,
            keep=keep,
        )
        return
    if source is not None or repos is not None or tries is not None:
        raise SlmcodeError("PATH, --repos and --tries go with --suite polyglot|swebench")
    suite = load_suite()
    if list_tasks:
        _list(suite, as_json)
        return
    if sim is not None:  # the simulated small model's table (commands/eval_sim.py); --task takes ids, comma-separated
        from slmcode.commands.eval_sim import run_sim

        positive(seeds, "--seeds", "seeds")
        chosen = (
            [t for one in task.split(",") for t in select(suite, task_id=one.strip())]
            if task
            else select(suite, count=tasks)
        )
        run_sim(
            sim,
            chosen,
            compare=compare,
            ablate=ablate,
            seeds=seeds,
            jobs=jobs,
            timeout=timeout,
            as_json=as_json,
            out=out,
            fallback=fallback_sim,
            peers=peers,
        )
        return
    chosen = select(suite, task_id=task, count=tasks)
    if ablate is not None or fallback_sim is not None:
        raise SlmcodeError("--ablate and --fallback-sim go with --sim: they are measured against the simulated model")
    if replay:
        raise typer.Exit(_replay(chosen if task else suite, task, jobs, timeout, as_json, out))
    skipped = {t.id: why for t in chosen if (why := missing_toolchain(t.language))}
    runnable = [t for t in chosen if t.id not in skipped]
    flags: dict[str, Any] = {"base_url": base_url, "model": model}
    settings = settings_for(Path("."), **flags).settings
    if not settings.base_url and tasks is None and task is None:
        runnable = select(runnable, count=EMBEDDED_SUBSET)
    _measure(runnable, settings, compare, peers, jobs, timeout, as_json, out, skipped, keep, record)


def _list(suite: list[Any], as_json: bool) -> None:
    from slmcode.eval.suite import missing_toolchain

    rows = [
        {"id": t.id, "language": t.language, "kind": t.kind, "title": t.title, "skipped": missing_toolchain(t.language)}
        for t in suite
    ]
    if as_json:
        print_json(rows)
        return
    table = Table("id", "language", "kind", "title", "runs here", title=f"{len(rows)} tasks")
    for r in rows:
        table.add_row(r["id"], r["language"], r["kind"], r["title"], r["skipped"] or "yes")
    console.print(table)


def _progress(total: int) -> tuple[Progress, Any]:
    """A bar on stderr with the running solve rate (stdout stays clean for --json)."""
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
    )
    handle = bar.add_task("solved 0/0", total=total)
    seen = {"done": 0, "solved": 0}

    def on_result(attempt: Any) -> None:
        seen["done"] += 1
        seen["solved"] += attempt.solved
        rate = seen["solved"] / seen["done"]
        bar.update(handle, advance=1, description=f"solved {seen['solved']}/{seen['done']} ({rate:.0%})")

    return bar, on_result


def _measure(
    runnable: list[Any],
    settings: Any,
    compare: bool,
    peers: list[str],
    jobs: int,
    timeout: float,
    as_json: bool,
    out: Path,
    skipped: dict[str, str],
    keep: bool,
    record: bool,
) -> None:
    from slmcode.eval.report import payload, write_json
    from slmcode.eval.runner import Job, run_jobs
    from slmcode.serving import model_endpoint

    agents = ["harness", *(["baseline"] if compare else []), *peers]
    with model_endpoint(settings) as live:
        run_settings: dict[str, Any] = {
            "base_url": live.base_url,
            "model": live.model,
            "server_dialect": live.server_dialect,
            "max_parallel": live.max_parallel,
        }
        replays = out / "replays" if record else None
        work = [Job(t, agent, run_settings, record=replays) for t in runnable for agent in agents]
        bar, on_result = _progress(len(work))
        with bar:
            attempts = run_jobs(
                work, parallel=jobs, timeout=timeout, on_result=on_result, keep=out / "workspaces" if keep else None
            )
    data = payload(attempts, model=live.model, base_url=run_settings["base_url"] or "", mode="measure", skipped=skipped)
    path = write_json(out, data)
    _show(data, attempts, path, as_json)


def _show(data: dict[str, Any], attempts: list[Any], path: Path, as_json: bool) -> None:
    from slmcode.eval.report import attempts_table, summary_table

    if as_json:
        print_json(data | {"report": str(path)})
        return
    console.print(attempts_table(attempts))
    console.print(summary_table(data["summary"]))
    for task_id, why in data["skipped"].items():
        console.print(f"[yellow]skipped[/yellow] {task_id}: {why}", highlight=False)
    console.print(f"[dim]report: {path}[/dim]", highlight=False)


def _replay(suite: list[Any], task_id: str | None, jobs: int, timeout: float, as_json: bool, out: Path) -> int:
    """Every recorded replay (of one task with --task); exit 1 when one no longer ends as it was recorded."""
    from slmcode.eval.replay import load_replays
    from slmcode.eval.report import payload, write_json
    from slmcode.eval.runner import Job, run_jobs
    from slmcode.eval.suite import missing_toolchain

    by_id = {t.id: t for t in suite}
    replays = [r for r in load_replays(task_id=task_id) if r.task in by_id]
    skipped = {r.name: why for r in replays if (why := missing_toolchain(by_id[r.task].language))}
    replays = [r for r in replays if r.name not in skipped]
    work = [Job(by_id[r.task], r.agent, {}, r) for r in replays]
    bar, on_result = _progress(len(work))
    with bar:
        attempts = run_jobs(work, parallel=jobs, timeout=timeout, on_result=on_result)
    got = ["solved" if a.solved else str(a.failure) for a in attempts]
    mismatches = [(r.name, r.expect, g) for r, g in zip(replays, got, strict=True) if r.expect != g]
    data = payload(attempts, model="replay", base_url="", mode="replay", skipped=skipped)
    data["replays"] = [{"replay": r.name, "expect": r.expect, "got": g} for r, g in zip(replays, got, strict=True)]
    path = write_json(out, data)
    _show(data, attempts, path, as_json)
    for name, expect, g in mismatches:
        err_console.print(f"[red]replay {name}: expected {expect}, got {g}[/red]", highlight=False)
    return 1 if mismatches else 0
