"""What every node of a run can reach besides the state: the run's settings and workspace (LangGraph's
Runtime context), and `emit`, which streams an event (stream_mode "custom") and records it in the trace."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from slmcode.blocks.compose import PhaseSpec, ResolvedPipeline, resolve_pipeline
from slmcode.config import Settings
from slmcode.environment import Environment, LocalEnvironment
from slmcode.providers.roles import RoleTable
from slmcode.serverpolicy import server_settings
from slmcode.serving import fit_to_server
from slmcode.store.journal import Journal
from slmcode.store.trace import TraceStore

LOG = logging.getLogger(__name__)


@dataclass
class RunContext:
    """Per-run settings. The CLI and API pass `settings`; a LangGraph server client passes plain
    `workspace` and `overrides` (JSON), checked by serverpolicy before anything uses them, and settings are
    loaded from the workspace's files."""

    workspace: str = "."
    overrides: dict[str, Any] = field(default_factory=dict)
    settings: Settings | None = None
    trace: TraceStore | None = None
    pipeline: ResolvedPipeline | None = None
    journal: Journal | None = None
    roles: RoleTable | None = None
    environment: Environment | None = None  # where the run's commands run; resolved once, on first use

    def resolved_settings(self) -> Settings:
        if self.settings is None:  # a server client's context: checked and loaded once per run, on first use
            root, settings = server_settings(self.workspace, self.overrides)
            if settings.base_url:  # sized to what the model server really keeps, as the CLI's and API's runs are
                settings, event = fit_to_server(settings)
                LOG.info("slmcode: %s", event["message"])
            self.settings = settings
            self.workspace = str(root)
        return self.settings

    def root(self) -> Path:
        """The workspace, only once its context has passed the checks."""
        self.resolved_settings()
        return Path(self.workspace).resolve()

    def resolved_pipeline(self) -> ResolvedPipeline:
        if self.pipeline is None:
            self.pipeline = resolve_pipeline(self.root(), self.resolved_settings())
        return self.pipeline

    def role_table(self) -> RoleTable:
        """Each role's model, budget and client, resolved once per run; an agent block filling the role's phase
        may set its share of the window (`budget_share`)."""
        if self.roles is None:
            resolved = self.resolved_pipeline()
            shares = {
                phase.name: agent.budget_share
                for phase in resolved.phases
                if (agent := resolved.agents.get(phase.agent)) is not None and agent.budget_share is not None
            }
            self.roles = RoleTable(self.resolved_settings(), shares)
        return self.roles

    def run_environment(self) -> Environment:
        """The one Environment every command, hook and git call of this run goes through (the local bubblewrap
        one the settings describe, unless the caller gave one)."""
        if self.environment is None:
            self.environment = LocalEnvironment.from_settings(self.root(), self.resolved_settings())
        return self.environment

    def tool_journal(self) -> Journal:
        if self.journal is None:
            self.journal = Journal.for_workspace(self.root())
        return self.journal

    def trace_store(self) -> TraceStore:
        if self.trace is None:
            self.trace = TraceStore.for_workspace(self.root())
        return self.trace


def server_pipeline(workspace: str, overrides: dict[str, Any]) -> tuple[Path, list[PhaseSpec]]:
    """The workspace and pipeline a server client's context would run with, checked as its run will check them
    but without asking the model server anything: the LangGraph server's graph factory shapes the graph by it."""
    root, settings = server_settings(workspace, overrides)
    return root, resolve_pipeline(root, settings).phases


def workspace_of(runtime: Runtime[RunContext]) -> Path:
    return runtime.context.root()


def environment_of(runtime: Runtime[RunContext]) -> Environment:
    return runtime.context.run_environment()


def settings_of(runtime: Runtime[RunContext]) -> Settings:
    return runtime.context.resolved_settings()


def roles_of(runtime: Runtime[RunContext]) -> RoleTable:
    return runtime.context.role_table()


def trace_of(runtime: Runtime[RunContext]) -> TraceStore:
    return runtime.context.trace_store()


def emit(
    runtime: Runtime[RunContext],
    run_id: str,
    kind: str,
    *,
    role: str | None = None,
    task_id: str | None = None,
    once: bool = False,
    **data: Any,
) -> None:
    """Stream the event to whoever watches the run, and keep it in the trace; `once`: neither when the trace holds
    it already (the node ran again: resumed after a kill, or after a question's answer)."""
    if not once:
        stream(runtime, kind, role=role, task_id=task_id, **data)
    recorded = trace_of(runtime).record_event(run_id, kind, data, role=role, task_id=task_id, once=once)
    if once and recorded is not None:
        stream(runtime, kind, role=role, task_id=task_id, **data)


def stream(
    runtime: Runtime[RunContext], kind: str, *, role: str | None = None, task_id: str | None = None, **data: Any
) -> None:
    """Only stream the event: for what the trace already holds in its own row (a tool call), so each trace event
    is written once."""
    runtime.stream_writer({"kind": kind, "role": role, "task_id": task_id, **data})
