"""Benchmark: live elision and the compaction ladder on a long synthetic ReAct run.

A worker on an 8,192-token model does 72 iterations of realistic work (file reads, greps, listings, edits,
pytest logs). Every request the pre-model hook builds is serialised as a chat request; we measure what share
of it is a byte-exact prefix of the previous request (what a server's KV cache can reuse), how often the cut
boundaries slid, and compare with eliding on every request. Then the ladder's rungs run on the final stored
transcript, each alone and as a ladder, and the digest of the dropped part is checked for recall.

Run: /work/venv/bin/python bench/compaction.py
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from slmcode.compact.digest import build_digest
from slmcode.compact.elision import elide_all_but
from slmcode.compact.hook import Limits, limits_for, request_view
from slmcode.compact.ladder import RUNG_FUNCTIONS, compact_transcript
from slmcode.compact.messages import head_length
from slmcode.compact.pairs import keep_window_start
from slmcode.compact.rungs import RungContext, RungFailed
from slmcode.config import Settings
from slmcode.packs.tokens import count_message_tokens, default_counter

WINDOW = 8192
ITERATIONS = 72
SEED = 7
READ_LINES = 40
FILES = [f"src/shop/{name}.py" for name in ("cart", "pricing", "orders", "models", "api", "tax", "db", "utils")]
TESTS = [f"tests/test_{name}.py" for name in ("cart", "pricing", "orders", "api")]


def code_file(rng: random.Random, path: str, lines: int) -> str:
    out = [f'"""{path}: part of the shop service."""', "", "from __future__ import annotations", ""]
    for n in range(lines // 6):
        name = rng.choice(["total", "discount", "apply", "validate", "load", "save"]) + f"_{n}"
        out += [
            f"def {name}(items: list[dict], rate: float = 0.{rng.randint(1, 9)}) -> float:",
            f'    """Compute {name.replace("_", " ")} for the given items."""',
            "    value = sum(item['price'] * item.get('qty', 1) for item in items)",
            f"    return round(value * (1 - rate), {rng.randint(0, 3)})",
            "",
            "",
        ]
    return "\n".join(f"{i + 1:>4}  {line}" for i, line in enumerate(out))


def pytest_log(rng: random.Random, failing: int) -> tuple[str, int]:
    lines = ["============================= test session starts ==============================",
             "platform linux -- Python 3.11.9, pytest-8.3.2, pluggy-1.5.0", "rootdir: /work/shop",
             f"collected {40 + failing} items", ""]
    lines += [f"{t} {'.' * rng.randint(6, 14)}{'F' * (failing and 1)}" for t in TESTS]
    if failing:
        lines += ["", "=================================== FAILURES ===================================",
                  "_________________________ test_discount_applies_once __________________________", ""]
        lines += [f"    def test_discount_applies_once():\n>       assert total_{n}(ITEMS) == 90.0\n"
                  f"E       AssertionError: assert 81.0 == 90.0" for n in range(failing)]
        lines += [f"FAILED tests/test_pricing.py::test_discount_applies_once - AssertionError ({n})"
                  for n in range(failing)]
    lines += [f"========================= {failing} failed, 40 passed in 1.{rng.randint(10, 99)}s ==========="]
    code = 1 if failing else 0
    return "\n".join(lines) + f"\nexit code {code}", code


def synthetic_run(
    seed: int = SEED, iterations: int = ITERATIONS, read_lines: int = READ_LINES
) -> list[list[BaseMessage]]:
    """The stored transcript at every request point of one worker run."""
    rng = random.Random(seed)
    messages: list[BaseMessage] = [
        SystemMessage("You are a coding agent. Use the ws_* tools. Keep changes small; run the tests."),
        HumanMessage("Task: fix the double discount in the pricing module so tests/test_pricing.py passes. "
                     "Focus files: src/shop/pricing.py, src/shop/cart.py."),
    ]
    snapshots = [list(messages)]
    failing = 3
    for step in range(iterations):
        kind = ["read", "read", "search", "list", "edit", "test", "read", "write"][step % 8]
        path = rng.choice(FILES)
        thought = rng.choice(["", "", f"Looking at {path} next.", "The discount is applied twice; fixing it."])
        call_id = f"call_{step}"
        if kind == "read":
            call, result = ("ws_read", {"path": path, "offset": 0, "limit": 60}), code_file(rng, path, read_lines)
        elif kind == "search":
            call = ("ws_search", {"pattern": "discount", "path": "src"})
            result = "\n".join(f"{rng.choice(FILES)}:{rng.randint(1, 300)}:    value = discount(items)"
                               for _ in range(12))
        elif kind == "list":
            call, result = ("ws_list", {"path": "src/shop"}), "\n".join(FILES + TESTS)
        elif kind == "edit":
            call = ("ws_edit", {"path": path, "old_str": "rate: float = 0.1", "new_str": "rate: float = 0.0"})
            result = f"Edited {path}: replaced 1 occurrence"
        elif kind == "write":
            call = ("ws_write", {"path": f"tests/test_regress_{step}.py", "content": code_file(rng, "t.py", 18)})
            result = f"Wrote tests/test_regress_{step}.py (18 lines)"
        else:
            failing = max(0, failing - rng.randint(0, 1))
            cmd = rng.choice(["pytest -q tests/test_pricing.py", "pytest -q", "ruff check src"])
            call = ("ws_shell", {"command": cmd})
            result, _ = pytest_log(rng, failing)
        messages.append(AIMessage(thought, tool_calls=[{"name": call[0], "args": call[1], "id": call_id}]))
        messages.append(ToolMessage(result, tool_call_id=call_id, name=call[0]))
        snapshots.append(list(messages))
    return snapshots


def serialise(messages: Sequence[BaseMessage]) -> bytes:
    """The request as a chat template would lay it out, in order: what the KV cache keys on."""
    parts = []
    for m in messages:
        calls = json.dumps(getattr(m, "tool_calls", []), sort_keys=True)
        parts.append(f"<|{m.type}|>{m.content}{calls if calls != '[]' else ''}<|end|>")
    return "".join(parts).encode()


def prefix_share(previous: bytes, current: bytes) -> float:
    n = 0
    limit = min(len(previous), len(current))
    while n < limit and previous[n] == current[n]:
        n += 1
    return n / len(current)


def measure(views: list[list[BaseMessage]]) -> tuple[float, int]:
    """(average prefix share over requests 2..n, requests whose prefix broke before the previous request's end)."""
    requests = [serialise(v) for v in views]
    shares = [prefix_share(a, b) for a, b in itertools.pairwise(requests)]
    breaks = sum(not b.startswith(a) for a, b in itertools.pairwise(requests))
    return sum(shares) / len(shares), breaks


def every_request_view(stored: list[BaseMessage], limits: Limits, counter: object) -> list[BaseMessage]:
    """The baseline: once over the trigger, elide all but the last `keep` results on every request."""
    if count_message_tokens(stored, counter) <= limits.trigger:
        return list(stored)
    return elide_all_but(stored, limits.keep)


def rung_savings(stored: list[BaseMessage], settings: Settings, budget: int, counter: object) -> list[tuple]:
    ctx = RungContext(settings=settings, budget_tokens=budget, target_tokens=budget - budget // 20,
                      keep=settings.react_keep_tool_results, counter=counter, summarize=fake_compactor)
    before = count_message_tokens(stored, counter)
    rows = []
    for name, rung in RUNG_FUNCTIONS:
        try:
            after = count_message_tokens(rung(list(stored), ctx), counter)
        except RungFailed as exc:
            rows.append((name, before, before, str(exc)))
            continue
        rows.append((name, before, after, ""))
    return rows


def fake_compactor(prompt: str) -> str:
    """Stands in for the compactor model: a fixed-shape brief naming the files it saw."""
    files = sorted({f for f in FILES + TESTS if f in prompt})
    return ("## Goal\n- fix the double discount\n## Progress\n- read and edited: " + ", ".join(files)
            + "\n## Key facts\n- pricing applies the discount twice\n## Next step\n- rerun pytest -q")


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


def elision_rows(
    window: int, read_lines: int, settings: Settings, counter: object, keep: int | None = None
) -> list[tuple]:
    """Rows comparing the hook's batched cuts with eliding on every request, plus the append-only bound."""
    limits = limits_for(settings, window, keep)
    snapshots = synthetic_run(read_lines=read_lines)
    views = [request_view(s, settings=settings, limits=limits, counter=counter) for s in snapshots]
    batched = [v.messages for v in views]
    naive = [every_request_view(s, limits, counter) for s in snapshots]
    label = f"{window} / {read_lines}-line reads / keep {limits.keep}"
    rows = []
    for name, run, slides in (("batched (hook)", batched, views[-1].cuts.slides), ("every request", naive, None)):
        share, breaks = measure(run)
        sizes = [count_message_tokens(v, counter) for v in run]
        rows.append((label, name, f"{share:.1%}", breaks, breaks if slides is None else slides,
                     sum(v.ladder is not None for v in views) if slides is not None else "-",
                     max(sizes), sum(t > limits.room for t in sizes)))
    bound, _ = measure(snapshots)
    rows.append((label, "append-only bound", f"{bound:.1%}", 0, 0, "-", count_message_tokens(snapshots[-1], counter),
                 "-"))
    return rows


def run() -> None:
    settings = Settings(model="bench-7b")
    counter = default_counter()
    limits = limits_for(settings, WINDOW)
    snapshots = synthetic_run()
    started = time.perf_counter()
    for stored in snapshots:
        request_view(stored, settings=settings, limits=limits, counter=counter)
    hook_ms = (time.perf_counter() - started) * 1000 / len(snapshots)
    header = ("window / workload", "strategy", "avg prefix share", "prefix breaks", "slides", "ladder used",
              "max request tok", "requests over room")
    table(
        f"Live elision over {ITERATIONS} iterations (the 8,192 row is the issue's case; message room {limits.room}, "
        f"trigger {limits.trigger}; 'append-only bound' is the share if nothing were ever cut)",
        header,
        elision_rows(WINDOW, READ_LINES, settings, counter),
    )
    print(f"hook time per request: {hook_ms:.1f} ms (mean over {len(snapshots)} requests, window {WINDOW})")
    sweep = [row for window, lines, keep in ((8192, 60, None), (8192, 40, 3), (16384, 40, None), (32768, 40, None))
             for row in elision_rows(window, lines, settings, counter, keep)]
    table("Sensitivity: bigger reads, bigger windows (same run shape)", header, sweep)
    final = snapshots[-1]
    budget = limits.room
    table(
        f"Ladder rungs on the final stored transcript (budget {budget}), each rung alone",
        ("rung", "tokens before", "after", "saved", "note"),
        [(n, b, a, b - a, note) for n, b, a, note in rung_savings(final, settings, budget, counter)],
    )
    runs = (("with compactor", fake_compactor, 1.0), ("with compactor", fake_compactor, 0.12),
            ("without compactor", None, 0.12))
    for label, summarize, share in runs:
        target = int(budget * share)
        result = compact_transcript(final, settings=settings, budget_tokens=target, summarize=summarize,
                                    counter=counter)
        table(
            f"Ladder as run ({label}, budget {target}): {result.reason}",
            ("rung", "tokens before", "after", "saved", "accepted", "note"),
            [(r.name, r.tokens_before, r.tokens_after, r.tokens_before - r.tokens_after, r.accepted, r.note)
             for r in result.rungs],
        )
    files, commands = digest_recall(final, settings.react_keep_tool_results)
    table("Digest recall over the part before the keep window (within the caps 12 files / 5 commands)",
          ("files", "commands"), [(files, commands)])


if __name__ == "__main__":
    run()
