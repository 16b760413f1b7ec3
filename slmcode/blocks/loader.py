"""Reading block files: YAML documents -> validated blocks, or a BlockError that names the file, the line,
the field and what was expected."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from slmcode.blocks.schema import API_VERSION, KINDS, MODELS, Block, PipelineBlock
from slmcode.errors import BlockError
from slmcode.store.paths import block_files
from slmcode.store.yamlread import Parsed, parse_file


def _line_of(node: yaml.Node | None, loc: tuple[int | str, ...]) -> int | None:
    """The 1-based line of the deepest node on `loc` (a missing field points at its parent mapping)."""
    if node is None:
        return None
    line = node.start_mark.line + 1
    for part in loc:
        child = None
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if getattr(k, "value", None) == str(part)), None)
            if child is None:  # an unknown key: point at the key itself
                child = next((k for k, _ in node.value if getattr(k, "value", None) == str(part)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            child = node.value[part]
        if child is None:
            break
        node, line = child, child.start_mark.line + 1
    return line


def _expectation(err: dict[str, Any], model_fields: list[str]) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return f"unknown field; expected one of: {', '.join(model_fields)}"
    if kind == "missing":
        return "expected a value (required field)"
    msg = str(err.get("msg", "a valid value"))
    msg = msg.removeprefix("Value error, ").removeprefix("Input should be ")
    given = err.get("input")
    shown = "" if isinstance(given, dict | list) or given is None else f", got {_short(given)}"
    return f"expected {msg}{shown}"


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _where(source: str, line: int | None) -> str:
    return f"{source}:{line}" if line else source


def parse_block(data: Any, node: yaml.Node | None, source: str) -> Block:
    """One YAML document as a block."""
    if not isinstance(data, dict):
        raise BlockError(f"{_where(source, _line_of(node, ()))}: expected a mapping with api_version and kind")
    if data.get("api_version") != API_VERSION:
        line = _line_of(node, ("api_version",))
        raise BlockError(
            f"{_where(source, line)}: field 'api_version': expected '{API_VERSION}', got {data.get('api_version')!r}"
        )
    kind = data.get("kind")
    if kind not in KINDS:
        raise BlockError(
            f"{_where(source, _line_of(node, ('kind',)))}: field 'kind': expected one of "
            f"{' | '.join(KINDS)}, got {kind!r}"
        )
    model = MODELS[kind]
    name = f"{kind} '{data.get('id')}'" if isinstance(data.get("id"), str) else kind
    try:
        block: Block = model.model_validate(data)  # type: ignore[assignment]
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err.get("loc", ()))
        raise BlockError(
            f"{_where(source, _line_of(node, loc))}: {name}: field '{_dotted(loc)}': "
            f"{_expectation(dict(err), list(model.model_fields))}"
        ) from None
    problems = block.reference_errors() if isinstance(block, PipelineBlock) else []
    if problems:
        loc, expected = problems[0]
        raise BlockError(f"{_where(source, _line_of(node, loc))}: {name}: field '{_dotted(loc)}': expected {expected}")
    return block


def _dotted(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(p) for p in loc) or "(block)"


def parsed_blocks(parsed: Parsed) -> list[Block]:
    """A block file as read once (store.yamlread): its blocks, or a BlockError naming the file and the line."""
    if parsed.problem is not None:
        raise BlockError(f"{_where(str(parsed.path), parsed.line)}: {parsed.problem}")
    return [parse_block(data, node, str(parsed.path)) for data, node in parsed.documents if data is not None]


def load_block_file(path: Path) -> list[Block]:
    return parsed_blocks(parse_file(path))


def validate_path(path: Path) -> tuple[int, list[str]]:
    """(blocks that validated, one error line per bad file) for a file or every block file in a folder."""
    files = [path] if path.is_file() else block_files(path)
    if not files:
        raise BlockError(f"{path}: no block files (*.yaml, *.yml) there")
    count, errors = 0, []
    for file in files:
        try:
            count += len(load_block_file(file))
        except BlockError as exc:
            errors.append(str(exc))
    return count, errors
