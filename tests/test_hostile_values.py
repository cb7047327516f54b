"""Command-line values out of their range are refused with one line naming the option and
the range (issue 13): seeds are whole numbers from 0 to 2^53 - 1. Python's random module
would take -1 as 1 and any larger number, so two seeds would write the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from napkit.cli import EXIT_USAGE, main
from napkit.cli.common import MAX_SEED


@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED + 1), "18446744073709551615", "1e3",
                                  "+5", "0x10", "", "seven"])
def test_a_seed_out_of_range_is_refused(seed: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hand.json"
    for command in (["record", "pagat", "-q", "-o", str(out)], ["play", "pagat", "--watch"]):
        assert main([*command, f"--seed={seed}"]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.startswith(f"napkit: argument --seed: a seed is a whole number from 0 to "
                              f"{MAX_SEED} (2^53 - 1), not {seed!r}")
        assert err.count("\n") == 1
    assert not out.exists()


def test_the_ends_of_the_range_are_seeds(tmp_path: Path) -> None:
    written = []
    for seed in ("0", str(MAX_SEED)):
        out = tmp_path / f"{seed}.json"
        assert main(["record", "pagat", "--seed", seed, "-q", "-o", str(out)]) == 0
        written.append(out.read_bytes())
    assert written[0] != written[1]
