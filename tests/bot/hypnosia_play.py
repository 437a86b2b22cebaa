"""Playing «Гипнозия» at the table: what a simple player presses (its end-to-end tests and
the AFK tests)."""

from __future__ import annotations

import re

MOVE = re.compile(r"^(№\d|Пара \d&\d).* \+(\d)")


def choose(texts: list[str]) -> str:
    """A purposeful player: into the centre, across a bridge, capture, go deep, go far."""

    def score(label: str) -> int:
        if label.startswith("🎲 "):  # the die choice: the bigger die first
            return int(label.split()[1])
        value = 0
        if "центр" in label:
            value += 1000
        if "⤵" in label:
            value += 100
        if "⚔" in label:
            value += 20
        die = re.search(r" \+(\d)", label)
        if die:
            value += int(die.group(1))
        return value

    offered = [x for x in texts if x.startswith("🎲 ") or MOVE.match(x)]
    assert offered, texts
    return max(offered, key=score)
