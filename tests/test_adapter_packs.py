"""The reference adapter's short way with chance's packs (napkit.protocol.adapter._pack_action): a
deal,
shuffle or reshuffle line written as napkit writes it is taken without being read as JSON, and
its answer, and the play it leaves, must be the very ones of the full path (read strictly,
checked, served, encoded: ``Adapter._read_line``), whatever the line holds: a key twice, a
space, a card not written as napkit writes it, too many cards, NaN, non-ASCII, an escape, a
lone surrogate, another field. Each odd line is answered by two adapters in the same state,
one by ``handle_line``, one by the full path, and then the line as napkit writes it."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from napkit.engine.actions import CHANCE_TYPES, Action, Buy, Deal, Reshuffle, Shuffle
from napkit.engine.cards import CARD_NAMES
from napkit.engine.game import Game
from napkit.engine.hand import HandState
from napkit.engine.match import MatchState, new_match
from napkit.engine.state import CHANCE
from napkit.formats.values import CARD_TEXTS, action_from_json, action_to_json, card_from_json
from napkit.protocol import adapter as adapter_module
from napkit.protocol.adapter import Adapter

ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # as a session writes
# Games whose play meets a deal, a shuffle (a floater's thrown-in pack) and a reshuffle.
GAMES: list[tuple[str, int, dict[str, str], bool]] = [
    ("pagat", 4, {}, False),
    ("pagat-floater", 5, {"packets": "2-3", "floater-prerequisites": "none",
                          "kitty-at-end": "unclaimed", "throw-in-pack": "shuffle"}, True),
    ("pagat-purchase", 9, {"players": "three-to-ten", "pack": "full", "mis": "on",
                           "short-stock": "reshuffle-discards"}, False),
    ("classic", 5, {}, True),
]
# A deal of pagat's pack of 52 for four (chance's first event: dealer 0), in napkit's form.
FIRST = ["AS", "7H", "10H", "KD"]
PACK = FIRST + [n for n in CARD_NAMES if n not in (*FIRST, "QS")] + ["QS"]
DEAL = ENCODER.encode({"type": "apply", "seat": None,
                       "action": {"type": "deal", "pack": PACK}})[1:]  # after {"id":N,
# Bodies (what follows {"id":N,) that look like napkit's but are not all it writes.
ODD_BODIES = [
    DEAL.replace('"pack":', '"pack":[],"pack":'),  # a key twice
    DEAL.replace('{"type":"deal"', '{"type":"deal","type":"deal"'),
    DEAL.replace('"seat":null', '"seat":null,"seat":null'),
    DEAL.replace(',"AS"', ', "AS"').replace('"pack":["AS"', '"pack":[ "AS"'),  # spaces
    DEAL.replace('"AS",', '"AS" ,'), DEAL + " ", " " + DEAL, DEAL.replace("]}}", "] }}"),
    DEAL.replace('"AS"', '"as"'), DEAL.replace('"10H"', '"TH"'),  # read, but not napkit's
    DEAL.replace('"AS"', '" AS"'), DEAL.replace('"AS"', '"\\u0041S"'),  # an escape
    DEAL.replace('"AS"', '"1S"'), DEAL.replace('"AS"', '"ZZ"'), DEAL.replace('"AS"', '""'),
    DEAL.replace('"AS"', '"\u00c1S"'), DEAL.replace('"AS"', '"\\ud800"'),  # non-ASCII
    DEAL.replace('"AS"', "NaN"), DEAL.replace('"AS"', "1"), DEAL.replace('"AS"', "null"),
    DEAL.replace('"AS"', '["AS"]'), DEAL.replace('"AS",', ""), DEAL.replace('"AS",', ","),
    DEAL.replace('"AS",', '"AS",,'), DEAL.replace(']}}', ',]}}'), DEAL.replace("]}}", "]}}}"),
    DEAL.replace("]}}", "]}"), DEAL.replace("]}}", "]},}"), DEAL.replace("]}}", "],\"x\":1}}"),
    DEAL.replace("]}}", "]}, \"x\":1}"),
    DEAL.replace("]}}", "}}]"), DEAL.replace("]}}", "]}]"), DEAL.replace("]}}", "]]}"),
    DEAL.replace("]}}", "000"), DEAL.replace('"QS"]}}', '"QS"'),
    DEAL.replace('"QS"', ",".join(f'"{c}"' for c in CARD_NAMES)),  # too many, most twice
    DEAL.replace(',"QS"', ""),  # too few
    DEAL.replace('"QS"', '"AS"'),  # a card twice
    '"type":"apply","seat":null,"action":{"type":"deal","pack":[]}}',  # none
    '"type":"apply","seat":null,"action":{"type":"deal","stock":["AS"]}}',
    '"type":"apply","seat":null,"action":{"type":"reshuffle","pack":["AS"]}}',
    '"type":"apply","seat":null,"action":{"type":"shuffle","stock":["AS"]}}',
    '"type":"apply","seat":null,"action":{"type":"Deal","pack":["AS"]}}',
    '"type":"apply","seat":null,"action":{"pack":["AS"],"type":"deal"}}',  # in another order
    '"seat":null,"type":"apply","action":{"type":"deal","pack":["AS"]}}',
    '"type":"apply","seat":0,"action":{"type":"deal","pack":["AS"]}}',
    '"type":"apply","seat":null,"action":{"type":"deal","pack":["AS"]}',
    '"type":"apply","seat":null,"action":{"type":"deal","pack":"AS"}}',
    '"type":"apply","seat":null,"action":{"type":"deal","pack":["AS"]}}\r',
    '"type":"apply","seat":null,"action":{"type":"deal","pack":[[]]}}',
    '"type":"apply","seat":null,"action":{"type":"deal","pack":["AS"]}}]}}',
]
IDS = [b"7", b"0", b"007", b"-1", b"1.0", b"9007199254740992", b'"7"']


def line(ident: int, request: dict[str, object]) -> bytes:
    return ENCODER.encode({"id": ident, **request}).encode()


def starts() -> Iterator[tuple[bytes, HandState | MatchState]]:
    """Each game's start line and the state it starts."""
    for ruleset, players, options, match in GAMES:
        game = Game.create(ruleset, players, options)
        start: dict[str, object] = {"ruleset": ruleset, "options": options, "players": players}
        if match:
            yield line(1, {"type": "start-match", **start, "hands": 3, "chips": None}), \
                new_match(game, hands=3, chips=None)
        else:
            yield line(1, {"type": "start-hand", **start, "dealer": 0,
                           "seats": list(range(players)), "pool": 0, "funds": None,
                           "stakes": 1}), game.new_hand(0)


def chance_points(seed: int) -> Iterator[tuple[HandState | MatchState, Action]]:
    """Each state of play of the games where chance is to act, with the event drawn."""
    rng = random.Random(seed)
    for _, start in starts():
        state = start
        while not state.is_over():
            action: Action
            if state.turn == CHANCE:
                action = state.sample_chance(rng)
                yield state, action
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                if isinstance(action, Buy):  # the most cards: the stock runs short
                    action = max(legal, key=lambda a: a.cards.bit_count()
                                 if isinstance(a, Buy) else -1)
            state = state.apply(action)


@functools.cache
def packs(seed: int) -> list[tuple[HandState | MatchState, Action]]:
    """The states of :func:`chance_points` where chance deals, shuffles or reshuffles."""
    return [(s, a) for s, a in chance_points(seed) if isinstance(a, (Deal, Shuffle, Reshuffle))]


def same_answers(state: HandState | MatchState | None, raw: bytes) -> bool:
    """Whether the line is answered alike, and leaves play alike, by ``handle_line`` and by
    the full path, from ``state``."""
    fast, full = Adapter(), Adapter()
    fast.state = full.state = state
    answer = fast.handle_line(raw)
    assert answer == full._read_line(raw, None), raw
    assert fast.state == full.state, raw
    return fast.state is not state


def pack_line(ident: bytes, body: str) -> bytes:
    return b'{"id":' + ident + b"," + body.encode("utf-8", "surrogatepass")


def test_each_card_text_is_the_card_as_napkit_writes_and_reads_it() -> None:
    assert len(CARD_TEXTS) == 52
    for text, card in CARD_TEXTS.items():
        assert text == ENCODER.encode(CARD_NAMES[card]).encode()
        assert card_from_json(json.loads(text), []) == card


def test_packs_as_napkit_writes_them_are_taken_short_and_answered_alike() -> None:
    kinds: set[type] = set()
    taken = 0
    for seed in range(3):
        for state, action in chance_points(seed):
            raw = line(9, {"type": "apply", "seat": None, "action": action_to_json(action)})
            body = raw[len(b'{"id":9,'):]
            short = adapter_module._pack_action(body)
            if isinstance(action, (Deal, Shuffle, Reshuffle)):
                assert short == action == action_from_json(json.loads(raw)["action"])
                kinds.add(type(action))
                taken += 1
            else:  # a cut, a first dealer: read in full
                assert isinstance(action, CHANCE_TYPES) and short is None
            assert same_answers(state, raw)  # accepted
            assert not same_answers(state.apply(action), raw)  # chance is not to act now
    assert kinds == {Deal, Shuffle, Reshuffle} and taken > 20


def test_odd_pack_lines_are_answered_as_the_full_path_answers_them() -> None:
    state, _ = next(chance_points(0))
    for body in ODD_BODIES:
        for ident in IDS:
            raw = pack_line(ident, body)
            same_answers(state, raw)
            same_answers(None, raw)  # nothing started
    assert same_answers(state, pack_line(b"7", DEAL))
    accepted = [b for b in ODD_BODIES if same_answers(state, pack_line(b"7", b))]
    assert len(accepted) >= 8  # read and played all the same ("as", "TH", a space)


def test_the_full_path_is_not_taken_for_a_pack_as_napkit_writes_it() -> None:
    state, action = next(chance_points(0))
    adapter = Adapter()
    adapter.state = state
    read: list[bytes | str] = []

    def full_path(line: bytes | str, body: bytes | None) -> bytes:
        read.append(line)
        return b""

    adapter._read_line = full_path  # type: ignore[method-assign]
    raw = line(9, {"type": "apply", "seat": None, "action": action_to_json(action)})
    assert adapter.handle_line(raw) == b'{"id":9,"type":"accepted"}\n' and not read
    assert adapter.state == state.apply(action)
    adapter.state = state
    adapter.handle_line(raw.replace(b'"AS"', b'"as"'))
    assert len(read) == 1


def test_a_cut_or_a_first_dealer_is_remembered_and_a_pack_is_not() -> None:
    """A cut, or the first dealer's draw, is one of a few dozen lines met again and again:
    the next line with the same body is served from the memo, as the full path answers it.
    A line carrying a pack that is not as napkit writes it (read in full) is not kept."""
    remembered = 0
    for state, action in chance_points(0):
        if isinstance(action, (Deal, Shuffle, Reshuffle)):
            continue
        fast, full = Adapter(), Adapter()
        for ident in (5, 6):
            fast.state = full.state = state
            raw = line(ident, {"type": "apply", "seat": None, "action": action_to_json(action)})
            assert fast.handle_line(raw) == full._read_line(raw, None)
            assert fast.state == full.state == state.apply(action)
        assert [kept for _, _, kept in fast.known.values()] == [action]
        remembered += 1
    assert remembered >= 2
    state, _ = next(chance_points(0))
    adapter = Adapter()
    for body in ODD_BODIES:
        adapter.state = state
        adapter.handle_line(pack_line(b"7", body))
    assert not adapter.known


PIECES = [" ", '"', ",", "[", "]", "{", "}", ":", "\\", "\\u0041", "\\ud800", "\u00e9",
          "\ud800", "\x00", "\r", "NaN", "1", "-0", "1e3", "null", "true", "T", "a", "10", "AS",
          '"AS"', '"AS",', '"pack":', '"type":"deal",', '"stock":[],', '"seat":null,',
          '"x":1,', "deal", "shuffle", "reshuffle", "stock", "pack"]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**16), edits=st.lists(st.tuples(
    st.one_of(st.integers(0, 70), st.integers(-8, -1), st.integers(0, 10_000)),
    st.integers(0, 3), st.sampled_from(PIECES)), min_size=1, max_size=4))
def test_mutated_pack_lines_are_answered_as_the_full_path_answers_them(
        seed: int, edits: list[tuple[int, int, str]]) -> None:
    states = packs(seed % 3)
    state, action = states[random.Random(seed).randrange(len(states))]
    body = ENCODER.encode({"type": "apply", "seat": None, "action": action_to_json(action)})
    body = body[1:]  # what follows {"id":N,
    for place, cut, piece in edits:  # a piece put in, and a few characters taken out
        at = place % (len(body) + 1)  # (from the end where negative)
        body = body[:at] + piece + body[at + cut:]
    same_answers(state, pack_line(b"5", body))


def test_a_subclass_that_answers_its_own_way_sees_every_pack() -> None:
    class Counting(Adapter):
        asked = 0

        def _apply(self, request: dict[str, object]) -> dict[str, object]:
            self.asked += 1
            return super()._apply(request)

    state, action = next(chance_points(0))
    counting, plain = Counting(), Adapter()
    counting.state = plain.state = state
    raw = line(9, {"type": "apply", "seat": None, "action": action_to_json(action)})
    assert counting.handle_line(raw) == plain.handle_line(raw) == b'{"id":9,"type":"accepted"}\n'
    assert counting.asked == 1
