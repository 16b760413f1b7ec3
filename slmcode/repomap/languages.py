"""Which grammar reads which file: extension -> grammar wheel and the tags queries that find definitions.

Each wheel ships its own queries/tags.scm and we use it as is. Our own .scm in ./queries/ only fill a gap:
a language whose wheel ships no tags.scm (Kotlin), or definitions a wheel's tags.scm leaves out that
ctags reports (`<language>-extra.scm`: Java constructors, enums and records; JavaScript private methods,
constructors, module-level and exported objects, function-valued class fields; TypeScript enums and type
aliases; Go interface methods; Rust trait method signatures and associated types). TypeScript's tags.scm
holds only what TypeScript adds to JavaScript, so TypeScript and TSX read JavaScript's tags.scm first, as the
grammar itself extends it; JavaScript alone reads javascript-fields.scm (TypeScript names that node otherwise).
"""

from __future__ import annotations

import importlib
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType

from tree_sitter import Language, Query

OWN_QUERIES = Path(__file__).parent / "queries"


@dataclass(frozen=True)
class LanguageSpec:
    """One language: where its grammar lives and which tags queries it runs, in order."""

    name: str
    extensions: tuple[str, ...]
    module: str  # the grammar wheel's import name
    entry: str  # the function of that module returning the grammar
    wheel_queries: tuple[str, ...]  # import names whose queries/tags.scm apply, in order
    own_queries: tuple[str, ...] = ()  # file names in ./queries/


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec("python", (".py", ".pyi"), "tree_sitter_python", "language", ("tree_sitter_python",)),
    LanguageSpec("go", (".go",), "tree_sitter_go", "language", ("tree_sitter_go",), ("go-extra.scm",)),
    LanguageSpec(
        "javascript",
        (".js", ".jsx", ".mjs", ".cjs"),
        "tree_sitter_javascript",
        "language",
        ("tree_sitter_javascript",),
        ("javascript-extra.scm", "javascript-fields.scm"),
    ),
    LanguageSpec(
        "typescript",
        (".ts", ".mts", ".cts"),
        "tree_sitter_typescript",
        "language_typescript",
        ("tree_sitter_javascript", "tree_sitter_typescript"),
        ("javascript-extra.scm", "typescript-extra.scm"),
    ),
    LanguageSpec(
        "tsx",
        (".tsx",),
        "tree_sitter_typescript",
        "language_tsx",
        ("tree_sitter_javascript", "tree_sitter_typescript"),
        ("javascript-extra.scm", "typescript-extra.scm"),
    ),
    LanguageSpec("rust", (".rs",), "tree_sitter_rust", "language", ("tree_sitter_rust",), ("rust-extra.scm",)),
    LanguageSpec("java", (".java",), "tree_sitter_java", "language", ("tree_sitter_java",), ("java-extra.scm",)),
    LanguageSpec("c", (".c", ".h"), "tree_sitter_c", "language", ("tree_sitter_c",)),
    LanguageSpec(
        "cpp", (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"), "tree_sitter_cpp", "language", ("tree_sitter_cpp",)
    ),
    # The C# wheel installs its queries beside the package, in a folder named with a dash.
    LanguageSpec("csharp", (".cs",), "tree_sitter_c_sharp", "language", ("tree_sitter_c-sharp",)),
    LanguageSpec("ruby", (".rb",), "tree_sitter_ruby", "language", ("tree_sitter_ruby",)),
    LanguageSpec("php", (".php",), "tree_sitter_php", "language_php", ("tree_sitter_php",)),
    LanguageSpec("kotlin", (".kt", ".kts"), "tree_sitter_kotlin", "language", (), ("kotlin.scm",)),
    LanguageSpec("swift", (".swift",), "tree_sitter_swift", "language", ("tree_sitter_swift",)),
)

_BY_EXTENSION: Mapping[str, LanguageSpec] = MappingProxyType(
    {ext: spec for spec in LANGUAGES for ext in spec.extensions}
)


def language_for_path(path: str) -> LanguageSpec | None:
    """The language a file is written in, by its extension; None when no grammar reads it."""
    return _BY_EXTENSION.get(posixpath.splitext(path)[1].lower())


def _wheel_tags(import_name: str) -> str:
    """A wheel's queries/tags.scm, found in site-packages beside the importable package."""
    module_name = import_name.replace("-", "_")
    package_dir = Path(str(resources.files(module_name)))
    return (package_dir.parent / import_name / "queries" / "tags.scm").read_text(encoding="utf-8")


def query_source(spec: LanguageSpec) -> str:
    parts = [_wheel_tags(name) for name in spec.wheel_queries]
    parts += [(OWN_QUERIES / name).read_text(encoding="utf-8") for name in spec.own_queries]
    return "\n".join(parts)


@dataclass(frozen=True)
class Grammar:
    spec: LanguageSpec
    language: Language
    query: Query  # every tags pattern, run once per tree: a pass over the tree costs as much as a third of parsing
    definition_patterns: frozenset[int]  # patterns marking @definition.<kind>: read with their @name
    reference_patterns: frozenset[int]  # the other patterns, marking @reference.<kind>: only their @name counts


def _patterns_marked(query: Query, source: str, marker: str) -> frozenset[int]:
    return frozenset(
        index
        for index in range(query.pattern_count)
        if marker in source[query.start_byte_for_pattern(index) : query.end_byte_for_pattern(index)]
    )


def load_grammar(spec: LanguageSpec) -> Grammar:
    """Load a grammar and compile its tags queries (a few to tens of milliseconds).

    Definitions and references share one query, told apart by pattern: a definition needs its match (which
    name belongs to which node), a reference only its @name, so its @reference.<kind> node is not captured.
    """
    module = importlib.import_module(spec.module)
    language = Language(getattr(module, spec.entry)())
    source = query_source(spec)
    query = Query(language, source)
    definitions = _patterns_marked(query, source, "@definition.")
    references = _patterns_marked(query, source, "@reference.") - definitions  # a definition's name is no use
    for index in range(query.pattern_count):
        if index not in definitions and index not in references:
            query.disable_pattern(index)
    for index in range(query.capture_count):
        if (name := query.capture_name(index)).startswith("reference."):
            query.disable_capture(name)
    return Grammar(spec, language, query, definitions, references)
