"""Running cases against a program.

- :mod:`~napkit.conform.run.runner`: one case, and a whole run;
- :mod:`~napkit.conform.run.state`: the optional state request: the engine's view of a case's
  hand, and the first field where a program's differs, with its cause;
- :mod:`~napkit.conform.run.control`: how a run is ordered, listed, timed, and turned into an
  expected-failures file;
- :mod:`~napkit.conform.run.shards`: slices of a run, and their reports joined;
- :mod:`~napkit.conform.run.matrix`: the coverage matrices (rules by ruleset);
- :mod:`~napkit.conform.run.parallel`: work shared among several programs, results in order.
"""
