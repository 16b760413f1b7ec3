"""The blocks/v1 schema: pipeline, agent, quality and pack blocks as pydantic models.

A block is one YAML document (a file may hold several, separated by `---`):

    api_version: blocks/v1
    kind: pipeline | agent | quality | pack
    id: lowercase-name
    description: optional text
    ...the kind's own fields

Validation lives here; where blocks come from is discovery.py, and what they add up to is compose.py.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

API_VERSION = "blocks/v1"
KINDS = ("pipeline", "agent", "quality", "pack")
TEMPLATE_VARS = ("query", "exploration", "plan", "phase")
PLACEHOLDER_RE = re.compile(r"\{\{\s*([^}]*?)\s*\}\}")

BlockId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=64)]
When = Literal["always", "auto", "never"]  # auto: the graph's routing decides (e.g. corrector after a rejection)
PersistTo = Literal["scratch", "context", "memory", "none"]
FailMode = Literal["continue", "abort"]


def check_template(template: str | None) -> str | None:
    """A prompt template may use only {{query}}, {{exploration}}, {{plan}} and {{phase}}."""
    if template is None:
        return None
    unknown = sorted({name for name in PLACEHOLDER_RE.findall(template) if name not in TEMPLATE_VARS})
    if unknown:
        allowed = ", ".join(f"{{{{{v}}}}}" for v in TEMPLATE_VARS)
        raise ValueError(f"placeholders among {allowed}, not {', '.join('{{' + u + '}}' for u in unknown)}")
    return template


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Phase(Strict):
    """One step of the pipeline; `agent` defaults to the built-in agent named like the phase."""

    name: BlockId
    agent: BlockId | None = None
    when: When = "always"
    prompt: str | None = None
    persist_to: PersistTo = "none"
    fail_mode: FailMode = "abort"

    _template = field_validator("prompt")(check_template)


class Slot(Strict):
    """An agent inserted before or after a phase, or in place of it; exactly one anchor is given."""

    name: BlockId
    before: BlockId | None = None
    after: BlockId | None = None
    replace: BlockId | None = None
    agent: BlockId
    prompt: str | None = None
    when: When = "always"
    persist_to: PersistTo = "scratch"
    fail_mode: FailMode = "continue"

    _template = field_validator("prompt")(check_template)

    @model_validator(mode="after")
    def _one_anchor(self) -> Slot:
        if len([a for a in (self.before, self.after, self.replace) if a]) != 1:
            raise ValueError("exactly one of before, after or replace naming a phase")
        return self

    @property
    def position(self) -> Literal["before", "after", "replace"]:
        return "before" if self.before else "after" if self.after else "replace"

    @property
    def anchor(self) -> str:
        return self.before or self.after or self.replace or ""


class BlockBase(Strict):
    api_version: Literal["blocks/v1"]
    id: BlockId
    description: str = ""

    @property
    def ref(self) -> str:
        return f"{self.kind}/{self.id}"  # type: ignore[attr-defined]


class Hooks(Strict):
    """Commands run at a run's events (slmcode/hooks.py), each in the sandbox with the event as JSON on stdin;
    a failing hook is a warning, never a failed run."""

    on_task_done: list[str] = Field(default_factory=list)
    on_verdict: list[str] = Field(default_factory=list)
    on_run_end: list[str] = Field(default_factory=list)
    timeout_seconds: float = Field(default=30.0, gt=0)  # each command's deadline

    _lists = field_validator("on_task_done", "on_verdict", "on_run_end", mode="before")(
        lambda value: [value] if isinstance(value, str) else value
    )


class PipelineBlock(BlockBase):
    kind: Literal["pipeline"]
    phases: list[Phase] = Field(min_length=1)
    slots: list[Slot] = Field(default_factory=list)
    hooks: Hooks = Field(default_factory=Hooks)

    def reference_errors(self) -> list[tuple[tuple[int | str, ...], str]]:
        """(field location, expectation) for names that must match across fields: phase names are unique
        and every slot anchors on one of them. Kept out of validation so the loader can point at the line."""
        names = [p.name for p in self.phases]
        errors: list[tuple[tuple[int | str, ...], str]] = []
        for index, phase in enumerate(self.phases):
            if names.index(phase.name) != index:
                errors.append((("phases", index, "name"), f"a phase name used once, but '{phase.name}' repeats"))
        for index, slot in enumerate(self.slots):
            if slot.anchor not in names:
                errors.append(
                    (
                        ("slots", index, slot.position),
                        f"one of this pipeline's phases ({', '.join(names)}), got '{slot.anchor}'",
                    )
                )
        return errors


class AgentBlock(BlockBase):
    """A specialist, or (with `overrides`) a replacement for another agent wherever that one is used.

    Unset prompt/tools/budget_share mean the node's own built-in prompt, tool set and the
    context_role_budget share of `role`.
    """

    kind: Literal["agent"]
    role: BlockId
    prompt: str | None = None
    tools: list[str] | None = None
    budget_share: float | None = Field(default=None, gt=0, le=1)
    overrides: BlockId | None = None
    mcp_max_tools: int | None = Field(default=None, ge=0)  # how many listed MCP tools it gets; None: the setting

    _template = field_validator("prompt")(check_template)


def _as_list(value: object) -> object:
    return [value] if isinstance(value, str) else value


def _switch(value: object) -> object:
    """`on`/`off` (YAML 1.1 reads them as booleans already), also when quoted."""
    words = {"on": True, "off": False, "yes": True, "no": False}
    return words.get(value.strip().lower(), value) if isinstance(value, str) else value


class QualityGates(Strict):
    """Which quality gates (slmcode.gates) verify runs on each task's change, and ws_write's guard."""

    placeholder: bool = True  # TODO / `pass` / "implement here" stubs in lines the task added
    completeness: bool = True  # every focus file touched, or the worker said why not
    claims: bool = True  # "tests pass" only after a test command exited 0 after the last edit
    lint: bool = False  # the quality block's lint command over the changed files
    smoke: bool = True  # the changed modules compile (python -m py_compile)
    write_guard: bool = True  # ws_write refuses an existing file: edit it with ws_edit

    _switches = field_validator("*", mode="before")(_switch)


class QualityBlock(BlockBase):
    """The commands that prove a change: each a list run in order. They also feed the shell whitelist.
    `gates` switches the quality gates on and off."""

    kind: Literal["quality"]
    install: list[str] = Field(default_factory=list)
    format: list[str] = Field(default_factory=list)
    lint: list[str] = Field(default_factory=list)
    test: list[str] = Field(default_factory=list)
    build: list[str] = Field(default_factory=list)
    gates: QualityGates = Field(default_factory=QualityGates)

    _lists = field_validator("install", "format", "lint", "test", "build", mode="before")(_as_list)

    def commands(self) -> dict[str, list[str]]:
        return {
            "install": self.install,
            "format": self.format,
            "lint": self.lint,
            "test": self.test,
            "build": self.build,
        }

    def programs(self) -> list[str]:
        """The programs these commands start (first words, sorted): what the shell whitelist admits."""
        return sorted({c.split()[0] for group in self.commands().values() for c in group if c.split()})


class Contains(Strict):
    """Proof from a file's content: `file` (a root-level name or glob) holds `text`."""

    file: str
    text: str = Field(min_length=1)


class Detect(Strict):
    """How a pack recognises its workspace. markers: manifest files at the root (they also mark nested
    sub-projects); hints: weaker root files; contains: proofs of which at least one must hold when given;
    extensions: source files; priority: the tie-break, higher for more specific packs."""

    markers: list[str] = Field(default_factory=list)
    hints: list[str] = Field(default_factory=list)
    contains: list[Contains] = Field(default_factory=list)
    extensions: list[str] = Field(default_factory=list)
    priority: int = 0

    @field_validator("extensions")
    @classmethod
    def _dotted(cls, value: list[str]) -> list[str]:
        bad = [e for e in value if not e.startswith(".")]
        if bad:
            raise ValueError(f"extensions starting with a dot, like '.py', not {', '.join(bad)}")
        return value


class PackBlock(BlockBase):
    """A language pack: how to detect it, and the pipeline, quality block and agents it brings.
    `quality` defaults to the quality block with the pack's own id."""

    kind: Literal["pack"]
    detect: Detect
    pipeline: BlockId = "default"
    quality: BlockId | None = None
    agents: list[BlockId] = Field(default_factory=list)

    @property
    def quality_id(self) -> str:
        return self.quality or self.id


Block = PipelineBlock | AgentBlock | QualityBlock | PackBlock
MODELS: dict[str, type[BlockBase]] = {
    "pipeline": PipelineBlock,
    "agent": AgentBlock,
    "quality": QualityBlock,
    "pack": PackBlock,
}
