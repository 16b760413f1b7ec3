"""The built-in tools' plain schemas (tools/schemas.py) are what LangChain's conversion of the real tools gives,
tool by tool and in every offer (edit format, shell, skills), so what `slmcode pack` counts without LangChain is
what a run's request carries: the counts cannot drift apart."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from langchain_core.utils.function_calling import convert_to_openai_tool

from slmcode.budget.room import TOOL_PREAMBLE_TOKENS, schema_tokens
from slmcode.budget.tokens import count_tokens
from slmcode.config import Settings
from slmcode.tools import registry
from slmcode.tools.context import ToolContext
from slmcode.tools.editformat import MODES, EditFormat
from slmcode.tools.schemas import builtin_schemas
from slmcode.tools.toolset import make_tools

OFFERS = list(itertools.product(MODES, ("allow", "deny"), (True, False)))


def context(workspace: Path, mode: str, shell: str, skills: bool) -> ToolContext:
    return ToolContext(
        workspace=workspace,
        settings=Settings(shell_permission=shell),
        skills=(lambda name: None) if skills else None,
        edit=EditFormat(mode=mode),
    )


@pytest.mark.parametrize(("mode", "shell", "skills"), OFFERS)
def test_every_plain_schema_is_langchains_conversion_of_its_tool(
    tmp_path: Path, mode: str, shell: str, skills: bool
) -> None:
    ctx = context(tmp_path, mode, shell, skills)
    tools, plain = make_tools(ctx), builtin_schemas(ctx)
    assert [t.name for t in tools] == [s.name for s in plain]
    for tool, schema in zip(tools, plain, strict=True):
        converted = convert_to_openai_tool(tool)
        assert schema.as_openai() == converted
        # Equal dicts, but the count is what must not drift: one tool alone, as LangChain's dict gives it.
        langchain_count = count_tokens(json.dumps([converted], sort_keys=True)) + TOOL_PREAMBLE_TOKENS
        assert schema_tokens([schema.as_openai()]) == langchain_count
    whole = count_tokens(json.dumps([convert_to_openai_tool(t) for t in tools], sort_keys=True))
    assert schema_tokens([s.as_openai() for s in plain]) == whole + TOOL_PREAMBLE_TOKENS


def test_every_registered_tool_has_a_plain_schema_in_the_full_offer(tmp_path: Path) -> None:
    names = [s.name for s in builtin_schemas(context(tmp_path, "replace", "allow", True))]
    assert names == [spec.name for spec in registry.SPECS]
