"""Benchmark: live elision and the compaction ladder on a long ReAct run, as a server's KV cache sees it.

A worker does 72 iterations of work on an export of this repository: real ws_read / ws_search / ws_list calls
through the real tools (their output cut to the inline allowance compact.room gives the window), edits and writes,
and pytest logs offloaded the way run_tools offloads them. The opening is the real worker pack (repo map,
excerpts) at the share of the room compact.room gives it. Every request the pre-model hook builds is serialised
as a chat template lays it out, tool schemas first; we measure what share of it is a byte-exact prefix of the
previous request (what the server's KV cache reuses), for the whole request and for its messages alone, how often
the cut boundaries slid, and compare with eliding on every request and with last session's split (pack up to 3/4
of the room, 6,000-byte results). Then the ladder's rungs run on the final stored transcript, and the digest of
the dropped part is checked for recall. The 'big' rows rerun the task with reads keeping up to 8,000 bytes inline
(rounds of ~600 tokens) at 8,192 and 16,384, with last session's fixed keep-count (the last 5 results whole,
"keep share 100%") beside the hook's adaptive one (results kept whole while they fit a share of the room).

Run: .venv/bin/python bench/compaction.py
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.utils.function_calling import convert_to_openai_tool

from slmcode.budget.compute import compute_budget
from slmcode.budget.profiles import ModelProfile
from slmcode.budget.room import Limits, WorkerRoom, limits_for, schema_tokens, worker_room
from slmcode.budget.tokens import count_message_tokens, default_counter
from slmcode.compact.digest import build_digest
from slmcode.compact.elision import elide_all_but
from slmcode.compact.ladder import RUNG_FUNCTIONS, compact_transcript
from slmcode.compact.messages import head_length
from slmcode.compact.offload import offload_tool_output
from slmcode.compact.pairs import keep_window_start
from slmcode.compact.request_view import request_view
from slmcode.compact.rungs import RungContext, RungFailed
from slmcode.config import Settings
from slmcode.nodes.prompts import SYSTEM, TOOL_CONTRACT, WORK
from slmcode.packs.builder import build_pack
from slmcode.repomap.build import load_index
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, openai_spec, run_tool_call

ITERATIONS = 72
BIG_RESULT_BYTES = 8000  # the 'big' rows: a read keeps up to this much inline (reads stop at 200 lines anyway)
SEED = 7
QUERY = (
    "compact: the hook should elide old tool results in batches so the request prefix stays byte-identical; "
    "check slmcode/compact/request_view.py and elision.py and keep the digest caps"
)
READS = [
    "slmcode/compact/request_view.py",
    "slmcode/compact/elision.py",
    "slmcode/compact/digest.py",
    "slmcode/compact/pairs.py",
    "slmcode/compact/ladder.py",
    "slmcode/compact/rungs.py",
    "slmcode/compact/resume.py",
    "tests/compact/test_hook.py",
]
SEARCHES = ["def elide", "ToolMessage", "keep_window", "digest", "trigger", "class .*Error"]
KINDS = ["read", "read", "search", "list", "edit", "test", "read", "write"]


@dataclass(frozen=True)
class Setup:
    window: int
    room: WorkerRoom
    tools_json: str
    head: list[BaseMessage]
    ctx: ToolContext


def export_repo(target: Path) -> Path:
    archive = subprocess.run(
        ["git", "-C", str(Path(__file__).parents[1]), "archive", "HEAD"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def setup(workspace: Path, settings: Settings, window: int, split: str) -> Setup:
    """The worker's tools, room and opening pack on a model with this window; `split` 'now' is compact.room's,
    'before' last session's (pack up to 3/4 of the room, results up to tool_output_inline_bytes)."""
    ctx = ToolContext(workspace=workspace, settings=settings, run_id="bench")
    tools = make_tools(ctx)
    budget = compute_budget(settings, "worker", profile=ModelProfile(settings.model, window, 1, "window", "window"))
    room = worker_room(settings, budget, schema_tokens([openai_spec(t) for t in tools]))
    if split == "before":
        room = WorkerRoom(room.room, min(budget.available, int(room.room * 0.75)), settings.tool_output_inline_bytes)
    ctx.result_bytes = room.result_bytes
    pack = build_pack(
        "worker",
        settings=settings,
        workspace=workspace,
        query=QUERY,
        system_prompt=SYSTEM["worker"],
        tool_contract=TOOL_CONTRACT,
        index=load_index(workspace, settings),
        budget_tokens=room.pack,
    )
    tools_json = json.dumps([convert_to_openai_tool(t) for t in tools], sort_keys=True)
    return Setup(window, room, tools_json, [*pack.messages(), HumanMessage(WORK)], ctx)


def pytest_log(rng: random.Random, failing: int) -> str:
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.11.9, pytest-8.3.2, pluggy-1.5.0",
        "rootdir: /work/main",
        f"collected {140 + failing} items",
        "",
    ]
    lines += [f"tests/compact/test_{n}.py {'.' * rng.randint(6, 40)}" for n in ("hook", "pairs", "digest", "ladder")]
    for n in range(failing):
        lines += [
            "",
            "_________________________ test_elided_prefix_is_stable __________________________",
            "",
            "    def test_elided_prefix_is_stable():",
            f">       assert shares[{n}] >= 0.9",
            f"E       assert 0.7{rng.randint(10, 99)} >= 0.9",
            "",
            "tests/compact/test_hook.py:88: AssertionError",
        ]
    lines += [f"FAILED tests/compact/test_hook.py::test_elided_prefix_is_stable[{n}]" for n in range(failing)]
    lines += [f"========================= {failing} failed, 140 passed in 3.{rng.randint(10, 99)}s ==========="]
    return "\n".join(lines) + f"\nexit code {1 if failing else 0}"


def worker_run(s: Setup, iterations: int = ITERATIONS, seed: int = SEED) -> list[list[BaseMessage]]:
    """The stored transcript at every request point of one worker run."""
    rng = random.Random(seed)
    messages = list(s.head)
    snapshots = [list(messages)]
    failing = 3
    for step in range(iterations):
        kind, path, call_id = KINDS[step % 8], rng.choice(READS), f"call_{step}"
        thought = rng.choice(["", "", f"Looking at {path} next.", "The boundary moves too often; fixing it."])
        if kind == "read":
            args, name = {"path": path, "offset": rng.choice([1, 1, 40, 120])}, "ws_read"
        elif kind == "search":
            args, name = {"pattern": rng.choice(SEARCHES), "path": "slmcode"}, "ws_search"
        elif kind == "list":
            args, name = {"path": rng.choice(["slmcode/compact", "tests/compact", "slmcode"])}, "ws_list"
        elif kind == "edit":
            args, name = (
                {
                    "path": path,
                    "old_str": "elided, slides = 0, head, 0",
                    "new_str": "elided, dropped, slides = 0, head, 0",
                },
                "ws_edit",
            )
        elif kind == "write":
            body = "\n".join(
                f"def test_case_{step}_{n}():\n    assert view(n={n}) == expected[{n}]\n" for n in range(8)
            )
            args, name = {"path": f"tests/compact/test_regress_{step}.py", "content": body}, "ws_write"
        else:
            failing = max(0, failing - rng.randint(0, 1))
            command = rng.choice(["pytest -q tests/compact", "pytest -q", "ruff check slmcode"])
            args, name = {"command": command}, "ws_shell"
        call = {"name": name, "args": args, "id": call_id}
        if kind in ("read", "search", "list"):
            result = str(run_tool_call(make_tools(s.ctx), call).content)
        elif kind in ("edit", "write"):
            result = f"{'Edited' if kind == 'edit' else 'Wrote'} {args['path']}"
        else:
            result = pytest_log(rng, failing)
        result = offload_tool_output(
            result,
            workspace=s.ctx.workspace,
            run_id="bench",
            name=name,
            limit_bytes=s.ctx.inline_bytes,
            kind="log" if name == "ws_shell" else "text",
        )
        messages += [AIMessage(thought, tool_calls=[call]), ToolMessage(result, tool_call_id=call_id, name=name)]
        snapshots.append(list(messages))
    return snapshots


def round_tokens(stored: list[BaseMessage], counter: object) -> tuple[float, float, int]:
    """(mean, median, max) tokens of one round (the call and its result) in a stored transcript."""
    sizes = [
        count_message_tokens([a, b], counter)
        for a, b in itertools.pairwise(stored)
        if isinstance(a, AIMessage) and isinstance(b, ToolMessage)
    ]
    return statistics.mean(sizes), statistics.median(sizes), max(sizes)


def serialise(messages: Sequence[BaseMessage], tools_json: str = "") -> bytes:
    """The request as a chat template lays it out (tool schemas first, in the system turn): what the KV cache
    keys on."""
    parts = [f"<|tools|>{tools_json}<|end|>" if tools_json else ""]
    for m in messages:
        calls = json.dumps(getattr(m, "tool_calls", []), sort_keys=True)
        parts.append(f"<|{m.type}|>{m.content}{calls if calls != '[]' else ''}<|end|>")
    return "".join(parts).encode()


def prefix_share(previous: bytes, current: bytes) -> float:
    n, limit = 0, min(len(previous), len(current))
    while n < limit and previous[n] == current[n]:
        n += 1
    return n / len(current)


def measure(views: list[list[BaseMessage]], tools_json: str = "") -> tuple[float, int]:
    """(average prefix share over requests 2..n, requests whose prefix broke before the previous request's end)."""
    requests = [serialise(v, tools_json) for v in views]
    shares = [prefix_share(a, b) for a, b in itertools.pairwise(requests)]
    breaks = sum(not b.startswith(a) for a, b in itertools.pairwise(requests))
    return sum(shares) / len(shares), breaks


def every_request_view(stored: list[BaseMessage], limits: Limits, counter: object) -> list[BaseMessage]:
    """The baseline: once over the trigger, elide all but the last `keep` results on every request."""
    if count_message_tokens(stored, counter) <= limits.trigger:
        return list(stored)
    return elide_all_but(stored, limits.keep)


def elision_rows(
    s: Setup, label: str, settings: Settings, counter: object, keep: int | None = None, keep_share: int | None = None
) -> list[tuple]:
    """Rows per strategy; `keep_share` 100 keeps the last `keep` results whole whatever their size (the fixed
    keep-count of last session), else the hook's own share of the room."""
    limits = limits_for(settings, s.window, keep, room=s.room.room)
    if keep_share is not None:
        limits = dataclasses.replace(limits, keep_share_percent=keep_share)
        label = f"{label} / keep share {keep_share}%"
    snapshots = worker_run(s)
    views = [request_view(v, settings=settings, limits=limits, counter=counter) for v in snapshots]
    runs = (
        ("batched (hook)", [v.messages for v in views]),
        ("every request", [every_request_view(v, limits, counter) for v in snapshots]),
        ("append-only bound", snapshots),
    )
    rows = []
    for name, run in runs:
        whole, breaks = measure(run, s.tools_json)
        messages_only, _ = measure(run)
        sizes = [count_message_tokens(v, counter) for v in run]
        slides = views[-1].cuts.slides if name.startswith("batched") else breaks
        ladder = sum(v.ladder is not None for v in views) if name.startswith("batched") else "-"
        rows.append(
            (
                f"{s.window} / {label} / keep {limits.keep}",
                name,
                f"{whole:.1%}",
                f"{messages_only:.1%}",
                breaks,
                slides,
                ladder,
                max(sizes),
                sum(t > limits.room for t in sizes),
            )
        )
    return rows


def fake_compactor(prompt: str) -> str:
    """Stands in for the compactor model: a fixed-shape brief naming the files it saw."""
    files = sorted({f for f in READS if f in prompt})
    return (
        "## Goal\n- batch the elision\n## Progress\n- read and edited: "
        + ", ".join(files)
        + "\n## Key facts\n- the boundary slides every few rounds\n## Next step\n- rerun pytest -q"
    )


def digest_recall(stored: list[BaseMessage], keep: int) -> tuple[str, str]:
    """Of the distinct files and commands in the dropped part, how many the digest names, out of as many as the
    caps allow (12 files, 5 commands); and whether every one it names was really in the dropped part."""
    head = head_length(stored)
    dropped = stored[head : keep_window_start(stored, keep, floor=head)]
    digest = build_digest(dropped)
    files, commands = set(), set()
    for m in dropped:
        for c in getattr(m, "tool_calls", []):
            if c["name"] in ("ws_read", "ws_edit", "ws_write"):
                files.add(c["args"]["path"])
            if c["name"] == "ws_shell":
                commands.add(c["args"]["command"])
    named_files = set(digest.files_read + digest.files_edited)
    named_commands = {c.rsplit(" -> ", 1)[0] for c in digest.commands}
    return (
        f"{len(named_files & files)}/{min(12, len(files))} ({len(files)} distinct dropped; "
        f"{'all' if named_files <= files else 'NOT all'} named were dropped)",
        f"{len(named_commands & commands)}/{min(5, len(commands))} ({len(commands)} distinct dropped)",
    )


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=False)]
    for row in [header, *rows]:
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=False)))


def run() -> None:
    settings, counter = Settings(model="bench-7b"), default_counter()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = export_repo(Path(tmp))
        main = setup(workspace, settings, 8192, "now")
        snapshots = worker_run(main)
        limits = limits_for(settings, main.window, room=main.room.room)
        started = time.perf_counter()
        for stored in snapshots:
            request_view(stored, settings=settings, limits=limits, counter=counter)
        hook_ms = (time.perf_counter() - started) * 1000 / len(snapshots)
        header = (
            "window / split / keep",
            "strategy",
            "prefix share (request)",
            "(messages)",
            "prefix breaks",
            "slides",
            "ladder used",
            "max request tok",
            "requests over room",
        )
        rows = [
            *elision_rows(main, "now", settings, counter),
            *elision_rows(main, "now", settings, counter, keep=3),
            *elision_rows(setup(workspace, settings, 8192, "before"), "before", settings, counter),
        ]
        for window in (16384, 32768):
            rows += elision_rows(setup(workspace, settings, window, "now"), "now", settings, counter)
        # Big rounds: reads keep up to BIG_RESULT_BYTES inline (~600-token rounds on average, the case).
        big_rounds = []
        for window in (8192, 16384):
            big = setup(workspace, settings, window, "now")
            big.ctx.result_bytes = BIG_RESULT_BYTES
            big_rounds.append(round_tokens(worker_run(big)[-1], counter))
            for share in (100, None):
                rows += [
                    r for r in elision_rows(big, "big", settings, counter, keep_share=share) if r[1] != "every request"
                ]
        table(
            f"Live elision over {ITERATIONS} iterations. 8,192 'now': message room {main.room.room}, trigger "
            f"{limits.trigger}, pack {main.room.pack}, one result {main.room.result_bytes} bytes, tool schemas "
            f"{schema_tokens([openai_spec(t) for t in make_tools(main.ctx)])} "
            "tokens; 'append-only bound' is the share if nothing were cut",
            header,
            rows,
        )
        print(f"hook time per request: {hook_ms:.1f} ms (mean over {len(snapshots)} requests, window 8192)")
        print(
            f"'big' rows: results up to {BIG_RESULT_BYTES} bytes inline; tokens per round (call + result) mean "
            f"{big_rounds[0][0]:.0f}, median {big_rounds[0][1]:.0f}, max {big_rounds[0][2]}"
        )
        final = snapshots[-1]
        budget = main.room.room
        ctx = RungContext(
            settings=settings,
            budget_tokens=budget,
            target_tokens=budget - budget // 20,
            keep=settings.react_keep_tool_results,
            counter=counter,
            summarize=fake_compactor,
        )
        before = count_message_tokens(final, counter)
        rows = []
        for name, rung in RUNG_FUNCTIONS:
            try:
                after, note = count_message_tokens(rung(list(final), ctx), counter), ""
            except RungFailed as exc:
                after, note = before, str(exc)
            rows.append((name, before, after, before - after, note))
        table(
            f"Ladder rungs on the final stored transcript (budget {budget}), each rung alone",
            ("rung", "tokens before", "after", "saved", "note"),
            rows,
        )
        for label, summarize, share in (
            ("with compactor", fake_compactor, 1.0),
            ("with compactor", fake_compactor, 0.5),
            ("without compactor", None, 0.5),
        ):
            result = compact_transcript(
                final, settings=settings, budget_tokens=int(budget * share), summarize=summarize, counter=counter
            )
            table(
                f"Ladder as run ({label}, budget {int(budget * share)}): {result.reason}",
                ("rung", "tokens before", "after", "saved", "accepted", "note"),
                [
                    (r.name, r.tokens_before, r.tokens_after, r.tokens_before - r.tokens_after, r.accepted, r.note)
                    for r in result.rungs
                ],
            )
        files, commands = digest_recall(final, settings.react_keep_tool_results)
        table(
            "Digest recall over the part before the keep window (within the caps 12 files / 5 commands)",
            ("files", "commands"),
            [(files, commands)],
        )


if __name__ == "__main__":
    run()
