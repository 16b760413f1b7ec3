"""Commands about what the project knows: init and the building blocks, context, memory, sessions, skills."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from slmcode.commands.common import (
    JsonOpt,
    WorkspaceOpt,
    console,
    err_console,
    print_json,
    warn_untrusted,
)
from slmcode.errors import SlmcodeError

app = typer.Typer()


blocks_app = typer.Typer(
    help="YAML building blocks: pipelines, agents, quality commands, language packs.", no_args_is_help=True
)
session_app = typer.Typer(help="Session snapshots of earlier runs.", no_args_is_help=True)
skills_app = typer.Typer(help="Skills: project and learned SKILL.md files.", no_args_is_help=True)
app.add_typer(blocks_app, name="blocks")
app.add_typer(session_app, name="session")
app.add_typer(skills_app, name="skills")
BlockIdArg = Annotated[str, typer.Argument(help="ID or KIND/ID.")]


@app.command()
def init(
    workspace: WorkspaceOpt = Path("."),
    pack_id: Annotated[str | None, typer.Option("--pack", help="Use this pack instead of detecting one.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Choose the language pack (detected, or --pack), write it to .slmcode/config.yaml and say why."""
    from slmcode.blocks.setup import init_workspace

    result = init_workspace(workspace, pack_id)
    if as_json:
        print_json({"pack": result.pack, "reasons": result.reasons, "config": str(result.config_path)})
        return
    was = f" (was {result.previous})" if result.previous and result.previous != result.pack else ""
    console.print(f"language_pack: [bold]{result.pack or 'none'}[/bold]{was} -> {result.config_path}")
    console.print("\n".join(f"  {line}" for line in result.reasons), highlight=False)


@blocks_app.command("list")
def blocks_list(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Every visible block, with the layer it comes from (project > user > SLMCODE_BLOCKS_PATH > built-in)."""
    from slmcode.blocks.discovery import discover_blocks

    catalog = discover_blocks(workspace)
    if catalog.ignored:  # hidden until the user trusts the workspace: say so rather than list them as absent
        warn_untrusted(workspace, list(catalog.ignored))
    rows = [(ref, b.layer, str(b.path), b.block.description) for ref, b in catalog.blocks.items()]
    if as_json:
        print_json([dict(zip(("ref", "layer", "path", "description"), row, strict=True)) for row in rows])
        return
    table = Table("block", "layer", "description")
    for ref, layer, _, description in rows:
        table.add_row(ref, layer, description)
    console.print(table)


@blocks_app.command("show")
def blocks_show(block_id: BlockIdArg, workspace: WorkspaceOpt = Path(".")) -> None:
    """Print a block as YAML, with the file it comes from and the files it hides."""
    from slmcode.blocks.discovery import discover_blocks
    from slmcode.blocks.setup import block_yaml

    matches = discover_blocks(workspace).find(block_id)
    if not matches:
        raise SlmcodeError(f"no block '{block_id}' (`slmcode blocks list` shows them)")
    for sourced in matches:
        hides = "".join(f"\n# hides {p}" for p in sourced.hides)
        sys.stdout.write(f"# {sourced.block.ref} from {sourced.layer} {sourced.path}{hides}\n")
        sys.stdout.write(block_yaml(sourced.block) + ("---\n" if sourced is not matches[-1] else ""))


@blocks_app.command("apply")
def blocks_apply(block_id: BlockIdArg, workspace: WorkspaceOpt = Path(".")) -> None:
    """Copy a block into .slmcode/blocks/ to edit it there; a pack also becomes the language_pack."""
    from slmcode.blocks.setup import apply_block

    console.print("\n".join(apply_block(workspace, block_id)), highlight=False)


@blocks_app.command("validate")
def blocks_validate(
    path: Annotated[Path | None, typer.Argument(help="A block file or folder; every layer when omitted.")] = None,
    workspace: WorkspaceOpt = Path("."),
) -> None:
    """Check block files against the blocks/v1 schema; exit 2 with one line per bad file."""
    from slmcode.blocks.loader import validate_path
    from slmcode.blocks.setup import validate_layers

    count, errors = validate_path(path) if path is not None else validate_layers(workspace)
    for error in errors:
        err_console.print(f"[red]error:[/red] {error}", highlight=False, soft_wrap=True)
    if errors:
        raise typer.Exit(2)
    console.print(f"{count} blocks valid")


@app.command()
def context(
    workspace: WorkspaceOpt = Path("."),
    query: Annotated[str | None, typer.Option("--query", help="Also show the explore-or-reuse decision.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print CONTEXT.md: the areas earlier runs touched and what each run did."""
    from slmcode.memory.flywheel import read_memory
    from slmcode.memory.reuse import decide_explore

    snapshot = read_memory(workspace)
    decision = decide_explore(workspace, query) if query is not None else None
    if as_json:
        explore = {"explore": decision.explore, "reasons": decision.reasons} if decision else None
        print_json({"touched": snapshot.touched, "recent_runs": snapshot.recent_runs, "decision": explore})
        return
    sys.stdout.write(snapshot.context_text or "No CONTEXT.md yet: no run has finished here.\n")
    if decision:
        console.print(
            f"\n{'explore' if decision.explore else 'reuse'}: " + "; ".join(decision.reasons), highlight=False
        )


@app.command()
def memory(
    action: Annotated[str | None, typer.Argument(help="drop: forget one lesson.")] = None,
    lesson: Annotated[str | None, typer.Argument(help="The id of the lesson to drop, as listed.")] = None,
    workspace: WorkspaceOpt = Path("."),
    as_json: JsonOpt = False,
) -> None:
    """List the lessons earlier runs learned (MEMORY.md), each with its id; `memory drop ID` forgets one."""
    from slmcode.memory.flywheel import forget_lesson, read_memory
    from slmcode.memory.lessons import lesson_id

    if action is not None:
        if action != "drop" or not lesson:
            raise SlmcodeError("usage: slmcode memory [drop ID]  (the ids are in `slmcode memory`)")
        dropped = forget_lesson(workspace, lesson)
        if dropped is None:
            raise SlmcodeError(f"no single lesson has id {lesson}: `slmcode memory` lists them")
        console.print(f"dropped {lesson_id(dropped)}: {dropped}", highlight=False, markup=False)
        return
    snapshot = read_memory(workspace)
    rows = [{"id": lesson_id(text), "lesson": text} for text in snapshot.lessons]
    if as_json:
        print_json({"lessons": rows, "skills": [s.name for s in snapshot.skills]})
        return
    if not rows:
        sys.stdout.write("No lessons yet: a run writes them only when its work was verified.\n")
        return
    table = Table("id", "lesson", title=".slmcode/MEMORY.md")
    for row in rows:
        table.add_row(row["id"], row["lesson"])
    console.print(table, highlight=False)


@session_app.command("list")
def session_list(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Session snapshots, newest first."""
    from slmcode.store.sessions import list_sessions

    sessions = list_sessions(workspace)
    if as_json:
        print_json([s.model_dump(mode="json") for s in sessions])
        return
    table = Table("run id", "when", "task", "summary")
    for s in sessions:
        table.add_row(s.run_id, s.created_at.strftime("%Y-%m-%d %H:%M"), s.query[:50], s.summary[:50])
    console.print(table if sessions else "No sessions yet.")


@session_app.command("show")
def session_show(
    session_id: Annotated[str, typer.Argument(help="Run id or a unique prefix.")], workspace: WorkspaceOpt = Path(".")
) -> None:
    """One snapshot in full (resume the run with `slmcode resume THREAD_ID`)."""
    from slmcode.store.sessions import show_session

    print_json(show_session(workspace, session_id).model_dump(mode="json"))


@skills_app.command("list")
def skills_list(workspace: WorkspaceOpt = Path("."), as_json: JsonOpt = False) -> None:
    """Project and learned skills (.slmcode/skills/, .slmcode/skills/learned/)."""
    from slmcode.packs.skills import discover_skills

    skills = discover_skills(workspace)
    if as_json:
        print_json(
            [{"name": s.name, "description": s.description, "path": s.path, "learned": s.learned} for s in skills]
        )
        return
    table = Table("skill", "learned", "description")
    for s in skills:
        table.add_row(s.name, "yes" if s.learned else "", s.description)
    console.print(table if skills else "No skills yet.")


@skills_app.command("show")
def skills_show(name: Annotated[str, typer.Argument(help="Skill name.")], workspace: WorkspaceOpt = Path(".")) -> None:
    """A skill's description and full body."""
    from slmcode.packs.skills import discover_skills, find_skill

    skill = find_skill(discover_skills(workspace), name)
    if skill is None:
        raise SlmcodeError(f"no skill '{name}' (`slmcode skills list` shows them)")
    sys.stdout.write(f"# {skill.name}  ({skill.path})\n{skill.description}\n\n{skill.body.strip()}\n")
