"""Debian's headless chromium driven by Selenium through Debian's chromedriver (no Selenium Manager: nothing
is downloaded), with a fresh profile each time; tests that need it skip when it is not installed."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,800",
]
# Artifacts of every run go to a temporary folder, so a test run never dirties the committed images;
# `SLMCODE_SCREENSHOT_DIR=docs/screenshots pytest -m browser tests/web` refreshes those.
SHOTS = Path(os.environ.get("SLMCODE_SCREENSHOT_DIR") or Path(tempfile.gettempdir()) / "slmcode-screenshots")


def chromium_driver() -> Iterator[object]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_bin = shutil.which("chromedriver")
    if chromium is None or driver_bin is None:
        pytest.skip("needs Debian's chromium and chromium-driver (`apt-get install -y chromium chromium-driver`)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("needs selenium (the dev extra)")
    profile = tempfile.mkdtemp(prefix="slmcode-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_bin), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot(driver: object, name: str) -> Path:
    """The visible page as NAME.png in SHOTS."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    driver.save_screenshot(str(path))  # type: ignore[attr-defined]
    return path
