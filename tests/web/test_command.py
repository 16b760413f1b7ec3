"""`slmcode serve` as a user starts it: the URL it prints works, and a folder that does not exist is one line."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

SLMCODE = [sys.executable, "-c", "from slmcode.cli import main; main()"]


def test_serve_prints_a_loopback_url_with_a_token_that_opens_the_runs_list(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*SLMCODE, "serve", "-w", str(tmp_path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        url = None
        for _ in range(5):
            match = re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", proc.stdout.readline())  # type: ignore[union-attr]
            if match:
                url = urlsplit(match.group(0))
                break
        assert url is not None, "no URL printed"
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        conn.request("GET", f"/?{url.query}")
        first = conn.getresponse()
        first.read()
        assert first.status == 303
        cookie = first.headers["Set-Cookie"].split(";")[0]
        conn.request("GET", "/", headers={"Cookie": cookie})
        page = conn.getresponse()
        assert page.status == 200 and "No runs recorded" in page.read().decode()
        conn.close()
    finally:
        proc.terminate()
        proc.wait(30)


def test_serve_on_a_missing_folder_says_so_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [*SLMCODE, "serve", "-w", str(tmp_path / "nope"), "--port", "0"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0 and "does not exist" in done.stderr and "Traceback" not in done.stderr


def test_a_port_out_of_range_is_one_line_not_an_internal_error(tmp_path: Path) -> None:
    for port in ("-1", "99999"):
        done = subprocess.run(
            [*SLMCODE, "serve", "-w", str(tmp_path), "--port", port],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "COLUMNS": "200"},
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip() == f"error: --port: expected a port from 0 to 65535 (0: any free port), got {port}"
