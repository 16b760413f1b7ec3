"""How fast is the embedded model here: server start, prompt processing and generation, in tokens per second.

Run: /work/venv/bin/python bench/embedded_speed.py [--rounds 3] [--prompt-repeats 20] [--generate 128]
Needs the `local` extra. Each round sends a fresh prompt (so llama.cpp's prefix cache cannot flatter the
prompt figure) and reads llama.cpp's own timings (llama_perf lines of the server log) next to the wall time.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from pathlib import Path

import httpx

from slmcode.config import Settings
from slmcode.providers.embedded import embedded_server

FILLER = "The harness decides what the model sees, when it acts, and how failures recover. "
PROMPT_EVAL = re.compile(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
EVAL = re.compile(r"\beval time =\s*([\d.]+) ms /\s*(\d+) runs")


def last_timings(log: Path) -> tuple[float, int, float, int]:
    """(prompt ms, prompt tokens, generation ms, generated tokens) of the latest request, as llama.cpp saw it."""
    text = log.read_text(errors="replace")
    prompt_ms, prompt_n = PROMPT_EVAL.findall(text)[-1]
    eval_ms, eval_n = EVAL.findall(text)[-1]
    return float(prompt_ms), int(prompt_n), float(eval_ms), int(eval_n)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--prompt-repeats", type=int, default=20, help="filler sentences in each prompt")
    parser.add_argument("--generate", type=int, default=128, help="max_tokens of each answer")
    args = parser.parse_args()

    started = time.perf_counter()
    rows = []
    with embedded_server(Settings()) as server:
        start_seconds = time.perf_counter() - started
        for round_no in range(args.rounds):
            prompt = f"Round {round_no} {time.time_ns()}. " + FILLER * args.prompt_repeats + "Write a long story."
            body = {
                "model": server.model,
                "messages": [{"role": "user", "content": prompt}],
                "max_tokens": args.generate,
                "temperature": 0.7,
            }
            sent = time.perf_counter()
            httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=600).raise_for_status()
            wall = time.perf_counter() - sent
            time.sleep(0.2)  # the timings reach the log just after the answer
            rows.append((round_no, wall, *last_timings(server.log_path)))

    print(f"server start (spawn -> /v1/models answers): {start_seconds:.2f} s   n_ctx {server.n_ctx}")
    print(f"{'round':>5} {'wall_s':>7} {'prompt_tok':>10} {'prompt_tok/s':>12} {'gen_tok':>8} {'gen_tok/s':>9}")
    prompt_rates, gen_rates = [], []
    for round_no, wall, prompt_ms, prompt_n, eval_ms, eval_n in rows:
        prompt_rate = prompt_n / (prompt_ms / 1000) if prompt_ms else 0.0
        gen_rate = eval_n / (eval_ms / 1000) if eval_ms else 0.0
        prompt_rates.append(prompt_rate)
        gen_rates.append(gen_rate)
        print(f"{round_no:>5} {wall:>7.2f} {prompt_n:>10} {prompt_rate:>12.1f} {eval_n:>8} {gen_rate:>9.1f}")
    prompt_median, gen_median = statistics.median(prompt_rates), statistics.median(gen_rates)
    print(f"median: prompt {prompt_median:.1f} tok/s, generation {gen_median:.1f} tok/s")


if __name__ == "__main__":
    main()
