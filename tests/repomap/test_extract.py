"""Definitions per language, with the line ranges and signature lines a model will be shown."""

from __future__ import annotations

import pytest

from slmcode.repomap.extract import Extractor, ParseFailure
from tests.repomap.fixtures import SOURCES


def definitions(path: str) -> list[tuple[str, str, int, int]]:
    symbols = Extractor().extract(path, SOURCES[path].encode())
    return [(s.name, s.kind, s.start, s.end) for s in symbols.definitions]


def test_python_classes_methods_functions_and_constants() -> None:
    assert definitions("store.py") == [
        ("LIMIT", "constant", 3, 3),
        ("Store", "class", 6, 14),
        ("put", "method", 9, 10),
        ("size", "method", 13, 14),
        ("load_store", "function", 17, 20),
        ("helper", "function", 18, 19),  # nested in a function, not a class: stays a function
    ]


def test_go_structs_interfaces_methods_functions() -> None:
    assert definitions("store.go") == [
        ("Store", "struct", 3, 5),
        ("Reader", "interface", 7, 9),
        ("Get", "method", 8, 8),  # an interface's method, from our go-extra.scm
        ("Put", "method", 11, 13),
        ("NewStore", "function", 15, 17),
    ]


def test_javascript_classes_methods_and_arrow_functions() -> None:
    assert definitions("store.js") == [
        ("Store", "class", 1, 9),
        ("constructor", "method", 2, 4),  # from our javascript-extra.scm, as ctags lists it
        ("put", "method", 6, 8),
        ("loadStore", "function", 11, 13),
        ("makeKey", "function", 15, 15),
    ]


def test_javascript_module_level_objects_and_their_entries_but_no_local_ones() -> None:
    source = (
        "const LEVELS = {\n  warn: { color: 'yellow' },\n  quiet: true,\n}\n\n"
        "export const DEFAULTS = { retries: 3 }\n\n"
        "function report() {\n  const body = { ok: true }\n  return body\n}\n"
    )
    symbols = Extractor().extract("levels.mjs", source.encode())
    assert [(s.name, s.kind, s.start, s.end) for s in symbols.definitions] == [
        ("LEVELS", "object", 1, 4),
        ("warn", "object", 2, 2),
        ("DEFAULTS", "object", 6, 6),
        ("report", "function", 8, 11),
    ]


@pytest.mark.parametrize("path", ["panel.js", "panel.ts"])
def test_javascript_exported_tables_and_function_fields_but_no_foreign_or_local_objects(path: str) -> None:
    source = (
        "class Panel {\n  onClick = () => { this.n++ }\n  count = 0\n  get size() { return 1 }\n}\n"
        "Panel.prototype.render = function () {}\n"
        "exports.parse = (text) => text\n"
        "module.exports = { parse: exports.parse, Panel }\n"
        "module.exports.LIMITS = { max: 3 }\n"
        "app.config = { debug: true }\n"
        "function build() { const opts = { a: 1 }; return opts }\n"
        "const api = {\n  get(path) { return path },\n  post: function (path) { return path },\n}\n"
    )
    symbols = Extractor().extract(path, source.encode())
    assert [(s.name, s.kind, s.start) for s in symbols.definitions] == [
        ("Panel", "class", 1),
        ("onClick", "method", 2),  # a field holding a function; `count` holds a number: no definition
        ("size", "method", 4),
        ("render", "function", 6),
        ("parse", "function", 7),
        ("LIMITS", "object", 9),  # module.exports = {...} names what is defined above: no definition
        ("build", "function", 11),  # app.config belongs to another module; opts is local
        ("api", "object", 12),
        ("get", "method", 13),  # an object literal's methods, either spelling
        ("post", "method", 14),
    ]


def test_typescript_reads_javascript_tags_and_its_own() -> None:
    assert definitions("store.ts") == [
        ("Reader", "interface", 1, 3),
        ("get", "method", 2, 2),
        ("Store", "class", 5, 11),
        ("get", "method", 8, 10),
        ("loadStore", "function", 13, 15),
        ("Key", "type", 17, 17),
        ("Mode", "enum", 19, 22),
    ]


def test_rust_types_traits_methods_functions() -> None:
    assert definitions("store.rs") == [
        ("Store", "class", 1, 3),
        ("Reader", "interface", 5, 7),
        ("get", "method", 6, 6),  # a trait's method signature, from our rust-extra.scm
        ("put", "method", 10, 12),  # inside impl: a method, not also a function
        ("load_store", "function", 15, 17),
        ("Mode", "class", 19, 22),
    ]


def test_java_classes_constructors_interfaces_enums() -> None:
    assert definitions("Store.java") == [
        ("Store", "class", 3, 12),
        ("Store", "method", 6, 7),
        ("get", "method", 9, 11),
        ("Reader", "interface", 14, 16),
        ("get", "method", 15, 15),
        ("Mode", "enum", 18, 21),
    ]


def test_c_function_range_covers_return_type_and_body() -> None:
    # C's tags.scm marks only the declarator; the range must still cover the whole definition.
    assert definitions("store.c") == [("store", "class", 3, 5), ("store_get", "function", 7, 11)]


def test_kotlin_uses_our_own_query() -> None:
    assert definitions("Store.kt") == [
        ("Store", "class", 3, 7),
        ("get", "method", 4, 6),
        ("loadStore", "function", 9, 11),
    ]


def test_signature_is_the_line_that_names_the_definition() -> None:
    symbols = Extractor().extract("store.go", SOURCES["store.go"].encode())
    by_name = {s.name: s.signature for s in symbols.definitions}
    assert by_name["Put"] == "func (s *Store) Put(key string, value int) {"
    c = Extractor().extract("store.c", SOURCES["store.c"].encode())
    assert c.definitions[1].signature == "store_get(struct store *s, int key)"


def test_references_count_what_the_file_uses() -> None:
    symbols = Extractor().extract("main.py", b"from store import load_store\nload_store('a')\nload_store('b')\n")
    assert symbols.uses() == {"load_store": 2}


def test_a_file_that_is_not_code_fails_to_parse() -> None:
    with pytest.raises(ParseFailure):
        Extractor().extract("broken.py", b"}}}} ((( ]]] def def class\n" * 5)
