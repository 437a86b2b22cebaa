"""The wire format of «Семидорожник» does not move: stored states, action codes and view
JSON stay byte for byte what they were before the tile kinds became `TileKind` members
and `View.turn` a `TurnView` (December 2026).

`wire/` holds what the engine gave then, for one game (four players, seed 1, 500 random
legal actions with `random.Random(1)`): the last state's JSON, its public view and seat
1's view, and the code of every legal action met, in order; `DIGEST` is the SHA-256 of
every state's JSON, every view's (public and each player's) and every legal action's code
along the way. (The digest changed once since: in a first-move window a seat's view names
as current only the seat itself, still to answer — issue 30; states and codes did not.)
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from games.seven_tracks import GAME, Action, ActionType, State
from games.seven_tracks.model import Options, TileKind

WIRE = Path(__file__).parent / "wire"
DIGEST = "afb671c0d9009bb6af44710c2f412973e2075e3ebe18704782d35c251f87182f"
T = ActionType


def _play() -> tuple[State, list[str], str]:
    s = GAME.new([101, 102, 103, 104], seed=1)
    r = random.Random(1)
    h = hashlib.sha256()
    codes: list[str] = []
    for _ in range(500):
        if GAME.is_over(s):
            break
        legal = GAME.legal_actions(s)
        h.update(s.model_dump_json().encode())
        for p in [None, *s.players]:
            h.update(GAME.view(s, p).model_dump_json().encode())
        for a in legal:
            code = a.encode()
            assert GAME.encode_action(a) == code and GAME.decode_action(code) == a
            codes.append(code)
            h.update(code.encode())
        s, _ = GAME.apply(s, r.choice(legal))
    return s, list(dict.fromkeys(codes)), h.hexdigest()


def test_states_views_and_action_codes_are_as_before() -> None:
    s, codes, digest = _play()
    assert s.model_dump_json() + "\n" == (WIRE / "state.json").read_text()
    assert GAME.view(s, None).model_dump_json() + "\n" == (WIRE / "view.json").read_text()
    assert GAME.view(s, 102).model_dump_json() + "\n" == (WIRE / "view_102.json").read_text()
    assert codes == (WIRE / "actions.txt").read_text().split()
    assert digest == DIGEST


def test_a_stored_state_reads_back_byte_for_byte() -> None:
    raw = (WIRE / "state.json").read_text().rstrip("\n")
    s = State.model_validate_json(raw)
    assert s.model_dump_json() == raw
    assert s.options.tile_set[TileKind.CYAN] == 12
    assert s.options.tile_values[TileKind.UNIVERSAL] == 25


def test_tile_kinds_are_their_codes() -> None:
    assert [k.value for k in TileKind] == [
        *("R", "O", "Y", "G", "C", "B", "V", "W", "K"),
        *("SK", "PV", "OP", "RS", "FM", "EX", "U"),
    ]
    code: str = "K"
    assert code == TileKind.BLACK and {code: 1}[TileKind.BLACK] == 1  # equal, one hash
    assert f"{TileKind.SKIP}" == "SK" == str(TileKind.SKIP)
    assert Options().model_dump_json().startswith('{"tile_set":{"R":12,"O":12,')
    cases = {
        "IM,U,,,,OP,1": Action(
            type=T.INSTEAD_OF_MOVE, kind=TileKind.UNIVERSAL, role=TileKind.OPPOSITE, target=1
        ),
        "SH,PV,,,0,PV": Action(type=T.SHIFT, kind=TileKind.PREVIOUS, role="PV", die=0),
        "PL,W,3": Action(type=T.PLACE, kind="W", track=3),
        "FD,FM,,,,,,,2": Action(type=T.FM_DECLARE, kind=TileKind.FIRST_MOVE, seat=2),
    }
    for code, action in cases.items():
        assert action.encode() == code and Action.decode(code) == action
        assert action.model_dump_json() == Action.decode(code).model_dump_json()
    assert '"kind":"U","track":null' in cases["IM,U,,,,OP,1"].model_dump_json()
