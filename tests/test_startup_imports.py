"""Start-up (issue 27): what a command loads before it does anything, not how long it takes
(speed is measured in benchmarks/startup.py, never asserted here).

``napkit --help`` and every ``napkit COMMAND --help`` build parsers only: no schema library
and nothing of the spec. ``import napkit`` loads no engine, yet ``Game.create`` still finds the
spec's rulesets. ``napkit conform --case ID`` reads one case file and the rulesets, not the
whole suite's files nor the law book, and forks its reference adapter instead of starting a
new interpreter that loads everything again (which answers as that one does). Each is run in a
fresh process: a module imported is imported for good. The suite's listing, now by os.scandir,
is held to what Path.rglob found.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from napkit.cli import COMMANDS
from napkit.conform.suite.cases import Filters, case_files, case_ids, load_suite, path_case_id

SUITE = Path(__file__).resolve().parent.parent / "conformance" / "cases"
ONE_CASE = "classic/illegal/0000-revoke"
#: What building parsers must never load: the schema libraries and the spec's readers.
HEAVY = ("jsonschema", "jsonschema_rs", "referencing", "napkit.spec")


def _modules_after(code: str) -> set[str]:
    """The modules a fresh Python has imported once ``code`` has run (its output kept apart)."""
    probe = textwrap.dedent(code) + textwrap.dedent("""
        import json, sys
        sys.__stderr__.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=False)
    line = [x for x in done.stderr.splitlines() if x.startswith("MODULES ")]
    assert line, done.stderr[-2000:]
    return set(json.loads(line[-1].removeprefix("MODULES ")))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def _help_modules(*words: str) -> set[str]:
    return _modules_after(f"""
        from napkit.cli import main
        try:
            status = main({list(words) + ["--help"]!r})
        except SystemExit as exc:
            status = exc.code
        assert status == 0, status
    """)


def test_the_probe_sees_a_heavy_import() -> None:
    # The check below can fail: loading the spec does import what --help must not.
    found = _modules_after("from napkit.spec.catalog import default_rulesets\n"
                           "default_rulesets()\n")
    assert "napkit.spec.catalog" in _heavy(found)
    assert "jsonschema_rs" in _heavy(found) or "jsonschema" in _heavy(found)


@pytest.mark.parametrize("command", ["", *COMMANDS, "rules show", "rules search",
                                     "report merge", "report html"])
def test_help_loads_no_schema_library_and_nothing_of_the_spec(command: str) -> None:
    found = _help_modules(*command.split())
    assert _heavy(found) == []
    assert "napkit.engine.game" not in found  # nor the engine


def test_import_napkit_loads_no_engine_yet_game_create_finds_the_spec_s_rulesets() -> None:
    found = _modules_after("""
        import sys
        import napkit
        assert "napkit.engine.game" not in sys.modules and "napkit.spec" not in sys.modules
        from napkit.engine.game import Game  # the engine's own path, not napkit's face
        assert Game.create("classic", 3).players == 3
        assert napkit.Game.create("pagat", 4).id == "pagat"
    """)
    assert "napkit.engine.game" in found


def test_game_create_names_the_known_rulesets_for_an_unknown_one() -> None:
    found = _modules_after("""
        from napkit import Game, SetupError
        try:
            Game.create("no-such-ruleset", 4)
        except SetupError as exc:
            assert exc.rule == "NAP-10.1.1" and "classic" in exc.message, exc
        else:
            raise AssertionError("no SetupError")
    """)
    assert "napkit.spec.lawbook" not in found  # the rulesets alone were read


def test_the_rulesets_read_alone_are_the_whole_spec_s_very_objects() -> None:
    _modules_after("""
        from napkit.spec.catalog import default_rulesets, default_spec
        alone = default_rulesets()["pagat"]
        assert default_spec().rulesets["pagat"] is alone
        assert default_rulesets()["pagat"] is alone
    """)


def test_conform_case_id_reads_one_case_and_no_law_book() -> None:
    found = _modules_after(f"""
        import builtins, io, sys
        from pathlib import Path
        opened = []
        real_open = io.open
        def spy(file, *args, **kwargs):
            opened.append(str(file))
            return real_open(file, *args, **kwargs)
        io.open = builtins.open = spy  # Path.read_text opens through io.open
        from napkit.cli import main
        status = main(["conform", "--case", "{ONE_CASE}", "-q"])
        io.open = builtins.open = real_open
        cases = {{f for f in opened if "/conformance/cases/" in f and f.endswith(".json")}}
        assert status == 0, status
        assert cases == {{str(Path("{SUITE}", "{ONE_CASE}.json"))}}, cases
        assert not [f for f in opened if "/lawbook/" in f], opened
    """)
    assert "napkit.spec.lawbook" not in found
    assert "napkit.conform.report.failure" not in found  # nothing failed: nothing drawn


def test_conform_ends_a_program_it_started_early_when_no_case_runs(tmp_path: Path) -> None:
    # The program starts while the cases are read; a run that chooses none must end it.
    marker = tmp_path / "started"
    program = tmp_path / "program.py"
    program.write_text("import os, sys, time\n"
                       f"open({str(marker)!r}, 'w').write(str(os.getpid()))\n"
                       "time.sleep(60)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "napkit", "conform", "--case", "no/such/case",
                           "--", sys.executable, str(program)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1 and "no case matches" in done.stderr, done.stderr
    if marker.exists():  # it was started: it is gone now
        pid = int(marker.read_text(encoding="utf-8") or "0")
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def _tree(root: Path) -> None:
    """A suite folder with the awkward shapes rglob has answers for."""
    for name in ("a/legal/0001.json", "a/legal/0002-x.json", "a/legal/.hidden.json",
                 "a/legal/.json", "a/legal/z..json", "b-c/k/1.json", "b/c/1.json", "top.json",
                 "a/legal/notes.txt"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}", encoding="utf-8")
    (root / "a" / "dir.json").mkdir()  # a folder named like a case: not one
    (root / "a" / "dir.json" / "2.json").write_text("{}", encoding="utf-8")
    outside = root.parent / "outside"
    (outside / "k").mkdir(parents=True)
    (outside / "k" / "9.json").write_text("{}", encoding="utf-8")
    if hasattr(os, "symlink"):
        (root / "linked").symlink_to(outside, target_is_directory=True)  # not followed
        (root / "a" / "legal" / "link.json").symlink_to(root / "top.json")  # a file: counted


def test_the_suite_is_listed_as_rglob_lists_it(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    _tree(root)
    wanted = {path_case_id(p.relative_to(root)): p
              for p in sorted(root.rglob("*.json")) if p.is_file()}
    assert list(case_files(root).items()) == list(wanted.items())
    assert case_ids(root) == list(wanted)
    assert "linked/k/9" not in wanted and "a/legal/.json" in wanted  # the shapes were there


def test_a_case_named_whole_is_found_without_listing_the_suite(tmp_path: Path) -> None:
    root = tmp_path / "suite"
    _tree(root)
    for named in ("a/legal/0001", "b/c/1", "a/dir.json/2", "a/legal/.json", "linked/k/9",
                  "a/legal/../legal/0001", "a//legal/0001", "/a/legal/0001", "a/legal/link",
                  "a/legal/.hidden", "a/legal/z.", "nothing/here"):
        filters = Filters(cases=(named,))
        by_walk = [c for c in case_ids(root) if filters.may_admit(c)]
        cases, problems = load_suite(root, filters)
        read = {p.file for p in problems}  # every file here is a bad case: {}
        assert cases == [] and len(read) == len(by_walk), (named, read, by_walk)


def test_napkit_conform_s_reference_is_forked_not_started_anew() -> None:
    # Without a program, the reference adapter is this process forked (it has loaded the
    # engine and the rulesets for the case's check): no new interpreter is started.
    _modules_after(f"""
        import subprocess
        def refused(*args, **kwargs):
            raise AssertionError("a program was started: " + repr(args))
        subprocess.Popen.__init__ = refused
        from napkit.cli import main
        assert main(["conform", "--case", "{ONE_CASE}", "-q"]) == 0
    """)


def test_the_forked_reference_answers_as_the_started_one() -> None:
    from napkit.conform.run.runner import run_case
    from napkit.protocol.adapter import Forked
    from napkit.protocol.process import ProcessChannel, Session, process_opener

    command = [sys.executable, "-m", "napkit.protocol.adapter"]
    cases, _ = load_suite(SUITE, Filters(cases=("classic/*/000*", "pagat/match/000*")))
    assert len(cases) > 5
    results = []
    for opener in (process_opener(command),
                   lambda: ProcessChannel(command, started=Forked(command))):
        session = Session(opener, timeout=30.0)
        hello = session.open()
        results.append((hello, [(r.status, r.message) for r in
                                (run_case(case, session) for case in cases)]))
        assert session.close() == ""  # it took its leave: bye, then an exit
    assert results[0] == results[1]
    assert {status for status, _ in results[1][1]} == {"passed"}


def test_the_forked_reference_is_a_process_group_of_its_own_and_ends_on_bye() -> None:
    from napkit.protocol.adapter import Forked

    child = Forked(["reference"])
    try:
        assert os.getpgid(child.pid) == child.pid != os.getpgid(0)
        child.stdin.write(b'{"id": 1, "type": "bye"}\n')
        child.stdin.close()
        assert json.loads(child.stdout.readline()) == {"id": 1, "type": "bye"}
        assert child.wait(30) == 0 and child.poll() == 0
        assert child.stderr.read() == b""
    finally:
        child.kill()
        for stream in (child.stdout, child.stderr):
            stream.close()


def test_a_process_with_threads_does_not_fork_the_reference() -> None:
    import threading

    from napkit.protocol.adapter import can_fork

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


def test_checking_the_suite_in_processes_loads_what_one_process_loads(tmp_path: Path) -> None:
    # napkit conform -j N checks the case files in N processes: the same cases (the same
    # documents, a BOM or not), the same problems, in the same order.
    root = tmp_path / "suite"
    chosen = [p for p in case_files(SUITE).values() if "/classic/" in p.as_posix()][:300]
    for path in chosen:
        target = root / path.relative_to(SUITE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    files = sorted(root.rglob("*.json"))
    files[3].write_text("{", encoding="utf-8")  # no JSON
    files[70].write_text('{"id": 1, "id": 2}', encoding="utf-8")  # a key twice
    files[140].write_text("\ufeff" + files[140].read_text(encoding="utf-8"), encoding="utf-8")
    files[200].write_bytes(b'{"a": "\xff"}')  # not UTF-8
    text = files[250].read_text(encoding="utf-8")
    files[250].write_text(text.replace('"players": ', '"players": 1.0, "x": ', 1),
                          encoding="utf-8")  # a fraction
    one = load_suite(root, Filters(), 1)
    two = load_suite(root, Filters(), 2)
    assert len(one[0]) == 296 and len(one[1]) >= 4
    assert one == two
    assert [c.path for c in one[0]] == [c.path for c in two[0]]
