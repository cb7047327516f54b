"""napkit: the reference rules kit for Nap (Napoleon).

The law book, the rulesets and the decisions register live in ``spec/``; this package reads
them (:mod:`napkit.spec`), and will execute them.
"""

__version__ = "0.1.0"
