"""The pytest plugin (issue 12, item 4): the suite as one pytest test per case, run in process
against a Python program's adapter class, here napkit's own and a deliberately broken one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BROKEN = '''
from conformance.mutants import REGISTRY
from napkit.protocol.adapter import Adapter

REGISTRY["revoke-allowed"].apply()  # the engine lets a player keep the suit led


class Broken(Adapter):
    """napkit's adapter over an engine that allows revokes."""
'''

CRASHING = '''
from napkit.protocol.adapter import Adapter


class Crashing(Adapter):
    def handle(self, request):
        if request.get("type") == "legal":
            raise RuntimeError("my bug")
        return super().handle(request)
'''


def pytest_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "broken_nap.py").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "crashing_nap.py").write_text(CRASHING, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-p", "no:randomly", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def test_the_reference_passes_every_chosen_case(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "--napkit=napkit.protocol.adapter:Adapter", "-k", "pagat-floater",
                      "--junitxml", str(tmp_path / "nap.xml"))
    assert done.returncode == 0, done.stdout[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary
    count = int(summary.split()[0])
    assert count > 250  # pagat-floater's cases, one test each
    assert (tmp_path / "nap.xml").read_text(encoding="utf-8").count("<testcase") == count


def test_a_broken_program_fails_case_by_case(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "--napkit=broken_nap:Broken", "-k", "pagat and illegal")
    assert done.returncode == 1
    out = done.stdout
    assert "FAILED pagat/illegal/" in out and " passed" in out  # the rest still pass
    failed = [line.split()[1] for line in out.splitlines() if line.startswith("FAILED ")]
    assert failed and all("revoke" in case_id for case_id in failed)
    assert "NAP-8.1.1" in out  # the revoke the case expected refused
    assert "rerun: pytest --napkit=broken_nap:Broken -k 'pagat/illegal/" in out


def test_a_program_that_raises_fails_the_case_not_the_run(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "--napkit=crashing_nap:Crashing", "-k", "classic/legal", "-x")
    assert done.returncode == 1
    assert "raised RuntimeError: my bug" in done.stdout
    assert "1 failed" in done.stdout  # -x stopped at the first


def test_without_the_option_the_plugin_adds_nothing(tmp_path: Path) -> None:
    done = pytest_run(tmp_path)
    assert done.returncode == 5  # no tests collected
    assert "napkit" not in done.stdout.lower() or "no tests ran" in done.stdout


def test_a_wrong_class_is_a_usage_error(tmp_path: Path) -> None:
    done = pytest_run(tmp_path, "--napkit=no_such_module:X")
    assert done.returncode == 4
    assert "cannot import no_such_module" in done.stderr


SMALL = '''
"""A Nap program as one small class (napkit.protocol.pyprogram.NapProgram), here built on
napkit's engine, as another program would be built on its own."""

from napkit import Game, new_match
from napkit.protocol.adapter import supports
from napkit.protocol.pyprogram import Refused
from napkit.engine.state import CHANCE
from napkit.errors import RuleError
from napkit.formats.records import hand_outcome
from napkit.formats.values import action_from_json, action_to_json


class SmallNap:
    name, version = "small-nap", "0.1"

    def __init__(self):
        self.state = None

    def supports(self):
        return supports()

    def start_hand(self, start):
        game = Game.create(start["ruleset"], start["players"], start["options"])
        funds = start["funds"]
        self.state = game.new_hand(start["dealer"], seats=tuple(start["seats"]),
                                   pool=start["pool"], stakes=start["stakes"],
                                   funds=tuple(funds) if funds is not None else None)

    def start_match(self, start):
        game = Game.create(start["ruleset"], start["players"], start["options"])
        self.state = new_match(game, hands=start["hands"], chips=start["chips"])

    def turn(self):
        if self.state.is_over():
            return "over"
        return "chance" if self.state.turn == CHANCE else self.state.turn

    def legal_actions(self):
        return [action_to_json(a) for a in self.state.legal_actions()]

    def apply(self, seat, action):
        turn = self.turn()
        if turn != "over" and seat != (None if turn == "chance" else turn):
            raise Refused("NAP-1.3.1", "not your turn")
        try:
            self.state = self.state.apply(action_from_json(action))
        except RuleError as exc:
            raise Refused(exc.rule, exc.message) from None

    def outcome(self):
        if not self.state.is_over():
            return None
        if hasattr(self.state, "hand_limit"):
            r = self.state.result
            out = [s for s in range(self.state.game.players) if self.state.out >> s & 1]
            return {"balances": list(r.balances), "pool": r.pool, "winners": list(r.winners),
                    "hands": r.hands, "out": out}
        return hand_outcome(self.state)
'''


def test_a_small_class_is_spoken_for(tmp_path: Path) -> None:
    (tmp_path / "small_nap.py").write_text(SMALL, encoding="utf-8")
    done = pytest_run(tmp_path, "--napkit=small_nap:SmallNap", "-k", "classic")
    assert done.returncode == 0, done.stdout[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert int(summary.split()[0]) > 300 and "failed" not in summary
