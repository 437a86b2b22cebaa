"""`RENDER_PROCESSES` defaults from the CPU count (bot/cpus.py); an explicit value wins."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot import cpus
from bot.config import Settings
from fake_telegram import FakeTelegram
from tests.bot.e2e import open_lobby, running, settings_for, start_game


@pytest.mark.parametrize(("n", "expected"), [(1, 1), (2, 1), (3, 2), (4, 3), (5, 4), (64, 4)])
def test_every_cpu_but_one_draws_pictures_from_one_to_four(n: int, expected: int) -> None:
    assert cpus.default_render_processes(n) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [("max 100000", None), ("200000 100000", 2), ("150000 100000", 2), ("50000 100000", 1),
     ("", None), ("x y", None), ("0 100000", None)],
)  # fmt: skip
def test_a_cgroup_quota_is_read_in_whole_cpus(line: str, expected: int | None) -> None:
    assert cpus.quota_cpus(line) == expected


def test_usable_cpus_are_the_affinity_capped_by_the_quota(tmp_path: Path) -> None:
    mine = len(os.sched_getaffinity(0))
    assert cpus.usable_cpus(tmp_path / "absent") == mine
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cpus.usable_cpus(tmp_path / "cpu.max") == mine
    (tmp_path / "cpu.max").write_text("100000 100000\n")
    assert cpus.usable_cpus(tmp_path / "cpu.max") == 1
    (tmp_path / "cpu.max").write_text(f"{100000 * (mine + 8)} 100000\n")
    assert cpus.usable_cpus(tmp_path / "cpu.max") == mine  # a quota above the CPUs


def test_the_setting_defaults_from_the_cpus_and_an_explicit_value_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RENDER_PROCESSES", raising=False)
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 8)
    assert Settings(bot_token="1:a").render_processes == 4
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 2)
    assert Settings(bot_token="1:a").render_processes == 1
    monkeypatch.setenv("RENDER_PROCESSES", "3")
    assert Settings(bot_token="1:a").render_processes == 3  # more than the default
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 16)
    monkeypatch.setenv("RENDER_PROCESSES", "1")
    assert Settings(bot_token="1:a").render_processes == 1  # fewer than the default
    monkeypatch.setenv("RENDER_PROCESSES", "0")
    with pytest.raises(ValidationError):
        Settings(bot_token="1:a")


def render_workers() -> list[int]:
    """The pids of this process's children that run `bot.render_worker`."""
    me, out = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == me and b"bot.render_worker" in cmdline:
            out.append(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
async def test_a_bot_on_three_cpus_draws_in_two_render_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RENDER_PROCESSES", raising=False)
    monkeypatch.setattr(cpus, "usable_cpus", lambda: 3)
    async with FakeTelegram() as tg:
        anna, boris = tg.user(101, "Аня"), tg.user(102, "Борис")
        chat = tg.group(members=[anna, boris])
        settings = settings_for(tg, render_process=True)
        assert settings.render_processes == 2
        async with running(settings) as app:
            assert app.service.pictures.in_process
            assert len(render_workers()) == 2
            lobby = await open_lobby(chat, anna, boris)
            table = await start_game(chat, anna, lobby)
            await chat.wait_for(lambda: table.photo_bytes is not None, timeout=10)
    for _ in range(200):  # they end with the bot (stopping waits for them): 10 s at most
        if not render_workers():
            break
        await asyncio.sleep(0.05)
    assert not render_workers()
