"""The spec readers and views: the law book, the rulesets, the decisions register, the source
index and the JSON Schemas, read from ``spec/``, checked, compared and shown.

:func:`load_spec` and :class:`Spec` (the whole spec folder, loaded and linked) are here, as they
were in napkit 0.1's ``napkit.spec``; each part has its module.
"""

from napkit.spec.catalog import Spec, default_spec, load_ruleset_file, load_spec, read_spec

__all__ = ["Spec", "default_spec", "load_ruleset_file", "load_spec", "read_spec"]
