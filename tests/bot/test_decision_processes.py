"""The computer players' decisions run in as many processes as the bot has CPUs (issue
30.4): a decision goes to an idle process, another process is started while all are busy
and there are fewer than the CPUs, so the tables of different chats do not wait for each
other's «мастер»; a process that dies is replaced."""

from __future__ import annotations

import asyncio

import pytest

import games
from bot import decisions as decisions_module
from bot.decisions import Decisions, Job, default_decision_processes, make_job
from games.players import computer_id


def job(seed: int, level: str = "master") -> Job:
    """A «Морской крест» decision with a choice (a «мастер» searches it: about 0.1 s)."""
    g = games.get("sea_cross")
    state = g.new([1, computer_id(0)], seed=seed)
    while len(g.legal_actions(state)) < 2:
        state, _ = g.apply(state, g.legal_actions(state)[0])
    view = g.view(state, g.to_act(state))
    return make_job("sea_cross", level, view, g.legal_actions(state), seed)


def test_one_decision_process_per_usable_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    assert [default_decision_processes(n) for n in (1, 2, 3, 16)] == [1, 2, 3, 8]
    monkeypatch.setattr(decisions_module, "usable_cpus", lambda: 3)
    assert Decisions().processes == 3


async def test_decisions_of_two_tables_run_side_by_side_in_two_processes() -> None:
    decisions = Decisions(processes=2)
    try:
        first = await decisions.decide(job(1, "novice"))  # one process, started now
        assert len(decisions._workers) == 1 and decisions.pending == 0
        # two tables' decisions at once: the first goes to the idle process, and the
        # second, finding it busy, to a second process (not behind the first)
        both = [asyncio.ensure_future(decisions.decide(job(s))) for s in (2, 3)]
        # a third: with both busy and no CPU left, behind the least busy of them
        third = asyncio.ensure_future(decisions.decide(job(4)))
        answers = await asyncio.gather(*both, third)
        g = games.get("sea_cross")
        for code, j in zip([first, *answers], [job(1), job(2), job(3), job(4)], strict=True):
            assert g.decode_action(code) in [g.decode_action(x) for x in j[3]]
        assert len(decisions._workers) == 2
        assert decisions.decided == 4 and decisions.pending == 0
    finally:
        await decisions.close()


async def test_a_decision_process_that_dies_is_replaced() -> None:
    decisions = Decisions(processes=1)
    try:
        await decisions.decide(job(1, "novice"))
        (worker,) = decisions._workers
        worker._proc.kill()
        await worker._proc.wait()
        assert await decisions.decide(job(2, "novice"))  # a new process answers
        assert decisions._workers and decisions._workers[0] is not worker
    finally:
        await decisions.close()


def test_a_worker_answers_the_action_and_whether_a_guard_cut_the_search() -> None:
    """The worker's answer carries what cut «мастер»'s search short (None: its counted
    work ended it), which the bot counts and logs (`Decisions.cut`)."""
    from bot.decision_worker import answer, decide_job
    from games.players import policy
    from games.search import Master

    code, search = answer(job(5))
    assert code == decide_job(*job(5)) and search is not None and search.cut is None
    assert answer(job(5, "novice"))[1] is None  # no search
    master = policy("sea_cross", "master")
    assert isinstance(master, Master)
    budget = master.budget
    try:
        master.budget = 0.0  # the worker's own instance: a guard that fires at once
        cut = answer(job(5))[1]
        assert cut is not None and cut.cut == "cpu"
    finally:
        master.budget = budget
