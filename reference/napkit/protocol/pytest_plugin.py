"""The conformance suite as pytest tests, for a Nap program written in Python.

Installed with napkit (an entry point of the ``pytest11`` group), the plugin does nothing until
it is asked for::

    pytest --napkit=mypkg.adapter:Adapter                  # every case, one test each
    pytest --napkit=mypkg.adapter:Adapter -k "pagat and illegal" -x --junitxml=nap.xml

``MODULE:CLASS`` names a class of the program. Either its instances answer the requests of
the adapter protocol (``napkit-adapter/1``, spec/conformance.md) in this process:
``handle(request)`` takes one request as Python values (a dict, as ``json.loads`` gives it) and
returns the response (napkit's own engine is ``napkit.protocol.adapter:Adapter``); or the class is a
:class:`~napkit.protocol.pyprogram.NapProgram` (start a hand or a match, whose turn, the legal
actions, apply, the outcome), and the plugin speaks the protocol for it. Each case of the
suite (napkit's, or ``--napkit-suite DIR``) becomes one test named by its id, so pytest's
``-k``, ``-x``,
``--junitxml`` and (if installed) pytest-xdist's ``-n`` apply; a case the program's ``hello``
does not claim is skipped with the reason, and a failure is reported as ``napkit conform``
reports it: the step, what was expected and what came back.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import pytest

from napkit.conform.run.runner import FAILED, CaseResult, run_case
from napkit.conform.suite.cases import Case, default_suite_dir, load_suite
from napkit.conform.suite.support import skip_reason, skipped_steps
from napkit.output.tables import printable_lines
from napkit.protocol.process import ProtocolError, Session
from napkit.protocol.pyprogram import ProgramAdapter
from napkit.spec.loading import JSONObject


class Program(Protocol):
    """What ``--napkit=MODULE:CLASS`` names: one protocol request in, its response out."""

    def handle(self, request: Any) -> Any: ...


class _Channel:
    """A program of this process behind the harness's channel: each request handed to it."""

    def __init__(self, program: Program) -> None:
        self.program = program

    def exchange(self, requests: Sequence[JSONObject], timeout: float) -> tuple[
            list[object], ProtocolError | None]:
        answers: list[object] = []
        for index, request in enumerate(requests):
            try:
                answers.append(self.program.handle(request))
            except Exception as exc:  # the program's bug: the case fails, the run goes on
                return answers, ProtocolError(
                    "exited", f"raised {type(exc).__name__}: {exc}", index=index)
        return answers, None

    def stderr_tail(self, lines: int = 10) -> str:
        return ""

    def wait(self, seconds: float) -> bool:
        return True

    def kill(self) -> None:
        pass


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("napkit", "napkit conformance suite")
    group.addoption("--napkit", metavar="MODULE:CLASS", default=None,
                    help="run napkit's conformance suite against this Python class, whose "
                         "handle(request) answers the adapter protocol "
                         "(napkit.protocol.adapter:Adapter "
                         "is napkit's own engine)")
    group.addoption("--napkit-suite", metavar="DIR", default=None,
                    help="the folder of cases (default: the suite napkit ships with)")


def _program_class(spec: str) -> type[Any]:
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise pytest.UsageError(f"--napkit wants MODULE:CLASS, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise pytest.UsageError(f"--napkit: cannot import {module_name}: {exc}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise pytest.UsageError(f"--napkit: {module_name} has no class {class_name}")
    return found


def _instance(program: type[Any]) -> Program:
    """A new instance of the program, speaking the protocol (itself, or through
    :class:`~napkit.protocol.pyprogram.ProgramAdapter`)."""
    made = program()
    return made if hasattr(made, "handle") else ProgramAdapter(made)


class _Runner:
    """One program for the whole session (started again after a case it broke)."""

    def __init__(self, program: type[Any]) -> None:
        self.session = Session(lambda: _Channel(_instance(program)), timeout=10.0)
        self.supports: Any = None

    def run(self, case: Case) -> CaseResult:
        if not self.session.alive:
            self.supports = self.session.open().supports
        reason = skip_reason(case, self.supports)
        if reason is not None:
            pytest.skip(reason)
        return run_case(case, self.session, skipped=skipped_steps(case, self.supports))


class CaseFailedError(Exception):
    """A case the program answered differently."""


class NapkitCase(pytest.Item):
    """One conformance case, as a test."""

    def __init__(self, *, case: Case, runner: _Runner, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.runner = runner
        # -k matches the id (``pagat/illegal/0003-out-of-turn``) and these words too.
        self.extra_keyword_matches.update({case.ruleset, case.kind, *case.tags})

    def runtest(self) -> None:
        result = self.runner.run(self.case)
        if result.status == FAILED:
            raise CaseFailedError(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailedError):
            result: CaseResult = excinfo.value.args[0]
            lines = [f"{self.case.id}: {result.message}"]
            if result.expected is not None or result.got is not None:
                lines += [f"  expected: {result.expected}", f"       got: {result.got}"]
            lines.append(f"  rules: {', '.join(self.case.rules)}")
            lines.append(f"  rerun: pytest --napkit={self.config.getoption('napkit')} "
                         f"-k '{self.case.id}'")
            return "\n".join(printable_lines(lines))  # the program's reasons, as it wrote them
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.case.path, 0, f"napkit case {self.case.id}"


@pytest.hookimpl(tryfirst=True)  # before pytest's -k and -m deselect among the items
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    spec = config.getoption("napkit")
    if not spec:
        return
    runner = _Runner(_program_class(spec))
    suite = config.getoption("napkit_suite")
    root = Path(suite) if suite else default_suite_dir()
    cases, problems = load_suite(root)
    if problems:
        raise pytest.UsageError("bad case files:\n" + "\n".join(map(str, problems)))
    items.extend(NapkitCase.from_parent(session, name=case.id, nodeid=case.id, case=case,
                                        runner=runner)
                 for case in cases)
