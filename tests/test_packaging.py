"""Packaging: CI and the Dockerfile install the pinned versions of constraints.txt, which
satisfy pyproject's ranges (upper bounds where a major version would break us); the wheel,
installed in a fresh venv, has the `nastolka` script and everything `python -m bot` and
`python -m bot playground` need (fake_telegram included), run from outside the checkout."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not a pin: {line!r}"
            out[name.lower().replace("_", "-")] = version
    return out


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    reqs += [Requirement(r) for r in project["optional-dependencies"]["dev"]]
    return reqs


def test_every_dependency_is_pinned_within_its_range() -> None:
    pinned = pins()
    for req in requirements():
        name = req.name.lower().replace("_", "-")
        assert name in pinned, f"{req.name} is not pinned in constraints.txt"
        assert req.specifier.contains(pinned[name], prereleases=True), (req, pinned[name])
    bounded = {"aiogram", "redis", "pydantic", "pydantic-settings", "pillow", "aiohttp"}
    for req in requirements():
        if req.name.lower() in bounded:
            assert any(s.operator == "<" for s in req.specifier), f"{req} has no upper bound"


def test_ci_and_the_dockerfile_install_from_the_constraints() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q -c constraints.txt -e '.[dev]'" in ci
    docker = (ROOT / "Dockerfile").read_text()
    image = docker.split("\nFROM ${BASE}\n")[1]  # the final stage (the wheel's is before)
    deps, code = image.split("COPY --from=wheel")
    # the pinned dependencies in a layer of their own, before any code of ours
    assert "COPY pyproject.toml constraints.txt" in deps and "COPY bot" not in deps
    assert "pip install -c /opt/nastolka/pinned/constraints.txt" in deps
    assert "pip install --no-deps --no-index" in code  # then the wheel alone


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_wheel_runs_the_bot_and_the_playground_from_a_fresh_venv(tmp_path: Path) -> None:
    src = tmp_path / "src"  # a copy: building in the checkout would leave build/ there
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "tests", "bench", "docs", "build", "*.egg-info", "__pycache__"
        ),
    )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(src), "-w", str(wheels)],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("nastolka-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    constraints = str(ROOT / "constraints.txt")
    subprocess.run([*pip, "-c", constraints, str(wheel)], check=True, timeout=600)

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BOT_TOKEN")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    help_ = subprocess.run(
        ["nastolka", "--help"], cwd=outside, env=env, capture_output=True, text=True, timeout=60
    )
    assert help_.returncode == 0, help_.stderr
    for setting in ("METRICS_PORT", "LOG_LEVEL", "LOG_FORMAT", "--check", "playground"):
        assert setting in help_.stdout
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import bot, fake_telegram; print(bot.__file__)"],
        cwd=outside,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert where.returncode == 0 and str(venv) in where.stdout, where

    port = free_port()
    log = (tmp_path / "playground.log").open("wb")
    proc = subprocess.Popen(
        ["nastolka", "playground", "--port", str(port)],
        cwd=outside,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 90
        page = ""
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read().decode()
                    break
            except OSError:
                time.sleep(0.3)
        assert "<html" in page, (tmp_path / "playground.log").read_text()
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
