"""Summarise a py-spy `--format raw` profile (collapsed stacks) as inclusive shares.

python -m bench.profile PROFILE.txt [--top 40] [--match bot/,render/]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

_FRAME = re.compile(r"^(?P<func>.+?) \((?P<file>.+?)(?::\d+)?\)$")


def load(path: Path) -> tuple[Counter[str], Counter[str], int]:
    """(inclusive samples per function, self samples per function, total samples)."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = []
        for raw in stack.split(";"):
            m = _FRAME.match(raw.strip())
            if m is None:
                frames.append(raw.strip())
                continue
            file = m.group("file")
            for cut in ("site-packages/", "/work/main/", "lib/python3.11/"):
                if cut in file:
                    file = file.split(cut, 1)[1]
            frames.append(f"{m.group('func')} ({file})")
        for f in set(frames):
            inclusive[f] += n
        if frames:
            own[frames[-1]] += n
    return inclusive, own, total


def summary(path: Path, top: int = 40, match: tuple[str, ...] = ()) -> str:
    inclusive, own, total = load(path)
    out = [f"{path.name}: {total} samples"]
    out.append("inclusive:")
    shown = 0
    for f, n in inclusive.most_common():
        if match and not any(m in f for m in match):
            continue
        out.append(f"  {100 * n / total:5.1f}%  {f}")
        shown += 1
        if shown >= top:
            break
    out.append("self:")
    for f, n in own.most_common(top // 2):
        out.append(f"  {100 * n / total:5.1f}%  {f}")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--match", default="")
    args = parser.parse_args()
    match = tuple(x for x in args.match.split(",") if x)
    print(summary(Path(args.profile), args.top, match))


if __name__ == "__main__":
    main()
