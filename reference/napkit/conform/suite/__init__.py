"""The conformance suite: its cases, what a program supports, versions and expected failures.

- :mod:`~napkit.conform.suite.cases`: the cases as files (napkit-case/1): where a case's file
  is (its id and path), loading, filters, order;
- :mod:`~napkit.conform.suite.generate`: the generated cases of any ruleset (the built-in
  suite's, a house ruleset's), drawn from seeded play, and a suite folder written with them;
- :mod:`~napkit.conform.suite.games`: the suite of any game (a house file, a ruleset with
  options fixed): its generated cases, kept in napkit's cache or written to a folder;
- :mod:`~napkit.conform.suite.support`: a program's handshake, and the cases it leaves out;
- :mod:`~napkit.conform.suite.versions`: the versions a report names, and renumbered rule ids;
- :mod:`~napkit.conform.suite.xfail`: the expected-failures file (napkit-xfail/1);
- :mod:`~napkit.conform.suite.breaches`: each refusal of the law book, broken on purpose;
- :mod:`~napkit.conform.suite.starts`: how a hand starts, as the generator and the fuzzer draw
  it.
"""

from typing import TYPE_CHECKING

if not TYPE_CHECKING:  # napkit 0.2's module of this name, forwarded for one release
    from napkit._moved import forward as _forward

    def __getattr__(name: str) -> object:
        return _forward(__name__, name)
