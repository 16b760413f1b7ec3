from pathlib import Path

from slmcode.compact.offload import offload_tool_output


def test_small_output_stays_inline_and_nothing_is_written(tmp_path: Path) -> None:
    out = offload_tool_output("ok", workspace=tmp_path, run_id="r1", name="ws_read", limit_bytes=100, kind="read")
    assert out == "ok"
    assert not (tmp_path / ".slmcode").exists()


def test_large_output_goes_to_the_run_scratch_folder_with_a_head_preview(tmp_path: Path) -> None:
    text = "\n".join(f"line {i}" for i in range(2000))
    out = offload_tool_output(text, workspace=tmp_path, run_id="r1", name="ws_read", limit_bytes=500, kind="read")
    assert out.startswith("line 0\nline 1\n")
    assert "line 1999" not in out
    assert len(out.encode()) <= 500
    path = next(p for p in out.split() if p.startswith(".slmcode/scratch/r1/")).rstrip(";")
    assert (tmp_path / path).read_text() == text


def test_logs_and_test_runs_keep_their_tail(tmp_path: Path) -> None:
    text = "\n".join(f"test_{i} PASSED" for i in range(2000)) + "\n1 failed, 1999 passed\nexit code 1"
    out = offload_tool_output(text, workspace=tmp_path, run_id="r1", name="ws_shell", limit_bytes=600, kind="test")
    assert out.startswith("test_0 PASSED")
    assert "1 failed, 1999 passed\nexit code 1" in out


def test_a_hostile_run_id_cannot_leave_the_scratch_folder(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    offload_tool_output("x" * 50, workspace=workspace, run_id="../../etc", name="../x", limit_bytes=10, kind="log")
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and all(p.is_relative_to(workspace / ".slmcode" / "scratch") for p in written)
