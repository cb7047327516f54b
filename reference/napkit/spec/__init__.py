"""The spec readers and views: the law book, the rulesets, the decisions register, the source
index and the JSON Schemas, read from ``spec/``, checked, compared and shown.

- :mod:`~napkit.spec.catalog`: the whole spec folder, loaded and linked;
- :mod:`~napkit.spec.loading`: a TOML or JSON file read and validated against its schema;
- :mod:`~napkit.spec.schemas`: the JSON Schemas in one registry, the one fast check and the
  explanation of a refusal;
- :mod:`~napkit.spec.lawbook`, :mod:`~napkit.spec.rulesets`, :mod:`~napkit.spec.decisions`,
  :mod:`~napkit.spec.sources`: the law book, the rulesets (inheritance, options, parameters),
  the decisions register, the source index and citations;
- :mod:`~napkit.spec.house`: house rulesets, a table's own game;
- :mod:`~napkit.spec.questions`: the players' questions, each filed under its answer (read by
  ``napkit rules search``);
- :mod:`~napkit.spec.checks`: the checks beyond the schemas;
- :mod:`~napkit.spec.compare`: where two rulesets differ, rule by rule;
- :mod:`~napkit.spec.views`, :mod:`~napkit.spec.render`: the rules and values laid out for
  reading (``napkit rules``, the rules site);
- :mod:`~napkit.spec.coverage`: which rules a piece of play exercises.

:func:`load_spec` and :class:`Spec` (the whole spec folder, loaded and linked) are here, as they
were in napkit 0.1's ``napkit.spec``; each part has its module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from napkit._lazy import lazy_names

if TYPE_CHECKING:
    from napkit.spec.catalog import Spec, default_spec, load_ruleset_file, load_spec, read_spec

__all__ = ["Spec", "default_spec", "load_ruleset_file", "load_spec", "read_spec"]


# Imported when first asked for: importing one module of the folder (the schemas, the
# rulesets) loads no other, and no schema library.
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "napkit.spec.catalog"))
