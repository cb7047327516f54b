"""Choices.random from a seed: random.Random(seed)'s draw of 54 bits, drawn again while not
below 2**53 (randrange(2**53)'s rejection), recorded, and divided by 2**53; the replay of the
recorded numbers gives the same floats (the seeded draw is made in line, scaled by 2**-53)."""

from __future__ import annotations

import random

from napkit.conform.fuzz.shrink import Choices


def test_a_seeded_random_is_its_recorded_draw_over_two_to_the_53() -> None:
    rng, source = Choices(seed=3), random.Random(3)
    floats = [rng.random() for _ in range(20000)]
    expected = []
    for _ in floats:
        value = source.getrandbits(54)
        while value >= 1 << 53:
            value = source.getrandbits(54)
        expected.append(value)
    assert rng.drawn == expected
    assert floats == [v / (1 << 53) for v in expected]
    again = Choices(replay=rng.drawn)
    assert [again.random() for _ in floats] == floats
