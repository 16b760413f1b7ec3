"""Which language pack fits a workspace: every pack's detect stanza scored on the workspace root.

score = 10 if a marker (manifest) is at the root + 3 per hint file + 20 if a `contains` proof holds
        + 30 x the share of source files with the pack's extensions.
A pack that declares `contains` proofs and has none holding scores 0: a package.json without "react" is
not a React project. Ties go to the higher priority (the more specific pack), then to the id.
Folders holding any pack's marker are nested sub-projects: skipped, so a monorepo's frontend/ does not
outvote the root project.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from pathlib import Path

from slmcode.blocks.schema import Detect, PackBlock
from slmcode.treewalk import walk

MARKER_POINTS = 10
HINT_POINTS = 3
PROOF_POINTS = 20
SHARE_POINTS = 30
MAX_FILES = 20_000
MAX_PROOF_BYTES = 200_000
SKIP_DIRS = frozenset(
    {"node_modules", "vendor", "target", "build", "dist", "out", "bin", "obj", "venv", "__pycache__", "Pods"}
)


@dataclass(frozen=True)
class PackScore:
    pack: str
    score: float
    priority: int
    evidence: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Detection:
    chosen: str | None
    scores: list[PackScore]  # best first
    skipped: list[str]  # nested sub-projects, as "path/ (marker)"

    def explain(self) -> list[str]:
        lines = []
        if self.chosen:
            best = self.scores[0]
            lines.append(f"chose {best.pack}: score {best.score:g} ({'; '.join(best.evidence)})")
            runner_up = next((s for s in self.scores[1:] if s.score > 0), None)
            if runner_up:
                lines.append(f"next: {runner_up.pack} with {runner_up.score:g} ({'; '.join(runner_up.evidence)})")
        else:
            lines.append("no language pack matched: no marker file, proof or source file of any pack at the root")
        lines += [f"skipped nested sub-project {s}" for s in self.skipped]
        return lines


def _root_matches(names: list[str], patterns: list[str]) -> list[str]:
    return [p for p in patterns if any(fnmatch.fnmatchcase(n, p) for n in names)]


def _source_files(root: Path, all_markers: list[str]) -> tuple[list[str], list[str]]:
    """(source file names below the root, skipped sub-projects), sorted, skipping dot-folders and build
    output; bounded by MAX_FILES so a huge tree stays quick."""
    files: list[str] = []
    skipped: list[str] = []
    for folder, dirs, names in walk(root):
        here = Path(folder)
        if here != root:
            marker = next(iter(_root_matches(sorted(names), all_markers)), None)
            if marker:
                skipped.append(f"{here.relative_to(root).as_posix()}/ ({marker})")
                dirs[:] = []
                continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
        files.extend(sorted(names))
        if len(files) >= MAX_FILES:
            break
    return files, sorted(skipped)


def _proof(root: Path, names: list[str], detect: Detect) -> str | None:
    for proof in detect.contains:
        for name in sorted(n for n in names if fnmatch.fnmatchcase(n, proof.file)):
            with open(root / name, encoding="utf-8", errors="replace") as handle:
                if proof.text in handle.read(MAX_PROOF_BYTES):
                    return f"{name} contains {proof.text}"
    return None


def score_pack(pack: PackBlock, root: Path, root_names: list[str], sources: list[str], total: int) -> PackScore:
    detect = pack.detect
    evidence: list[str] = []
    score = 0.0
    proof = _proof(root, root_names, detect)
    if detect.contains and proof is None:
        return PackScore(pack.id, 0, detect.priority, ["no contains proof holds"])
    markers = _root_matches(root_names, detect.markers)
    if markers:
        score += MARKER_POINTS
        evidence.append(f"marker {', '.join(markers)}")
    hints = _root_matches(root_names, detect.hints)
    score += HINT_POINTS * len(hints)
    evidence += [f"hint {h}" for h in hints]
    if proof:
        score += PROOF_POINTS
        evidence.append(proof)
    ours = sum(1 for name in sources if os.path.splitext(name)[1] in detect.extensions)
    if ours:
        score += round(SHARE_POINTS * ours / max(total, 1), 1)
        evidence.append(f"{ours}/{total} source files {' '.join(detect.extensions)}")
    return PackScore(pack.id, score, detect.priority, evidence or ["nothing found"])


def detect_pack(workspace: Path | str, packs: list[PackBlock]) -> Detection:
    root = Path(workspace)
    root_names = sorted(p.name for p in root.iterdir() if p.is_file()) if root.is_dir() else []
    markers = sorted({m for pack in packs for m in pack.detect.markers})
    files, skipped = _source_files(root, markers) if root.is_dir() else ([], [])
    extensions = {e for pack in packs for e in pack.detect.extensions}
    sources = [f for f in files if os.path.splitext(f)[1] in extensions]
    scores = [score_pack(pack, root, root_names, sources, len(sources)) for pack in packs]
    scores.sort(key=lambda s: (-s.score, -s.priority, s.pack))
    chosen = scores[0].pack if scores and scores[0].score > 0 else None
    return Detection(chosen=chosen, scores=scores, skipped=skipped)
