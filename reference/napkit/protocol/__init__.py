"""The adapter protocol (napkit-adapter/1, spec/conformance.md): both of its ends.

- :mod:`~napkit.protocol.adapter`: the reference adapter, napkit's engine behind the protocol
  (``napkit adapter``);
- :mod:`~napkit.protocol.process`: driving a program under test: requests, answers read
  strictly, within a time limit;
- :mod:`~napkit.protocol.pyprogram`: a Nap program written in Python as one small class, the
  protocol done for it;
- :mod:`~napkit.protocol.pytest_plugin`: the conformance suite as pytest tests, for such a
  program (``pytest --napkit=MODULE:CLASS``).
"""
