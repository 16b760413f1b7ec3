"""How `slmcode serve` keeps up with many clients at once: the latency of each request when CLIENTS clients
connect together, each asking for REQUESTS pages (the runs list, a run page, a task page), over real HTTP on
loopback, against a workspace holding RUNS recorded runs.

    .venv/bin/python bench/serve_load.py [--clients 200] [--requests 2] [--runs 20] [--timeout 60]

Prints p50, p90 and max latency in ms, the count past the timeout, and the machine's load. Measure alone on
the machine: the figures are the server's only if nothing else competes for the cores.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from slmcode.store.trace import TraceStore
from slmcode.web.server import make_server


def record_runs(workspace: Path, count: int) -> None:
    store = TraceStore.for_workspace(workspace)
    for n in range(count):
        run = f"run-{n}"
        store.start_run(run, query=f"Change {n}", workspace=str(workspace), model="qwen2.5-coder:7b", settings={})
        store.record_event(run, "task", {"title": f"task {n}", "status": "todo"}, task_id="t1")
        for turn in range(20):
            store.record_model_call(
                run, role="worker", task_id="t1", latency_ms=5, prompt_tokens=900, completion_tokens=40, ok=True
            )
            store.record_tool_call(
                run, task_id="t1", name="ws_read", ok=True, summary=f"read {turn}", args={"path": "a.py"}
            )
        store.record_event(run, "task", {"status": "review", "turns": 20, "files_changed": ["a.py"]}, task_id="t1")
        store.record_verdict(run, task_id="t1", criterion="the tests pass", status="PASSED", evidence="1 passed")
        store.finish_run(run, status="done", outcome="done")


def client(port: int, cookie: str, paths: list[str], timeout: float, start: threading.Event, out: list[float]) -> None:
    start.wait()
    for path in paths:
        began = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
            conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}", "Cookie": cookie})
            conn.getresponse().read()
            conn.close()
            out.append(time.perf_counter() - began)
        except OSError:
            out.append(float("inf"))  # past the timeout, or refused


_now = threading.Event()
_now.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--requests", type=int, default=2)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        record_runs(workspace, args.runs)
        server = make_server(workspace, 0)
        port, token = server.server_address[1], server.app.guard.token  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        cookie = f"slmcode_token_{port}={token}"
        first: list[float] = []
        client(port, cookie, ["/runs/run-1"], args.timeout, _now, first)  # the first visit, before the load
        pages = ["/", "/runs/run-1", "/runs/run-1/tasks/t1"]
        start, latencies = threading.Event(), list[float]()
        clients = [
            threading.Thread(
                target=client,
                args=(
                    port,
                    cookie,
                    [pages[(n + k) % 3] for k in range(args.requests)],
                    args.timeout,
                    start,
                    latencies,
                ),
            )
            for n in range(args.clients)
        ]
        for thread in clients:
            thread.start()
        began = time.perf_counter()
        start.set()
        for thread in clients:
            thread.join()
        wall = time.perf_counter() - began
        closing = time.perf_counter()
        server.app.stopping.set()  # type: ignore[attr-defined]
        server.shutdown()
        server.server_close()
        stop = time.perf_counter() - closing
    done = sorted(x for x in latencies if x != float("inf"))
    late = sum(1 for x in latencies if x == float("inf") or x > args.timeout)
    ms = [x * 1000 for x in done] or [0.0]
    p90 = ms[int(0.9 * (len(ms) - 1))]
    print(f"slmcode serve under {args.clients} concurrent clients, {len(latencies)} requests, {args.runs} runs")
    p50, worst = statistics.median(ms), max(ms)
    print(f"  p50 {p50:.0f} ms  p90 {p90:.0f} ms  max {worst:.0f} ms  past {args.timeout:.0f} s or refused: {late}")
    print(f"  the first visit to a run page: {first[0] * 1000:.0f} ms")
    print(f"  all done in {wall:.1f} s; stopped {stop:.2f} s after the load")
    print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
