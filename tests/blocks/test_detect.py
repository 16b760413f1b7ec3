"""Detection picks the right built-in pack for a small fixture of each ecosystem."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.blocks.detect import detect_pack
from slmcode.blocks.discovery import discover_blocks
from slmcode.blocks.schema import PackBlock

FIXTURES: dict[str, dict[str, str]] = {
    "go": {"go.mod": "module example.com/app\n", "main.go": "package main\n", "internal/db/db.go": "package db\n"},
    "python": {"pyproject.toml": "[project]\nname='x'\n", "src/x/__init__.py": "", "tests/test_x.py": ""},
    "react": {
        "package.json": '{"dependencies": {"react": "^18"}, "devDependencies": {"typescript": "5"}}',
        "tsconfig.json": '{"compilerOptions": {"jsx": "react-jsx"}}',
        "src/App.tsx": "",
        "src/index.tsx": "",
        "src/util.ts": "",
    },
    "typescript": {
        "package.json": '{"devDependencies": {"typescript": "^5"}}',
        "tsconfig.json": '{"compilerOptions": {}}',
        "src/index.ts": "",
        "src/lib.ts": "",
    },
    "web": {"package.json": '{"name": "site"}', "index.html": "<html></html>", "app.js": "", "style.css": ""},
    "rust": {"Cargo.toml": "[package]\nname='x'\n", "src/main.rs": "fn main() {}\n"},
    "java": {"pom.xml": "<project/>", "src/main/java/App.java": "class App {}", "mvnw": ""},
    "kotlin": {
        "build.gradle.kts": 'plugins { kotlin("jvm") version "2.0.0" }\n',
        "settings.gradle.kts": 'rootProject.name = "x"\n',
        "src/main/kotlin/Main.kt": "fun main() {}\n",
    },
    "dotnet": {"App.csproj": "<Project/>", "Program.cs": "", "Models/User.cs": ""},
    "ruby": {"Gemfile": "source 'https://rubygems.org'\n", "Rakefile": "", "lib/app.rb": "", "test/app_test.rb": ""},
    "php": {"composer.json": '{"require": {}}', "src/App.php": "<?php\n", "index.php": "<?php\n"},
    "swift": {"Package.swift": "// swift-tools-version:5.9\n", "Sources/App/main.swift": ""},
    "cpp": {"CMakeLists.txt": "project(x CXX)\n", "src/main.cpp": "", "include/x.hpp": "", "Makefile": ""},
}


def build(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture(scope="module")
def packs() -> list[PackBlock]:
    catalog = discover_blocks("/nonexistent-workspace", environ={})
    return [b.block for b in catalog.of_kind("pack") if isinstance(b.block, PackBlock)]


def test_there_are_thirteen_builtin_packs(packs: list[PackBlock]) -> None:
    assert sorted(p.id for p in packs) == sorted(FIXTURES)


@pytest.mark.parametrize("ecosystem", sorted(FIXTURES))
def test_each_ecosystem_is_detected(ecosystem: str, tmp_path: Path, packs: list[PackBlock]) -> None:
    detection = detect_pack(build(tmp_path, FIXTURES[ecosystem]), packs)
    assert detection.chosen == ecosystem, detection.explain()
    assert detection.explain()[0].startswith(f"chose {ecosystem}: score ")


def test_java_on_gradle_kotlin_dsl_is_still_java(tmp_path: Path, packs: list[PackBlock]) -> None:
    files = {"build.gradle.kts": "plugins { java }\n", "src/main/java/App.java": "", "src/main/java/B.java": ""}
    assert detect_pack(build(tmp_path, files), packs).chosen == "java"


def test_monorepo_root_wins_over_a_bigger_nested_subproject(tmp_path: Path, packs: list[PackBlock]) -> None:
    build(tmp_path, {"go.mod": "module x\n", "main.go": "", "cmd/tool/main.go": ""})
    frontend = {"frontend/package.json": '{"dependencies": {"react": "18"}}'}
    frontend |= {f"frontend/src/C{i}.tsx": "" for i in range(30)}
    build(tmp_path, frontend)
    build(tmp_path, {"services/api/pyproject.toml": "", **{f"services/api/m{i}.py": "" for i in range(10)}})
    detection = detect_pack(tmp_path, packs)
    assert detection.chosen == "go"
    assert detection.skipped == ["frontend/ (package.json)", "services/api/ (pyproject.toml)"]
    assert "skipped nested sub-project frontend/ (package.json)" in detection.explain()
    assert "2/2 source files .go" in detection.explain()[0]


def test_nothing_matches_an_empty_folder(tmp_path: Path, packs: list[PackBlock]) -> None:
    detection = detect_pack(tmp_path, packs)
    assert detection.chosen is None
    assert detection.explain()[0].startswith("no language pack matched")


def test_package_json_without_react_is_not_react(tmp_path: Path, packs: list[PackBlock]) -> None:
    detection = detect_pack(build(tmp_path, {"package.json": "{}", "a.jsx": ""}), packs)
    react = next(s for s in detection.scores if s.pack == "react")
    assert react.score == 0 and react.evidence == ["no contains proof holds"]
    assert detection.chosen == "web"
