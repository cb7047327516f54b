"""Deliberately wrong implementations of Nap: the reference engine with one bug each.

The conformance suite is only as good as the bugs it catches. Each mutant here is a small,
documented change to the reference engine's behaviour (:mod:`conformance.mutants.catalog`),
made while the program runs (:mod:`conformance.mutants.patching`), naming the rule id it breaks
and the rulesets it affects. ``python conformance/mutants/adapter.py NAME`` serves the engine
with mutant NAME applied through the adapter protocol; ``tests/test_mutants.py`` runs the suite
against every one and fails if any passes.
"""

from conformance.mutants import catalog as _catalog  # noqa: F401 (fills the registry)
from conformance.mutants.base import PHASES, REGISTRY, SCOPES, Mutant, mutant

__all__ = ["PHASES", "REGISTRY", "SCOPES", "Mutant", "mutant"]
