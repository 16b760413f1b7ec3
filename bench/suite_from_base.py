"""Lay out the eval suite's tasks that share a larger repository (bench/suite_bases/<base>/).

A base is the project in its finished state: every task's reference solution is taken from it. A task names the
files its change touches; its repo/ is the base with those files in their task state (missing, or with the bug),
which are written by hand once and kept: this script never overwrites them, nor the task's own visible check
(TASK_CHECKS). Everything else in repo/ is the
base's copy, so a fix to a base reaches every task that shares it. The suite ships the copies (git stores each
identical file once); this script only keeps them in step.

Usage: python bench/suite_from_base.py [TASK_ID ...]     (default: every task listed below)
A task's changed path written '+path' is a file the change adds: absent from repo/, present in solution/.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
BASES = ROOT / "suite_bases"
SUITE = ROOT.parent / "slmcode" / "eval" / "suite"
LITTER = {"__pycache__", ".pytest_cache", "target", "node_modules", "Cargo.lock"}
# Each task's own visible check (fails before its change, passes after), written by hand in its repo/ and kept.
TASK_CHECKS = {Path("tests/test_task.py"), Path("test/task.test.js"), Path("tests/task.rs")}

# task id -> (base, the files its change touches)
TASKS: dict[str, tuple[str, list[str]]] = {
    "py-stock-stacked-discounts": ("stockroom", ["stockroom/sales/discounts.py"]),
    "py-stock-tax-region-case": ("stockroom", ["stockroom/sales/tax.py"]),
    "py-stock-csv-quoted-names": ("stockroom", ["stockroom/io/csv_import.py"]),
    "py-stock-reorder-on-order": ("stockroom", ["stockroom/inventory/reorder.py"]),
    "py-stock-pounds": ("stockroom", ["stockroom/units.py"]),
    "py-stock-failed-transfer": ("stockroom", ["stockroom/inventory/transfer.py"]),
    "py-stock-sku-lowercase": ("stockroom", ["stockroom/catalog/sku.py"]),
    "py-stock-monthly-sales-tax": ("stockroom", ["stockroom/reports/sales_report.py"]),
    "py-stock-due-dates": (
        "stockroom",
        ["stockroom/sales/customers.py", "stockroom/sales/invoice.py", "stockroom/sales/payments.py"],
    ),
    "py-stock-low-stock-command": ("stockroom", ["stockroom/cli/main.py", "stockroom/cli/commands.py"]),
    "js-rk-trailing-slash": ("routekit", ["src/router/pattern.js"]),
    "js-rk-repeated-query": ("routekit", ["src/url/query.js"]),
    "js-rk-cookie-padding": ("routekit", ["src/http/cookies.js"]),
    "js-rk-accept-weights": ("routekit", ["src/http/negotiate.js"]),
    "js-rk-ratelimit-window": ("routekit", ["src/middleware/ratelimit.js"]),
    "js-rk-encoded-params": ("routekit", ["src/router/router.js"]),
    "js-rk-etag-list": ("routekit", ["src/middleware/etag.js"]),
    "js-rk-head-requests": ("routekit", ["src/router/router.js", "src/app.js"]),
    "js-rk-range-suffix": ("routekit", ["src/http/range.js"]),
    "py-stock-date-slashes": ("stockroom", ["stockroom/io/dates.py"]),
    "py-stock-search-category": ("stockroom", ["stockroom/catalog/search.py"]),
    "py-stock-saved-reorder-settings": ("stockroom", ["stockroom/io/json_store.py"]),
    "rs-tally-leap-century": ("tally", ["src/date.rs"]),
    "rs-tally-split-cents": ("tally", ["src/split.rs"]),
    "rs-tally-refund-sign": ("tally", ["src/money.rs"]),
    "rs-tally-rent-month-end": ("tally", ["src/recurring.rs"]),
    "rs-tally-last-day-of-range": ("tally", ["src/filter.rs"]),
    "rs-tally-tags": ("tally", ["src/entry.rs", "src/parse.rs", "src/filter.rs"]),
    "rs-tally-over-budget": ("tally", ["src/budget.rs"]),
    "py-stock-credit-note-numbers": ("stockroom", ["stockroom/sales/numbering.py"]),
    "js-rk-format-bytes": ("routekit", ["src/util/bytes.js"]),
    "js-rk-basic-auth": ("routekit", ["+src/middleware/basic-auth.js", "src/index.js"]),
}


def base_files(base: Path) -> list[Path]:
    return sorted(
        p.relative_to(base)
        for p in base.rglob("*")
        if p.is_file() and not LITTER.intersection(p.relative_to(base).parts)
    )


def lay_out(task_id: str) -> None:
    base_name, changed = TASKS[task_id]
    base = BASES / base_name
    added = {Path(c[1:]) for c in changed if c.startswith("+")}
    touched = {Path(c.lstrip("+")) for c in changed}
    repo, solution = SUITE / task_id / "repo", SUITE / task_id / "solution"
    for rel in base_files(base):
        if rel in touched:
            target = solution / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(base / rel, target)
            if rel in added or (repo / rel).exists():
                continue  # the task's own state of this file, written by hand
        target = repo / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(base / rel, target)
    for stale in (p for p in repo.rglob("*") if p.is_file()):
        rel = stale.relative_to(repo)
        if rel not in touched and rel not in TASK_CHECKS and not (base / rel).is_file():
            stale.unlink()  # gone from the base


def main(argv: list[str]) -> int:
    for task_id in argv or sorted(TASKS):
        lay_out(task_id)
        print(f"{task_id}: {sum(1 for p in (SUITE / task_id / 'repo').rglob('*') if p.is_file())} files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
