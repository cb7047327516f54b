"""The conformance harness: ``napkit conform`` runs the suite of cases (``conformance/cases``)
against a Nap program that speaks the adapter protocol (spec/conformance.md).

:mod:`napkit.conform.suite` loads and filters the cases; :mod:`~napkit.conform.process` drives
a program (a process over JSON Lines, or the reference engine in this process);
:mod:`~napkit.conform.runner` runs one case; :mod:`~napkit.conform.xfail` reads an
expected-failures file; :mod:`~napkit.conform.report` writes the reports;
:mod:`~napkit.conform.cli` is the command.
"""
