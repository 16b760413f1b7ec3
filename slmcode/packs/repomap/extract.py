"""One file's source -> FileSymbols: definitions from the grammar's tags queries, references from its text.

A tags query marks a definition with @definition.<kind> and its name with @name. The node it marks is not
always the definition's full extent (C marks the declarator, Swift marks a method's whole class), so the
range comes from the declaration that owns the name. References are the names the query's @reference
patterns mark (calls, types, `new`), counted, as in aider; for a grammar whose queries mark none (C, C++,
Kotlin) every identifier the file spells counts, less the spelling at each of its own definitions.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from tree_sitter import Node, Parser, QueryCursor

from slmcode.packs.repomap.languages import Grammar, language_for_path, load_grammar
from slmcode.packs.repomap.model import FileSymbols, Symbol

IDENTIFIER = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
SIGNATURE_MAX_CHARS = 200
# A node of one of these types owns the name it contains: its extent is the definition's range.
_DECLARATION_SUFFIXES = ("_declaration", "_definition", "_item", "_specifier", "_signature", "_spec")
_DECLARATION_TYPES = frozenset({"method", "singleton_method", "class", "module", "singleton_class", "alias"})
# C and C++ mark the declarator; its definition is the enclosing function or declaration.
_DECLARATOR_OWNERS = frozenset({"function_definition", "declaration", "field_declaration", "template_declaration"})
_CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "trait", "object"})
# Go's tags.scm calls every type_spec a type; what it declares says more.
_TYPE_BODIES = {"struct_type": "struct", "interface_type": "interface"}


class ParseFailure(Exception):
    """The grammar could not make sense of a file; the build counts it and goes on."""


@dataclass(frozen=True)
class _Found:
    name: str
    kind: str
    node: Node
    name_node: Node
    pattern: int


def _owner(name_node: Node, marked: Node) -> Node:
    """The declaration a definition's name belongs to, searching from the name up to the marked node."""
    node = name_node.parent
    while node is not None and node.id != marked.id:
        if node.type in _DECLARATION_TYPES or node.type.endswith(_DECLARATION_SUFFIXES):
            return node
        node = node.parent
    node = marked
    while node.type.endswith("declarator") and node.parent is not None:
        node = node.parent
    return node if node.type in _DECLARATOR_OWNERS else marked


def _in_module_body(node: Node) -> bool:
    """Rust's tags.scm calls every function in a declaration_list a method, but a `mod { }` body is one too."""
    body = node.parent
    return body is not None and body.type == "declaration_list" and getattr(body.parent, "type", "") == "mod_item"


def _definitions(grammar: Grammar, root: Node) -> list[_Found]:
    """Definitions, one per name node, in name order."""
    by_name_node: dict[tuple[int, int], _Found] = {}
    for pattern, captures in QueryCursor(grammar.definitions).matches(root):
        names = captures.get("name", ())
        for capture, nodes in captures.items():
            if not capture.startswith("definition."):
                continue
            kind = capture.removeprefix("definition.")
            for marked in nodes:
                for name_node in names:
                    key = (name_node.start_byte, name_node.end_byte)
                    seen = by_name_node.get(key)
                    # Queries often match one name twice (Rust: method and function); the earlier pattern is
                    # the more specific one, as in tree-sitter's own tags tool.
                    if seen is None or pattern < seen.pattern:
                        text = (name_node.text or b"").decode("utf-8", "replace")
                        owner = _owner(name_node, marked)
                        kind_here = "function" if kind == "method" and _in_module_body(owner) else kind
                        body = owner.child_by_field_name("type") if kind_here == "type" else None
                        refined = _TYPE_BODIES.get(body.type, kind_here) if body is not None else kind_here
                        by_name_node[key] = _Found(text, refined, owner, name_node, pattern)
    return [by_name_node[key] for key in sorted(by_name_node)]


def _references(grammar: Grammar, root: Node, source: bytes, found: list[_Found]) -> Counter[bytes]:
    """Names the reference patterns mark, counted; without such patterns, every identifier the file spells
    less the spelling at each of its own definitions."""
    if grammar.references is not None:
        names = QueryCursor(grammar.references).captures(root).get("name", [])
        return Counter(n.text or b"" for n in names)
    counts = Counter(IDENTIFIER.findall(source))
    counts.subtract(f.name.encode() for f in found)
    return +counts  # drops the names only spelled where they are defined


def _refine_methods(found: list[_Found]) -> list[str]:
    """A function whose innermost enclosing definition is a class is a method (Python, Kotlin, PHP...)."""
    kinds = [f.kind for f in found]
    open_defs: list[int] = []  # a stack of indexes into found, sorted by start: the enclosing chain
    for i, f in enumerate(found):
        while open_defs and found[open_defs[-1]].node.end_byte < f.node.end_byte:
            open_defs.pop()
        if f.kind == "function" and open_defs and kinds[open_defs[-1]] in _CLASS_KINDS:
            kinds[i] = "method"
        open_defs.append(i)
    return kinds


def _last_line(node: Node) -> int:
    """1-based last line; a node ending at column 0 ends on the line before (its newline)."""
    row, column = node.end_point
    return row if column == 0 and row > node.start_point[0] else row + 1


def _signature(lines: list[bytes], row: int) -> str:
    line = lines[row] if row < len(lines) else b""
    return line.decode("utf-8", "replace").rstrip()[:SIGNATURE_MAX_CHARS]


def _sorted_counts(counts: Counter[bytes]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    names = sorted(n for n in counts if n)
    return tuple(n.decode("utf-8", "replace") for n in names), tuple(counts[n] for n in names)


def extract_symbols(path: str, source: bytes, grammar: Grammar, parser: Parser) -> FileSymbols:
    """Parse one file. Raises ParseFailure when the tree is mostly error (a file, not a program)."""
    tree = parser.parse(source)
    root = tree.root_node
    if root.has_error and _mostly_error(root):
        raise ParseFailure(f"{path}: {grammar.spec.name} grammar cannot parse it")
    found = sorted(_definitions(grammar, root), key=lambda f: (f.node.start_byte, -f.node.end_byte))
    references = _references(grammar, root, source, found)
    kinds = _refine_methods(found)
    lines = source.split(b"\n")
    definitions = tuple(
        Symbol(
            path=path,
            name=f.name,
            kind=kind,
            start=f.node.start_point[0] + 1,
            end=_last_line(f.node),
            signature=_signature(lines, f.name_node.start_point[0]),
        )
        for f, kind in zip(found, kinds, strict=True)
    )
    names, counts = _sorted_counts(references)
    return FileSymbols(
        path=path, language=grammar.spec.name, definitions=definitions, references=names, reference_counts=counts
    )


def _mostly_error(root: Node) -> bool:
    """True when error nodes cover more than half of the file's top-level extent."""
    if root.is_error:
        return True
    total = max(root.end_byte - root.start_byte, 1)
    broken = sum(c.end_byte - c.start_byte for c in root.children if c.is_error)
    return broken * 2 > total


class Extractor:
    """Parsers and compiled queries for one build, loaded on first use of each language."""

    def __init__(self) -> None:
        self._grammars: dict[str, tuple[Grammar, Parser]] = {}

    def extract(self, path: str, source: bytes) -> FileSymbols:
        spec = language_for_path(path)
        if spec is None:
            raise ParseFailure(f"{path}: no grammar reads this file")
        if spec.name not in self._grammars:
            grammar = load_grammar(spec)
            self._grammars[spec.name] = (grammar, Parser(grammar.language))
        grammar, parser = self._grammars[spec.name]
        return extract_symbols(path, source, grammar, parser)
