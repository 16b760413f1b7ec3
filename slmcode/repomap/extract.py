"""One file's source -> its symbols: definitions from the grammar's tags queries, references from its text.

A tags query marks a definition with @definition.<kind> and its name with @name. The node it marks is not
always the definition's full extent (C marks the declarator, Swift marks a method's whole class), so the
range comes from the declaration that owns the name. References are the names the query's @reference
patterns mark (calls, types, `new`), counted, as in aider; for a grammar whose queries mark none (C, C++,
Kotlin) every identifier the file spells counts, less the spelling at each of its own definitions.
"""

from __future__ import annotations

import re
from collections import Counter
from operator import attrgetter
from typing import NamedTuple

from tree_sitter import Node, Parser, QueryCursor

from slmcode.repomap.cache import decode_symbols, encode_payload
from slmcode.repomap.languages import Grammar, LanguageSpec, language_for_path, load_grammar
from slmcode.repomap.model import FileSymbols

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
_TEXT = attrgetter("text")


class ParseFailure(Exception):
    """The grammar could not make sense of a file; the build counts it and goes on."""


class _Found(NamedTuple):  # a tuple: tens of thousands are made per build
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


def _scan(grammar: Grammar, root: Node) -> tuple[list[_Found], list[Node]]:
    """Definitions, one per name node in name order, and the name nodes the reference patterns mark, from
    one pass of the query over the tree."""
    by_name_node: dict[tuple[int, int], _Found] = {}
    referenced: list[Node] = []
    reference_patterns = grammar.reference_patterns
    for pattern, captures in QueryCursor(grammar.query).matches(root):
        names = captures.get("name", ())
        if pattern in reference_patterns:  # most matches: calls
            referenced += names
            continue
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
    return [by_name_node[key] for key in sorted(by_name_node)], referenced


def _references(grammar: Grammar, referenced: list[Node], source: bytes, found: list[_Found]) -> Counter[bytes]:
    """Names the reference patterns mark, counted; without such patterns, every identifier the file spells
    less the spelling at each of its own definitions."""
    if len(grammar.reference_patterns) > 1:
        # A pattern captures a node once, but two may both capture it (TypeScript runs JavaScript's
        # `new` pattern and its own): count each spelling in the file once.
        referenced = list({(n.start_byte, n.end_byte): n for n in referenced}.values())
    if grammar.reference_patterns:
        return Counter(map(_TEXT, referenced))  # a None (no text) is dropped with the empty names
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


def _signature(source: bytes, at: int) -> str:
    """The line holding byte `at`, as written."""
    start = source.rfind(b"\n", 0, at) + 1
    end = source.find(b"\n", at)
    line = source[start : end if end >= 0 else len(source)]
    return line.decode("utf-8", "replace").rstrip()[:SIGNATURE_MAX_CHARS]


def _sorted_counts(counts: Counter[bytes]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    names = sorted(n for n in counts if n)
    return tuple(n.decode("utf-8", "replace") for n in names), tuple(counts[n] for n in names)


def extract_payload(path: str, source: bytes, grammar: Grammar, parser: Parser) -> tuple[str, str]:
    """Parse one file into its cache texts, definitions and names (the form a parse worker sends back).

    Raises ParseFailure when the tree is mostly error (a file, not a program)."""
    tree = parser.parse(source)
    root = tree.root_node
    if root.has_error and _mostly_error(root):
        raise ParseFailure(f"{path}: {grammar.spec.name} grammar cannot parse it")
    found, referenced = _scan(grammar, root)
    found.sort(key=lambda f: (f.node.start_byte, -f.node.end_byte))
    references = _references(grammar, referenced, source, found)
    definitions = [
        (f.name, kind, f.node.start_point[0] + 1, _last_line(f.node), _signature(source, f.name_node.start_byte))
        for f, kind in zip(found, _refine_methods(found), strict=True)
    ]
    names, counts = _sorted_counts(references)
    return encode_payload(grammar.spec.name, definitions, names, counts)


def _mostly_error(root: Node) -> bool:
    """True when error nodes cover more than half of the file's top-level extent."""
    if root.is_error:
        return True
    total = max(root.end_byte - root.start_byte, 1)
    broken = sum(c.end_byte - c.start_byte for c in root.children if c.is_error)
    return broken * 2 > total


class Extractor:
    """Parsers and compiled queries for one build (or one parse worker), loaded on first use of each
    language: compiling a language's queries takes from a few milliseconds (Python) to a quarter second
    (Swift)."""

    def __init__(self) -> None:
        self._grammars: dict[str, tuple[Grammar, Parser]] = {}

    def _grammar(self, spec: LanguageSpec) -> tuple[Grammar, Parser]:
        if spec.name not in self._grammars:
            grammar = load_grammar(spec)
            self._grammars[spec.name] = (grammar, Parser(grammar.language))
        return self._grammars[spec.name]

    def payload(self, path: str, source: bytes) -> tuple[str, str]:
        """The file's symbols in the cache's encoding; ParseFailure when no grammar can read it."""
        spec = language_for_path(path)
        if spec is None:
            raise ParseFailure(f"{path}: no grammar reads this file")
        return extract_payload(path, source, *self._grammar(spec))

    def extract(self, path: str, source: bytes) -> FileSymbols:
        return decode_symbols(path, *self.payload(path, source))
