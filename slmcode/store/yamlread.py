"""One parser, one reading: every YAML file slmcode decides from is parsed here.

libyaml (CSafeLoader) and pure-Python PyYAML accept different texts (a reserved directive, a tab after a colon,
a lone surrogate escape, a BOM inside the stream). Read by one for trust and by the other for settings, a text
only one of them accepts looked harmless to trust while the loader applied it. So every settings and block file
is parsed by PyYAML's own SafeLoader, the same on every install (libyaml is optional), and a workspace's own
files are read once into `WorkspaceFiles`: trust and the loaders decide from that one reading. A file that
cannot be read or parsed says why (`Parsed.problem`), and trust counts it as something to trust, never as empty.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from slmcode.store.paths import BLOCKS_DIR, CONFIG_FILE, block_files, state_dir

MAX_DEPTH = 64  # settings and blocks nest a few levels; a deeper text is refused before Python's stack runs out


class _Parser(yaml.SafeLoader):
    """PyYAML's SafeLoader, refusing a text nested deeper than MAX_DEPTH: its composer recurses per level, and
    its scanner takes time quadratic in the depth of `[` and `{`."""

    depth = 0

    def fetch_flow_sequence_start(self) -> None:
        self._flow_deeper()
        super().fetch_flow_sequence_start()

    def fetch_flow_mapping_start(self) -> None:
        self._flow_deeper()
        super().fetch_flow_mapping_start()

    def _flow_deeper(self) -> None:
        if self.flow_level >= MAX_DEPTH:
            raise YamlProblem(self.line + 1, f"nested deeper than {MAX_DEPTH} levels")

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise YamlProblem(mark.line + 1, f"nested deeper than {MAX_DEPTH} levels")
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        finally:
            self.depth -= 1


PARSER = _Parser
Document = tuple[Any, yaml.Node | None]  # the data and its node (for line numbers)


class YamlProblem(Exception):
    """A text that is not YAML this parser reads: the 1-based line when known, and what is wrong."""

    def __init__(self, line: int | None, reason: str) -> None:
        super().__init__(reason)
        self.line, self.reason = line, reason


def parse_documents(text: str) -> list[Document]:
    """Every document of `text` with its node; YamlProblem when the text cannot be parsed (any way: a deeply
    nested text or an impossible date is a problem of the file, not a crash)."""
    loader = None
    try:
        loader = PARSER(text)  # refuses a text with special characters here already
        found = []
        while loader.check_node():
            node = loader.get_node()
            found.append((loader.construct_document(node), node))
        return found
    except YamlProblem:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise YamlProblem(mark.line + 1 if mark else None, _reason(exc)) from None
    except RecursionError:
        raise YamlProblem(None, "nested too deeply") from None
    except (ValueError, OverflowError, TypeError) as exc:
        raise YamlProblem(None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    finally:
        if loader is not None:
            loader.dispose()


def _reason(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.reader.ReaderError):
        return f"character #x{exc.character:04x} is not allowed" if isinstance(exc.character, int) else exc.reason
    return getattr(exc, "problem", None) or "not valid YAML"


@dataclass(frozen=True)
class Parsed:
    """One file as read once: its documents, or why it has none (`problem`: cannot read, not UTF-8, broken YAML)."""

    path: Path
    documents: tuple[Document, ...]
    digest: str  # of its bytes: a file that cannot be parsed is still told apart from another
    problem: str | None = None
    line: int | None = None  # where the problem is, when known


_KEPT: dict[str, tuple[tuple[int, ...], Parsed]] = {}


def parse_file(path: Path) -> Parsed:
    """`path` as read and parsed, read again only when the file changed: a command loads its settings and blocks
    several times, and each decision gets the same parse. The change is told by the inode, size and both times
    (the kernel sets ctime on every write)."""
    try:
        stat = path.stat()
    except OSError as exc:
        return Parsed(path, (), "", f"cannot read ({exc.strerror})")
    key = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    kept = _KEPT.get(str(path))
    if kept is None or kept[0] != key:
        kept = _KEPT[str(path)] = (key, _read(path))
    return kept[1]


def _read(path: Path) -> Parsed:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Parsed(path, (), "", f"cannot read ({exc.strerror})")
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        byte = f"byte 0x{data[exc.start]:02x}"
        return Parsed(path, (), digest, f"line {line}: {byte} is not UTF-8 (save the file as UTF-8)")
    try:
        return Parsed(path, tuple(parse_documents(text)), digest)
    except YamlProblem as exc:
        return Parsed(path, (), digest, f"broken YAML ({exc.reason})", exc.line)


def config_mapping(parsed: Parsed) -> dict[str, Any] | str:
    """A settings file's one mapping ({} when empty), or the reason it is not one."""
    if parsed.problem is not None:
        return parsed.problem
    data = [d for d, _ in parsed.documents]
    if len(data) > 1:
        return "broken YAML (expected a single document in the stream)"
    if not data or data[0] is None:
        return {}
    if not isinstance(data[0], dict):
        return f"expected a mapping of settings at the top level, got {type(data[0]).__name__}"
    return data[0]


@dataclass(frozen=True)
class WorkspaceFiles:
    """A workspace's own config.yaml (None when there is none) and block files, each read and parsed once."""

    state: Path  # the workspace's .slmcode
    config: Parsed | None
    blocks: tuple[Parsed, ...]


def read_workspace(workspace: Path | str) -> WorkspaceFiles:
    state = state_dir(workspace)
    config_path = state / CONFIG_FILE
    config = parse_file(config_path) if config_path.is_file() or config_path.is_symlink() else None
    return WorkspaceFiles(state, config, tuple(parse_file(p) for p in block_files(state / BLOCKS_DIR)))
