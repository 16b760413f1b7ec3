"""From blocks to the pipeline a run executes: the active pack, its pipeline with slots applied, the agents
filling each phase, and the quality commands. Pure given a catalog; the graph builder calls
resolve_pipeline and wires one node per PhaseSpec.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from slmcode.blocks.detect import detect_pack
from slmcode.blocks.discovery import Catalog, SourcedBlock, discover_blocks
from slmcode.blocks.schema import (
    PLACEHOLDER_RE,
    AgentBlock,
    FailMode,
    Hooks,
    PackBlock,
    PersistTo,
    PipelineBlock,
    QualityBlock,
    When,
)
from slmcode.config import Settings
from slmcode.errors import BlockError

DEFAULT_PIPELINE = "default"


@dataclass(frozen=True)
class Place:
    """Where a slot sits: before, after or in place of the phase `anchor`; shown as "after reviewer"."""

    position: Literal["before", "after", "replace"]
    anchor: str

    def __str__(self) -> str:
        return f"{self.position} {self.anchor}"


@dataclass(frozen=True)
class PhaseSpec:
    """One node of the graph: which agent runs, when, with what prompt, where its output goes, and what a
    failure does. `slot` says where a slot was inserted (after reviewer); None for the pipeline's own
    phases."""

    name: str
    agent: str
    role: str
    when: When
    prompt: str | None
    persist_to: PersistTo
    fail_mode: FailMode
    slot: Place | None = None


@dataclass(frozen=True)
class ResolvedPipeline:
    pack: str | None
    pack_reasons: list[str]
    pipeline: str
    phases: list[PhaseSpec]
    quality: QualityBlock | None
    agents: dict[str, AgentBlock]  # the team: every agent a phase uses, plus the pack's own, by id
    sources: dict[str, str] = field(default_factory=dict)  # block ref -> "layer path"
    hooks: Hooks = field(default_factory=Hooks)  # the pipeline block's lifecycle hooks (slmcode/hooks.py)

    def phase(self, name: str) -> PhaseSpec:
        for spec in self.phases:
            if spec.name == name:
                return spec
        raise KeyError(name)

    def as_dict(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "pack_reasons": self.pack_reasons,
            "pipeline": self.pipeline,
            "phases": [{**asdict(p), "slot": str(p.slot) if p.slot else None} for p in self.phases],
            "quality": self.quality.commands() if self.quality else {},
            "agents": {k: a.model_dump(exclude={"api_version"}) for k, a in self.agents.items()},
            "sources": self.sources,
        }


def render_prompt(template: str, values: Mapping[str, str]) -> str:
    """Fill {{query}}, {{exploration}}, {{plan}} and {{phase}}; a missing value renders empty."""
    return PLACEHOLDER_RE.sub(lambda m: values.get(m.group(1), ""), template)


def _where(sourced: SourcedBlock) -> str:
    return f"{sourced.layer} {sourced.path}"


def _overrides(catalog: Catalog) -> dict[str, str]:
    """Agent id -> the id of the agent that stands in for it."""
    result: dict[str, str] = {}
    for sourced in catalog.of_kind("agent"):
        agent = sourced.block
        if isinstance(agent, AgentBlock) and agent.overrides:
            if agent.overrides in result:
                raise BlockError(
                    f"{sourced.path}: agent '{agent.id}': field 'overrides': expected one agent per overridden "
                    f"agent, but '{result[agent.overrides]}' overrides '{agent.overrides}' too"
                )
            result[agent.overrides] = agent.id
    return result


def _agent(catalog: Catalog, overrides: dict[str, str], wanted: str, used_by: str, where: str) -> AgentBlock:
    agent_id = overrides.get(wanted, wanted)
    sourced = catalog.get("agent", agent_id)
    if sourced is None or not isinstance(sourced.block, AgentBlock):
        known = ", ".join(b.block.id for b in catalog.of_kind("agent"))
        raise BlockError(f"{where}: {used_by} names agent '{agent_id}', which no agent block defines (known: {known})")
    return sourced.block


def apply_slots(pipeline: PipelineBlock, catalog: Catalog, overrides: dict[str, str], where: str) -> list[PhaseSpec]:
    """The pipeline's phases with every slot inserted before, after or in place of its anchor."""
    specs: list[PhaseSpec] = []
    origins: list[str | None] = []  # the pipeline phase each entry stands for (None: inserted)
    for phase in pipeline.phases:
        agent = _agent(catalog, overrides, phase.agent or phase.name, f"phase '{phase.name}'", where)
        specs.append(
            PhaseSpec(
                phase.name,
                agent.id,
                agent.role,
                phase.when,
                phase.prompt or agent.prompt,
                phase.persist_to,
                phase.fail_mode,
            )
        )
        origins.append(phase.name)
    replaced: set[str] = set()
    for slot in pipeline.slots:
        agent = _agent(catalog, overrides, slot.agent, f"slot '{slot.name}'", where)
        spec = PhaseSpec(
            slot.name,
            agent.id,
            agent.role,
            slot.when,
            slot.prompt or agent.prompt,
            slot.persist_to,
            slot.fail_mode,
            slot=Place(slot.position, slot.anchor),
        )
        at = origins.index(slot.anchor)
        if slot.position == "replace":
            if slot.anchor in replaced:
                raise BlockError(f"{where}: slot '{slot.name}': phase '{slot.anchor}' is already replaced")
            replaced.add(slot.anchor)
            specs[at] = spec
            continue
        if slot.position == "after":
            at += 1
            while at < len(specs) and specs[at].slot == spec.slot:  # keep slots after one phase in file order
                at += 1
        specs.insert(at, spec)
        origins.insert(at, None)
    return specs


def choose_pack(catalog: Catalog, workspace: Path | str, configured: str | None) -> tuple[PackBlock | None, list[str]]:
    packs = [b.block for b in catalog.of_kind("pack") if isinstance(b.block, PackBlock)]
    untrusted = f"pack/{configured}" in catalog.ignored
    if configured and not untrusted:
        sourced = catalog.get("pack", configured)
        if sourced is None or not isinstance(sourced.block, PackBlock):
            known = ", ".join(p.id for p in packs)
            raise BlockError(f"setting language_pack: expected one of {known}, got '{configured}'")
        return sourced.block, [f"language_pack '{configured}' is set in the settings"]
    detection = detect_pack(workspace, packs)
    chosen = catalog.get("pack", detection.chosen) if detection.chosen else None
    left_out = [f"language_pack '{configured}' is the workspace's own pack, left out until it is trusted"]
    return (chosen.block if chosen and isinstance(chosen.block, PackBlock) else None), [
        *(left_out if untrusted else []),
        *detection.explain(),
    ]


def compose_pipeline(catalog: Catalog, pack: PackBlock | None, pack_reasons: list[str]) -> ResolvedPipeline:
    pipeline_id = pack.pipeline if pack else DEFAULT_PIPELINE
    pack_source = catalog.get("pack", pack.id) if pack else None
    pack_where = _where(pack_source) if pack_source else "no language pack"
    sourced = catalog.get("pipeline", pipeline_id)
    if sourced is None or not isinstance(sourced.block, PipelineBlock):
        raise BlockError(f"{pack_where}: field 'pipeline': expected a pipeline block id, got '{pipeline_id}'")
    overrides = _overrides(catalog)
    phases = apply_slots(sourced.block, catalog, overrides, _where(sourced))
    agents = {p.agent: _agent(catalog, overrides, p.agent, f"phase '{p.name}'", _where(sourced)) for p in phases}
    for agent_id in pack.agents if pack else []:
        agents[agent_id] = _agent(catalog, overrides, agent_id, "field 'agents'", pack_where)
    quality = None
    if pack:
        found = catalog.get("quality", pack.quality_id)
        if found is None or not isinstance(found.block, QualityBlock):
            raise BlockError(f"{pack_where}: field 'quality': expected a quality block id, got '{pack.quality_id}'")
        quality = found.block
    used = [f"pipeline/{pipeline_id}", *(f"agent/{a}" for a in agents)]
    used += [f"pack/{pack.id}", f"quality/{pack.quality_id}"] if pack else []
    sources = {ref: _where(catalog.blocks[ref]) for ref in sorted(used)}
    return ResolvedPipeline(
        pack.id if pack else None, pack_reasons, pipeline_id, phases, quality, agents, sources, sourced.block.hooks
    )


def resolve_pipeline(
    workspace: Path | str, settings: Settings, environ: Mapping[str, str] | None = None
) -> ResolvedPipeline:
    """The pipeline the graph builds for `workspace`: the configured pack, else the detected one."""
    catalog = discover_blocks(workspace, environ)
    pack, reasons = choose_pack(catalog, workspace, settings.language_pack)
    return compose_pipeline(catalog, pack, reasons)
