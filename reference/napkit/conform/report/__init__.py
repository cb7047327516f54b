"""Reports of conformance runs, for people and for machines.

- :mod:`~napkit.conform.report.text`: the terminal summary, JSON, JUnit XML and TAP;
- :mod:`~napkit.conform.report.html`: a run as one self-contained web page;
- :mod:`~napkit.conform.report.site`: several programs' results side by side, as a site;
- :mod:`~napkit.conform.report.diff`: two runs of one program compared;
- :mod:`~napkit.conform.report.saved`: a saved JSON report read back;
- :mod:`~napkit.conform.report.badge`: a result as an SVG badge;
- :mod:`~napkit.conform.report.failure`: a failed case as a person reads it;
- :mod:`~napkit.conform.report.drawing`: a hand drawn for a person (the deal as a table, where
  play stands in words), for failures and fuzzing's reproducers alike;
- :mod:`~napkit.conform.report.numbering`: how the reports number a case's steps.
"""

from typing import TYPE_CHECKING

if not TYPE_CHECKING:  # napkit 0.2's module of this name, forwarded for one release
    from napkit._moved import forward as _forward

    def __getattr__(name: str) -> object:
        return _forward(__name__, name)
