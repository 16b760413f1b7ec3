"""The fixed part of each role's first request, against the window (its target: TARGET_PERCENT).

The fixed part is what a role's first request carries before any task text: its system prompt, the tool
contract and tool schemas (tool-using roles: the tools `opening_room` fits, as `slmcode budget` shows), and the
repo map's stable section as build_pack sizes it for the role's pack. Counted with the project's counter
(budget/tokens.default_counter, cl100k) on examples/calculator, at context_limit 4,096 / 8,192 / 32,768.

An ask_role role's fixed part also holds its answer schema's message (ask_structured appends it to every
request). Not counted (each differs per call): the task map (it follows the query), the instruction ask_role
sends (plan, task, evidence), and the chat template's own tokens beyond the tool preamble schema_tokens adds.

    .venv/bin/python bench/fixed_prompt.py [--out docs/bench/fixed_prompt.txt]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from slmcode.budget.compute import compute_budget
from slmcode.budget.tokens import count_tokens
from slmcode.compact.toolfit import FittedTools, fit_tools
from slmcode.nodes.llm import REASK_ALLOWANCE
from slmcode.nodes.prompts import SYSTEM, TOOL_CONTRACT
from slmcode.nodes.schemas import Clarification, Escalation, Lessons, Plan, Review, Scope, Split
from slmcode.nodes.solo import role_tools
from slmcode.packs.builder import build_pack, load_repo_index
from slmcode.packs.skills import discover_skills
from slmcode.providers.prompts import SCHEMA_INSTRUCTION
from slmcode.providers.structured import answer_schema_text
from slmcode.settings import Settings
from slmcode.tools.context import ToolContext
from slmcode.tools.registry import TOOL_ROLES
from slmcode.tools.toolset import make_tools

ROOT = Path(__file__).resolve().parent.parent
WORKSPACE = ROOT / "examples" / "calculator"
WINDOWS = (4096, 8192, 32768)
# The answer schema each ask_role role is asked for (nodes/<role>.py); "context" is a custom phase's slot: none.
ANSWER_SCHEMAS = {
    "clarify": Clarification,
    "scope_judge": Scope,
    "planner": Plan,
    "splitter": Split,
    "reviewer": Review,
    "escalate": Escalation,
    "learn": Lessons,
}
TARGET_PERCENT = 35  # a compact tool contract keeps the fixed part <= 35% of a 4,096 window


def offered_tools(settings: Settings, role: str) -> FittedTools:
    """The tools `role`'s first request offers, as nodes.worker.toolset.request_tools fits them (no agent
    block, no MCP). compact.toolfit.opening_room (`slmcode budget`) is the same less role_tools: it offers
    the explorer all."""
    skills = {s.name: s.body for s in discover_skills(WORKSPACE)}
    ctx = ToolContext(workspace=WORKSPACE, settings=settings, skills=skills.get if skills else None)
    return fit_tools(settings, compute_budget(settings, role), role_tools(role, make_tools(ctx)))


def fixed_part(role: str, window: int) -> dict[str, int | str]:
    """The fixed sections of `role`'s first pack on a `window`-token model, as a run sizes them."""
    settings = Settings(context_limit=window)
    contract, schemas, dropped = "", 0, ""
    if role in TOOL_ROLES:
        fitted = offered_tools(settings, role)
        budget_tokens, schemas = fitted.room.pack, fitted.schema_tokens
        contract, dropped = TOOL_CONTRACT, ",".join(fitted.dropped)
    else:  # ask_structured appends the schema message; ask_role's pack gets what schema and re-ask leave
        budget = compute_budget(settings, role)
        schema = ANSWER_SCHEMAS.get(role)
        schema_json = answer_schema_text(schema) if schema else ""
        schemas = count_tokens(SCHEMA_INSTRUCTION.format(schema=schema_json)) if schema else 0
        extra = count_tokens(schema_json) + REASK_ALLOWANCE if schema else 0
        budget_tokens = min(budget.available, budget.prompt_limit - extra)  # less the instruction: per call
    index, _ = load_repo_index(WORKSPACE, settings)
    pack = build_pack(
        role,
        settings=settings,
        workspace=WORKSPACE,
        query="",
        system_prompt=SYSTEM[role],
        tool_contract=contract,
        index=index,
        budget_tokens=budget_tokens,
    )
    sections = {name: tokens for name, tokens, _ in pack.sections}
    row: dict[str, int | str] = {
        "system": sections.get("system", 0),
        "contract": sections.get("tools", 0),
        "schemas": schemas,
        "map": sections.get("map", 0),
        "instructions": sections.get("instructions", 0),
        "pack": budget_tokens,
        "dropped": dropped,
    }
    row["fixed"] = sum(int(row[k]) for k in ("system", "contract", "schemas", "map"))
    return row


def table() -> list[str]:
    head = (
        f"{'role':<12}{'system':>7}{'contract':>9}{'schemas':>8}  {'map 4K/8K/32K':<15}"
        f"{'fixed 4K/8K/32K':<18}{'% of 4K/8K/32K':<17}{'instr':>5}  tools dropped at 4K"
    )
    lines = [head, "-" * len(head)]
    over: list[str] = []
    for role in SYSTEM:
        rows = [fixed_part(role, w) for w in WINDOWS]
        shares = [100 * int(r["fixed"]) / w for r, w in zip(rows, WINDOWS, strict=True)]
        first = rows[0]
        maps = "/".join(str(r["map"]) for r in rows)
        fixed = "/".join(str(r["fixed"]) for r in rows)
        pct = "/".join(f"{s:.1f}" for s in shares)
        schemas = first["schemas"] or "-"
        lines.append(
            f"{role:<12}{first['system']:>7}{first['contract']:>9}{schemas:>8}  {maps:<15}{fixed:<18}"
            f"{pct:<17}{first['instructions']:>5}  {first['dropped'] or '-'}"
        )
        if any(int(r["schemas"]) != int(first["schemas"]) for r in rows):
            lines.append(f"{'':<12}  (schemas at 4K/8K/32K: {'/'.join(str(r['schemas']) for r in rows)})")
        if shares[0] > TARGET_PERCENT:
            over.append(role)
    lines += ["", f"over {TARGET_PERCENT}% of a 4,096 window: {', '.join(over) or 'none'}"]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the output here, with the command and load")
    args = parser.parse_args()
    load = "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} cores)"
    command = "$ .venv/bin/python bench/fixed_prompt.py" + (f" --out {args.out}" if args.out else "")
    notes = [
        f"workspace: {WORKSPACE.relative_to(ROOT)}; tokens: cl100k (budget/tokens.default_counter); "
        "Settings(context_limit=N), other settings default",
        "contract: the tool contract text in the pack; schemas: for tool-using roles the tool schemas' JSON plus "
        "the chat template's tool preamble (budget/room.schema_tokens), for ask_role roles the answer schema's "
        "message (providers/structured.ask_structured; json_schema mode also sends it as response_format)",
        "map: the stable repo map as build_pack sizes it for the role's pack; the task map is not fixed (query)",
        "instr: the workspace's AGENTS.md in the pack at 4K (the project's text, not slmcode's: not in fixed)",
        "qa calls no model (it runs the project's commands): no row",
        "not counted (differs per call): the task map, an ask_role request's instruction (plan, task, evidence)",
    ]
    out = [command, load, *notes, "", *table()]
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
