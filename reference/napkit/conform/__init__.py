"""The conformance harness: a Nap program that speaks the adapter protocol
(spec/conformance.md), checked against the reference. Its commands are in :mod:`napkit.cli`
(``conform``, ``fuzz``, ``perft``, ``report``); it talks to programs through
:mod:`napkit.protocol`.

- :mod:`~napkit.conform.suite`: the suite of cases (``conformance/cases``): loading and
  filtering them, what a program supports, versions, expected failures, the ways of breaking
  each rule, how a hand starts;
- :mod:`~napkit.conform.run`: running cases against a program: one case, a whole run, its
  order and shards, work shared among several processes, the coverage matrices;
- :mod:`~napkit.conform.fuzz`: differential testing: random episodes through a program and the
  engine, campaigns, shrinking, reproducers, worker processes;
- :mod:`~napkit.conform.perft`: counting the legal action sequences from a position, and
  asking a program for its counts;
- :mod:`~napkit.conform.report`: the reports of a run: terminal, JSON, JUnit, TAP, HTML, the
  site comparing programs, the diff of two runs, badges, a failure drawn for a person;
- :mod:`~napkit.conform.cause`: which rule's effect a program got wrong where its answers
  first differ, and the one blame of a difference that ``conform`` and ``fuzz`` share.
"""
