"""The server's rules for clients, without a server: each refusal is one line that names what and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode.serverpolicy import ServerPolicyError, server_settings


@pytest.fixture
def allowed(tmp_path: Path, isolated_home: Path) -> Path:
    """An allowed root with one repository; the operator's own config names their model server."""
    root = tmp_path / "allowed"
    (root / "repo" / ".slmcode").mkdir(parents=True)
    (isolated_home / "config.yaml").write_text("base_url: http://127.0.0.1:11434/v1\n")
    return root


def env(allowed: Path, **more: str) -> dict[str, str]:
    return {"SLMCODE_ALLOWED_ROOTS": str(allowed), **more}


@pytest.mark.parametrize(
    ("workspace", "overrides", "expected"),
    [
        ("{root}/repo", {"shell_extra_commands": ["bash -c"]}, "may not set shell_extra_commands"),
        ("{root}/repo", {"sandbox_read_paths": ["/"]}, "may not set sandbox_read_paths"),
        ("{root}/repo", {"api_key": "x"}, "may not set api_key"),
        ("{root}/repo", {"roles": {"worker": {"base_url": "http://evil/v1"}}}, "may not set roles"),
        ("{root}/repo", {"permission": "auto"}, "permission only to"),
        ("{root}/repo", {"base_url": "http://evil.example/v1"}, "configured endpoints"),
        ("{root}/repo", "not a mapping", "must be a JSON object"),
        ("{root}/../elsewhere", {}, "is not under SLMCODE_ALLOWED_ROOTS"),
        ("{root}/repo/../../", {}, "is not under SLMCODE_ALLOWED_ROOTS"),
        ("/", {}, "is not under SLMCODE_ALLOWED_ROOTS"),
        ("{root}/missing", {}, "does not exist"),
        ("relative/path", {}, "must be an absolute path"),
        (".", {}, "must name its workspace"),
        (None, {}, "must name its workspace"),
        ("{root}/repo\x00", {}, "absolute path"),
    ],
)
def test_refusals(allowed: Path, workspace: str | None, overrides: object, expected: str) -> None:
    (allowed.parent / "elsewhere").mkdir(exist_ok=True)
    raw = workspace.format(root=allowed) if isinstance(workspace, str) else workspace
    with pytest.raises(ServerPolicyError, match=expected):
        server_settings(raw, overrides, env(allowed))
    assert not (allowed / "missing").exists()


def test_no_allowed_roots_refuses_everything(allowed: Path) -> None:
    with pytest.raises(ServerPolicyError, match="accepts no workspace until SLMCODE_ALLOWED_ROOTS"):
        server_settings(str(allowed / "repo"), {}, {})


def test_a_symlink_out_of_the_allowed_root_is_refused(allowed: Path, tmp_path: Path) -> None:
    (tmp_path / "secret").mkdir()
    (allowed / "link").symlink_to(tmp_path / "secret", target_is_directory=True)
    with pytest.raises(ServerPolicyError, match="is not under"):
        server_settings(str(allowed / "link"), {}, env(allowed))


def test_safe_overrides_apply(allowed: Path) -> None:
    root, settings = server_settings(
        str(allowed / "repo"),
        {"base_url": "http://127.0.0.1:11434/v1/", "model": "qwen2.5-coder:7b", "max_tasks": 3, "permission": "review"},
        env(allowed),
    )
    assert root == (allowed / "repo").resolve()
    assert (settings.model, settings.max_tasks, settings.permission) == ("qwen2.5-coder:7b", 3, "review")


def test_a_client_may_tune_the_loop_guard(allowed: Path) -> None:
    # Before: refused ("may not set loop_guard_calls"), though it only says when a circling worker stops.
    _, settings = server_settings(str(allowed / "repo"), {"loop_guard": "off", "loop_guard_calls": 12}, env(allowed))
    assert (settings.loop_guard, settings.loop_guard_calls) == ("off", 12)


def test_an_endpoint_the_operator_lists_is_allowed(allowed: Path) -> None:
    _, settings = server_settings(
        str(allowed / "repo"),
        {"base_url": "http://10.0.0.5:8000/v1"},
        env(allowed, SLMCODE_ALLOWED_BASE_URLS="http://10.0.0.5:8000/v1"),
    )
    assert settings.base_url == "http://10.0.0.5:8000/v1"


@pytest.mark.parametrize("asked", [500, 4, "500", "1", True, 1.5])
def test_a_client_cannot_run_more_tasks_at_once_than_the_operator(
    allowed: Path, isolated_home: Path, asked: object
) -> None:
    # Each parallel task runs its own jailed commands on the operator's machine. Before, `max_parallel: 500` was
    # a safe override and applied as asked.
    with (isolated_home / "config.yaml").open("a") as config:
        config.write("max_parallel: 3\n")
    with pytest.raises(ServerPolicyError, match=r"max_parallel may be a whole number at most 3 \(the operator's"):
        server_settings(str(allowed / "repo"), {"max_parallel": asked}, env(allowed))


def test_a_client_may_run_fewer_tasks_at_once(allowed: Path, isolated_home: Path) -> None:
    with (isolated_home / "config.yaml").open("a") as config:
        config.write("max_parallel: 3\n")
    assert server_settings(str(allowed / "repo"), {"max_parallel": 1}, env(allowed))[1].max_parallel == 1
