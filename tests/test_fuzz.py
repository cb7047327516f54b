"""napkit fuzz (spec/conformance.md part 4): choice sequences and shrinking, the reference found
clean, mutants found and reduced to reproducers that ``napkit conform --case`` fails, runs
replayed by their seed, programs that make their own chance events, and bad input.

The full table of mutants (each found within 20 s) is benchmarks/fuzz_mutants.py's; here a
sample of them, one per phase of play and match, runs in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from napkit.conform.fuzz.shrink import Choices, shrink
from napkit.conform.report.numbering import labels

ROOT = Path(__file__).resolve().parents[1]
MUTANT = ROOT / "conformance" / "mutants" / "adapter.py"
DEALS_ITSELF = ROOT / "tests" / "fixtures" / "adapters" / "deals_itself.py"
DIES = ROOT / "tests" / "fixtures" / "adapters" / "dies_when_restarted.py"
SLOW = ROOT / "tests" / "fixtures" / "adapters" / "slow.py"
# Budgets in hands, not seconds, and time limits no busy machine reaches: what a run finds
# is the seed's, however slow the machine (a mutant is found within 20 episodes of its seed;
# the cap only ends a run that would find nothing). Only shrinking is given seconds.
FIND = ("--hands", "1000", "--first")  # found within 1,000 episodes: stop there
PATIENT = ("--timeout", "300", "--start-timeout", "300")


def napkit(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None,
           timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "napkit", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout, check=False,
                          env={**os.environ, **(env or {})})


def fuzz(tmp_path: Path, *args: str, program: list[str] | None = None,
         env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str],
                                                      dict[str, Any]]:
    report = tmp_path / "report.json"
    command = ["fuzz", "-q", "--json", str(report), "-o", str(tmp_path / "case.json"),
               *PATIENT, *args]
    if program:
        command += ["--", *program]
    run = napkit(*command, env=env)
    assert "Traceback" not in run.stderr, run.stderr
    data = json.loads(report.read_text()) if report.exists() else {}
    return run, data


# --- choice sequences ------------------------------------------------------------------------
def test_choices_replay_gives_the_same_draws() -> None:
    first = Choices(seed=11)
    drawn = [first.randrange(52), first.random(), first.choice("abcdef"), first.getrandbits(7)]
    pack = list(range(24))
    first.shuffle(pack)
    again = Choices(replay=first.drawn)
    copy = list(range(24))
    assert [again.randrange(52), again.random(), again.choice("abcdef"),
            again.getrandbits(7)] == drawn
    again.shuffle(copy)
    assert copy == pack
    assert again.drawn == first.drawn


def test_choices_past_the_end_are_the_first_choice() -> None:
    rng = Choices(replay=[3])
    assert rng.randrange(10) == 3
    assert [rng.randrange(10), rng.choice("xyz"), rng.random()] == [0, "x", 0.0]


def test_choices_out_of_range_wrap_round() -> None:
    assert Choices(replay=[12]).randrange(5) == 2


def test_shrink_finds_the_smallest_failing_list() -> None:
    # A "program" that fails when it draws, among its first five numbers below 100, one of
    # at least 40 somewhere after a 7: the smallest such list is [7, 40].
    def fails(candidate: list[int]) -> list[int] | None:
        rng = Choices(replay=candidate)
        values = [rng.randrange(100) for _ in range(5)]
        if 7 in values and any(v >= 40 for v in values[values.index(7) + 1:]):
            return rng.drawn
        return None

    start = [3, 99, 7, 12, 88, 5, 61]
    assert fails(start) is not None
    result = shrink(start, fails)
    assert result.choices[:2] == [7, 40]
    assert not any(result.choices[2:])
    assert result.stopped == "done"


def test_shrink_keeps_to_its_budget() -> None:
    calls: list[int] = []

    def fails(candidate: list[int]) -> list[int] | None:
        calls.append(1)
        return candidate if sum(candidate) >= 1000 else None

    result = shrink([500] * 50, fails, max_tries=25)
    assert len(calls) == 25
    assert result.stopped == "tries"
    assert sum(result.choices) >= 1000


# --- the reference -----------------------------------------------------------------------------
def test_the_reference_adapter_is_found_clean(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "120", "--seed", "5")
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["disagreement"] is None
    assert report["episodes"] == 120 and report["hands"] >= 120
    reached = report["reached"]
    assert any(k.endswith(" made") for k in reached) and any(
        k.endswith(" defeated") for k in reached), reached
    assert report["breaches"], "no illegal action was tried"
    assert set(report["kinds"]) == {"legal", "illegal", "outcome", "match"}
    assert not (tmp_path / "case.json").exists()


def test_a_seed_replays_a_run_exactly(tmp_path: Path) -> None:
    reports = []
    for folder, seed in (("a", "77"), ("b", "77"), ("c", "78")):
        (tmp_path / folder).mkdir()
        _, report = fuzz(tmp_path / folder, "--hands", "30", "--seed", seed)
        report.pop("seconds")
        report.pop("seconds_playing")
        reports.append(report)
    first, second, other = reports
    assert first == second
    assert (other["steps"], other["reached"]) != (first["steps"], first["reached"])


def test_shards_split_the_episodes(tmp_path: Path) -> None:
    (tmp_path / "all").mkdir()
    (tmp_path / "one").mkdir()
    _, whole = fuzz(tmp_path / "all", "--hands", "20", "--seed", "3")
    _, half = fuzz(tmp_path / "one", "--hands", "10", "--seed", "3", "--shard", "2/2")
    assert half["episodes"] == 10
    assert half["steps"] < whole["steps"]


# --- mutants -----------------------------------------------------------------------------------
# One mutant of each phase of play and of the match, found within 20 s and shrunk, and its
# reproducer failed by the mutant and passed by the reference under napkit conform --case.
SAMPLE = [("revoke-allowed", "classic"), ("auction-opens-with-dealer", "pagat"),
          ("purchase-cost-per-card", "pagat-purchase"), ("void-suit-named", "peep"),
          ("dealer-passes-right", "classic"), ("pool-not-won", "pagat-floater"),
          ("trumps-named-before-exchange", "pagat-floater")]


@pytest.mark.parametrize(("name", "ruleset"), SAMPLE)
def test_a_mutant_is_found_and_its_reproducer_fails(tmp_path: Path, name: str,
                                                     ruleset: str) -> None:
    program = [sys.executable, str(MUTANT), name]
    run, report = fuzz(tmp_path, *FIND, "--seed", "1", "--ruleset", ruleset,
                       "--shrink-seconds", "10", program=program)
    assert run.returncode == 1, run.stdout + run.stderr
    found = report["disagreement"]
    assert found is not None and found["episode"] < 20
    assert found["steps"] <= found["steps_before_shrinking"]
    case = tmp_path / "case.json"
    assert json.loads(case.read_text())["tags"][:2] == ["generated", "fuzz"]
    # The readable reproducer: the deal as cards per seat, the rule and its text.
    assert "The deal" in run.stdout or "The steps" in run.stdout
    assert f"reproducer: {case}" in run.stdout
    rerun = napkit("conform", "--case", str(case), "-q", *PATIENT, "--", *program)
    assert rerun.returncode == 1 and "FAILED" in rerun.stdout, rerun.stdout + rerun.stderr
    clean = napkit("conform", "--case", str(case), "-q")
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_a_found_revoke_is_reported_with_its_rule_and_cards(tmp_path: Path) -> None:
    program = [sys.executable, str(MUTANT), "revoke-allowed"]
    run, report = fuzz(tmp_path, *FIND, "--seed", "3", "--ruleset", "classic",
                       program=program)
    assert run.returncode == 1
    assert "NAP-8.1.1 Following suit" in run.stdout
    assert "not legal but listed" in report["disagreement"]["message"]
    case = report["disagreement"]["case"]
    assert case["kind"] == "legal" and "NAP-8.1.1" in case["rules"]
    assert case["steps"][-1]["legal"], "the step that differs carries its legal list"
    # The deal is shown as cards per seat: "seat N  S: ..." lines.
    assert any(line.strip().startswith("seat ") and ":" in line
               for line in run.stdout.splitlines())
    # Its steps are numbered as napkit conform, replay and explain number them: step 0 is the
    # deal, and the step that differs is the case's last (the one carrying the legal list).
    assert "step 0 is the deal, step 1 the first action after it" in run.stdout
    last = labels(case["steps"], case["start"]["type"] == "start-match")[-1]
    assert f"At {last}: " in run.stdout, run.stdout


# --- programs that make their own chance events ------------------------------------------------
def test_a_program_that_deals_for_itself_is_fuzzed_to_the_end(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "60", "--seed", "4",
                       program=[sys.executable, str(DEALS_ITSELF), "9"])
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["disagreement"] is None and report["episodes"] == 60
    # It is never handed a pack to refuse: no chance tries.
    assert not {"deal", "deal-first", "reshuffle", "shuffle-pack"} & set(report["breaches"])


def test_a_planted_bug_in_a_program_that_deals_for_itself_is_reported(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "200", "--seed", "4",
                       program=[sys.executable, str(DEALS_ITSELF), "9", "--bug",
                                "highest-card-wins"])
    assert run.returncode == 1, run.stdout + run.stderr
    found = report["disagreement"]
    assert found is not None
    assert "not shrunk: the program makes its own chance events" in run.stdout


def test_an_impossible_deal_is_named_with_its_rule(tmp_path: Path) -> None:
    run, report = fuzz(tmp_path, "--hands", "50", "--seed", "4",
                       program=[sys.executable, str(DEALS_ITSELF), "9", "--bad-deal"])
    assert run.returncode == 1
    message = report["disagreement"]["message"]
    assert message.startswith("made a chance event the rules refuse")
    assert "NAP-2.2.1" in message and "twice" in message


def test_conform_skips_every_case_of_a_program_that_deals_for_itself(tmp_path: Path) -> None:
    run = napkit("conform", "--ruleset", "classic", "--kind", "outcome", "--json",
                 str(tmp_path / "r.json"), "-q", "--", sys.executable, str(DEALS_ITSELF))
    report = json.loads((tmp_path / "r.json").read_text())
    statuses = {c["status"] for c in report["cases"]}
    assert statuses == {"skipped"}, run.stdout


def test_workers_need_the_harness_to_deal(tmp_path: Path) -> None:
    run, _ = fuzz(tmp_path, "--hands", "5", "-j", "2",
                  program=[sys.executable, str(DEALS_ITSELF), "9"])
    assert run.returncode == 2
    assert "-j N needs the harness to make the chance events" in run.stderr


def test_program_deals_needs_the_declaration(tmp_path: Path) -> None:
    run, _ = fuzz(tmp_path, "--hands", "5", "--program-deals")
    assert run.returncode == 2
    assert "does not declare that it makes chance events" in run.stderr


# --- bad input ---------------------------------------------------------------------------------
def test_a_program_that_dies_while_shrinking_keeps_what_was_found(tmp_path: Path) -> None:
    state = tmp_path / "started"
    run, report = fuzz(tmp_path, *FIND, "--seed", "3", "--ruleset", "classic",
                       program=[sys.executable, str(DIES), "revoke-allowed"],
                       env={"NAPKIT_TEST_STATE": str(state)})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "shrinking stopped: the program could not be started again" in run.stdout
    assert report["disagreement"]["reproducer"] == str(tmp_path / "case.json")
    assert (tmp_path / "case.json").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--shard", "3/2"], "a shard is K/N, the K-th of N slices with 1 <= K <= N"),
    (["--option", "pack"], "--option takes NAME=CHOICE, not 'pack'"),
    (["--seed", str(2 ** 53)], "a seed is a whole number from 0 to 9007199254740991"),
    (["--players", "11"], "a number of players is a whole number from 2 to 10"),
    (["--ruleset", "nonesuch"], "does not declare ruleset 'nonesuch'"),
    (["--seconds", "0"], "a time is a finite number of seconds above 0"),
])
def test_bad_arguments_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    run, _ = fuzz(tmp_path, *args)
    assert run.returncode == 2
    assert message in run.stderr
    assert len(run.stderr.strip().splitlines()) <= 3  # argparse's usage line, then the message


def test_a_malformed_ruleset_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "house.json"
    bad.write_text('{"id": "house", "extends": "classic",', encoding="utf-8")
    run, _ = fuzz(tmp_path, "--ruleset-file", str(bad), "--hands", "5")
    assert run.returncode in (1, 2)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "house.json" in lines[0], run.stderr


def test_a_program_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    run, _ = fuzz(tmp_path, "--hands", "5", program=[str(tmp_path / "no-such-program")])
    assert run.returncode == 1
    assert "cannot start" in run.stderr and "Traceback" not in run.stderr


# --- house rulesets ----------------------------------------------------------------------------
HOUSE = ROOT / "spec" / "examples" / "house-two-no-wellington.json"
PLAYS_HOUSE = ROOT / "tests" / "fixtures" / "adapters" / "plays_house.py"


def test_a_house_game_is_fuzzed_against_the_engine_compiled_from_its_file(tmp_path: Path
                                                                           ) -> None:
    run, report = fuzz(tmp_path, "--hands", "80", "--seed", "2", "--ruleset-file", str(HOUSE),
                       program=[sys.executable, str(PLAYS_HOUSE)])
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["rulesets"] == ["two-no-wellington"]
    assert any(k.startswith("two ") for k in report["reached"]), report["reached"]
    assert not any(k.startswith("wellington") for k in report["reached"])


def test_a_bug_of_a_house_game_is_found_and_rerun(tmp_path: Path) -> None:
    program = [sys.executable, str(PLAYS_HOUSE), "--bug"]
    run, report = fuzz(tmp_path, "--hands", "300", "--seed", "2", "--ruleset-file", str(HOUSE),
                       program=program)
    assert run.returncode == 1, run.stdout + run.stderr
    found = report["disagreement"]
    assert found["message"].startswith("outcome."), found["message"]
    assert "NAP-9.1.1" in found["case"]["rules"]
    case = str(tmp_path / "case.json")
    rerun = napkit("conform", "--case", case, "--ruleset-file", str(HOUSE), "-q", *PATIENT,
                   "--", *program)
    assert rerun.returncode == 1 and "FAILED" in rerun.stdout, rerun.stdout + rerun.stderr
    fixed = napkit("conform", "--case", case, "--ruleset-file", str(HOUSE), "-q", *PATIENT,
                   "--", sys.executable, str(PLAYS_HOUSE))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    # Without the file, the case's game is unknown: one line naming it, not a traceback.
    unknown = napkit("conform", "--case", case, "-q", "--", *program)
    assert unknown.returncode == 1 and "no ruleset 'two-no-wellington'" in unknown.stderr


# --- several workers ---------------------------------------------------------------------------
def test_two_workers_play_the_episodes_of_one(tmp_path: Path) -> None:
    reports = []
    for jobs in ("1", "2"):
        (tmp_path / jobs).mkdir()
        _, report = fuzz(tmp_path / jobs, "--hands", "40", "--seed", "9", "-j", jobs)
        reports.append(report)
    one, two = reports
    for key in ("episodes", "hands", "steps", "reached", "breaches", "rule_not_named"):
        assert one[key] == two[key], key


def test_two_workers_find_the_same_first_disagreement(tmp_path: Path) -> None:
    program = [sys.executable, str(MUTANT), "dealer-passes-right"]
    reports = []
    for jobs in ("1", "2"):
        (tmp_path / jobs).mkdir()
        run, report = fuzz(tmp_path / jobs, *FIND, "--seed", "1", "--ruleset",
                           "classic", "-j", jobs, program=program)
        assert run.returncode == 1, run.stdout + run.stderr
        reports.append(report["disagreement"])
    one, two = reports
    assert one["episode"] == two["episode"]
    assert one["case"] == two["case"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_what_ran_and_exits_130(tmp_path: Path, jobs: str) -> None:
    import signal
    import time

    # Each worker's program plays one batch of episodes and holds the first of the next (it
    # makes a file, and never answers): Ctrl-C then, with no sleep (a fixed wait found no
    # episode done on a busy machine).
    from napkit.conform.fuzz.campaign import GROUP

    held = tmp_path / "held"
    proc = subprocess.Popen([sys.executable, "-m", "napkit", "fuzz", "--hands", "100000",
                             *PATIENT, "--seed", "4", "-j", jobs, "--json",
                             str(tmp_path / "r.json"), "--", sys.executable, str(SLOW), "0",
                             str(GROUP + 1), str(held)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    deadline = time.monotonic() + 300  # only so that a broken run fails, never to pass
    while len(list(tmp_path.glob("held.*"))) < int(jobs):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err
    assert "(interrupted; seed 4)" in out
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["stopped"] == "interrupted" and report["episodes"] == GROUP * int(jobs)


def test_shards_merged_are_the_whole_run(tmp_path: Path) -> None:
    paths = []
    for k in (1, 2, 3):
        (tmp_path / str(k)).mkdir()
        fuzz(tmp_path / str(k), "--hands", "10", "--seed", "6", "--shard", f"{k}/3")
        paths.append(str(tmp_path / str(k) / "report.json"))
    (tmp_path / "all").mkdir()
    _, whole = fuzz(tmp_path / "all", "--hands", "30", "--seed", "6")
    merged_path = tmp_path / "merged.json"
    run = napkit("report", "merge", *paths, "-o", str(merged_path))
    assert run.returncode == 0, run.stdout + run.stderr
    merged = json.loads(merged_path.read_text())
    # (The rules exercised are sampled in each process apart: not compared.)
    for key in ("episodes", "hands", "steps", "reached", "breaches", "rule_not_named",
                "disagreement"):
        assert merged[key] == whole[key], key
    assert merged["shard"] is None
    missing = napkit("report", "merge", *paths[:2], "-o", str(tmp_path / "x.json"))
    assert missing.returncode == 2 and "shard 3/3 is missing" in missing.stderr
    twice = napkit("report", "merge", paths[0], paths[0], paths[1], "-o",
                   str(tmp_path / "y.json"))
    assert twice.returncode == 2 and "is also" in twice.stderr


# --- declarations: forced passes taken by the program, options held at their default ---------
SKIPS_FORCED = ROOT / "tests" / "fixtures" / "adapters" / "skips_forced.py"


def test_a_program_that_takes_its_forced_passes_is_fuzzed_clean(tmp_path: Path) -> None:
    # Asked for the passes it takes itself, it would refuse them (not its turn any more).
    run, report = fuzz(tmp_path, "--hands", "150", "--seed", "1",
                       program=[sys.executable, str(SKIPS_FORCED)])
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["disagreement"] is None and report["episodes"] == 150
    # Its header says so (the passes are neither sent nor tried illegally).
    said = napkit("fuzz", "--hands", "2", "--seed", "1", "--", sys.executable,
                  str(SKIPS_FORCED))
    assert "takes its forced passes itself" in said.stdout, said.stdout + said.stderr


def test_a_bug_of_a_program_that_takes_its_forced_passes_is_found_and_rerun(
        tmp_path: Path) -> None:
    from napkit.conform.suite.cases import load_case
    from napkit.conform.suite.support import forced_passes

    program = [sys.executable, str(SKIPS_FORCED), "--bug", "stakes-ignored"]
    run, report = fuzz(tmp_path, "--hands", "1000", "--seed", "3", "--ruleset", "pub-floater",
                       "--no-shrink", "--first", program=program)
    assert run.returncode == 1, run.stdout + run.stderr
    assert report["disagreement"]["message"].startswith("outcome.payments")
    path = tmp_path / "case.json"
    case, problems = load_case(path, None)
    assert case is not None and not problems
    # The reproducer keeps the forced passes as steps; the rerun leaves them out again.
    assert forced_passes(case)[0]
    rerun = napkit("conform", "--case", str(path), "-q", *PATIENT, "--", *program)
    assert rerun.returncode == 1 and "FAILED" in rerun.stdout, rerun.stdout + rerun.stderr
    assert "outcome.payments" in rerun.stdout
    fixed = napkit("conform", "--case", str(path), "-q", *PATIENT, "--", sys.executable,
                   str(SKIPS_FORCED))
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_an_option_declared_not_applicable_is_drawn_at_its_default_only() -> None:
    from napkit.conform.fuzz.episodes import (
        Games,
        Prober,
        draw_episode,
        episode_words,
        scope_of,
    )
    from napkit.conform.fuzz.shrink import Choices
    from napkit.spec.catalog import default_spec

    rulesets = default_spec().rulesets
    options: dict[str, str] = {name: "*" for name in rulesets["pagat"].options}
    supports = {"kinds": ["legal", "outcome"],
                "rulesets": {"pagat": {"options": {**options, "mis": "n/a"}}}}
    scope = scope_of(supports, rulesets)
    (playable,) = scope.rulesets
    drawn = dict(playable.options)
    assert drawn["mis"] == (rulesets["pagat"].options["mis"].default,)
    assert len(drawn["two"]) > 1 and playable.held == {"mis"}
    games = Games(rulesets)
    for index in range(30):
        episode = draw_episode(scope, games, Prober(), Choices(seed=index), index)
        assert episode.game.options["mis"] == rulesets["pagat"].options["mis"].default
        words = episode_words(episode)
        assert "mis=" not in words and "two=" in words, words


# --- issue 29, the fuzzer's own bugs -----------------------------------------------------
PACKS = {"deal", "deal-first", "reshuffle", "shuffle-pack"}


def test_a_program_that_makes_its_chance_events_too_is_never_handed_a_bad_pack(
        tmp_path: Path) -> None:
    """spec/conformance.md 2.5: a "both" program is never handed a pack the rules refuse (the
    fuzzer tried them, chance != "program"); the other chance tries (a bad cut, a shuffle
    where a cut is due, a first dealer not at the table) it is still handed."""
    both = [sys.executable, "-m", "napkit.protocol.adapter", "--deals-itself"]
    run, report = fuzz(tmp_path, "--hands", "40", "--seed", "5", program=both)
    assert run.returncode == 0, run.stdout + run.stderr
    tried = set(report["breaches"])
    assert tried & PACKS == set() and tried & {"cut", "shuffle", "first-dealer"}, tried
    # The same seed against a program handed every chance event tries the packs on it.
    harness = [sys.executable, "-m", "napkit.protocol.adapter"]
    run, report = fuzz(tmp_path, "--hands", "40", "--seed", "5", program=harness)
    assert run.returncode == 0 and set(report["breaches"]) & PACKS, report["breaches"]


def test_a_position_at_the_end_of_a_hand_says_the_hand_is_over() -> None:
    import random

    from napkit.conform.fuzz.reproducer import position
    from napkit.engine.game import Game
    from napkit.players.playout import play_out

    hand = play_out(Game.create("classic", 3).new_hand(0), random.Random(1))
    said = position(hand)
    assert said.startswith("the hand is over") and "in its over" not in said, said


def test_the_summary_counts_in_words() -> None:
    run = napkit("fuzz", "--hands", "1", "--seed", "1", *PATIENT)
    last = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0 and "(done; seed 1)" in last and "1 episode (" in last, last


def test_kind_keeps_to_one_kind_of_case_as_conform_does(tmp_path: Path) -> None:
    """--kind, as napkit conform has it: only matches fuzzed here; a kind the program does not
    declare is a usage error naming its kinds."""
    run, report = fuzz(tmp_path, "--kind", "match", "--hands", "10", "--seed", "3")
    assert run.returncode == 0 and report["kinds"] == ["match"], report["kinds"]
    # limited.py declares the kinds illegal and outcome only.
    limited = [sys.executable, str(ROOT / "tests" / "fixtures" / "adapters" / "limited.py")]
    refused = napkit("fuzz", "--kind", "match", "--hands", "1", *PATIENT, "--", *limited)
    assert refused.returncode == 2, refused.stderr
    assert "does not declare kind 'match' in its handshake (its kinds: illegal, outcome)" in \
        refused.stderr, refused.stderr
