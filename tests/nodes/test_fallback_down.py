"""A fallback whose server is down: the run stops saying it was the fallback's server, which one and which model,
not only that a model server was unreachable."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.errors import EndpointError
from tests.fake_llm import FakeLLM
from tests.nodes.test_fallback import BIG, SMALL, run, script_small_that_never_fixes


@pytest.mark.slow
def test_a_fallback_server_that_is_down_is_named_as_the_fallback(repo: Path) -> None:
    with FakeLLM() as gone:
        url = gone.url  # stopped: nothing listens there any more
    with FakeLLM(models=[SMALL]) as small:
        small.ollama_num_ctx = {SMALL: 4096}
        script_small_that_never_fixes(small)
        with pytest.raises(EndpointError) as stopped:
            run(small, repo, roles={"worker": {"fallback": {"model": BIG, "base_url": url}}})
    assert f"the corrector's fallback server at {url} ({BIG}) unreachable" in str(stopped.value)
