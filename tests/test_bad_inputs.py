"""Bad input never crashes palast and never passes as valid (issue 8).

* The corpus in ``tests/bad_inputs/`` (scenarios, records, spec fragments; listed with the
  message each must produce in ``tests/bad_inputs/manifest.yaml``) goes through
  ``python -m palast``: exit code 2 (1 for the illegal actions in ``illegal/``), the
  fragment, and no traceback on either stream.
* Bad command-line arguments: exit 2 and a message naming the option.
* Loading is safe: a ``!!python/object`` tag is refused and its code never runs.
* The size limit is behaviour: a file over ``MAX_BYTES`` is refused before it is parsed,
  for scenarios, records, rulings and schema files; a file just under it is read.
  (How long that takes is printed by ``benchmarks/big_inputs.py``, not timed here.)
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from palast.errors import InputError
from palast.formats.record import read_record
from palast.formats.scenario import load_scenario
from palast.query.ruling_files import load_ruling
from palast.spec.load import Spec, load_spec
from palast.spec.yamlio import MAX_BYTES, read_yaml
from tests.cli_runs import Run, fresh_process, in_process

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "bad_inputs"
MANIFEST: dict[str, dict[str, Any]] = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
COMMAND = {"scenarios": "ask", "records": "replay", "illegal": "replay"}


def palast(*args: str, cwd: Path = ROOT) -> Run:
    """Run ``python -m palast ARGS`` in a fresh process."""
    return fresh_process(*args, cwd=cwd)


def corpus_args(name: str, tmp: Path) -> tuple[str, ...]:
    """The arguments that run one corpus file with the command its folder stands for (see
    the manifest); a spec fragment goes into a copy of the spec in ``tmp``, made once."""
    folder = name.split("/", 1)[0]
    path = CORPUS / name
    if folder == "spec":
        copy = tmp / name.replace("/", "_")
        if not copy.exists():
            shutil.copytree(ROOT / "spec", copy)
            shutil.copyfile(path, copy / MANIFEST[name]["replaces"])
        return ("--spec", str(copy), "rulings")
    return (COMMAND[folder], str(path))


def _problems(name: str, run: Run) -> list[str]:
    entry = MANIFEST[name]
    want = int(entry.get("exit", 2))
    out: list[str] = []
    if run.code != want:
        out.append(f"exit {run.code}, expected {want}")
    stream = run.stderr if want == 2 else run.stdout
    if entry["expect"] not in stream:
        out.append(f"fragment {entry['expect']!r} not in {'stderr' if want == 2 else 'stdout'}")
    if "Traceback" in run.stdout + run.stderr:
        out.append("a traceback")
    if want == 2 and not run.stderr.startswith("palast: error: "):
        out.append("stderr does not start with 'palast: error: '")
    return [f"{name}: {p}\n    stderr: {run.stderr.strip()[:400]}" for p in out]


def test_manifest_lists_every_file() -> None:
    """Every file in the corpus has an entry and every entry a file; 50+ files give exit 2,
    from every kind: scenarios, records and spec fragments."""
    tools = ("manifest.yaml", "refresh_spec_fragments.py")
    files = {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*")
             if p.is_file() and p.name not in tools and "__pycache__" not in p.parts}
    assert files == set(MANIFEST), (sorted(files - set(MANIFEST)), sorted(set(MANIFEST) - files))
    bad = [n for n, e in MANIFEST.items() if int(e.get("exit", 2)) == 2]
    kinds = {k: sum(1 for n in bad if n.startswith(k + "/")) for k in ("scenarios", "records", "spec")}
    assert len(bad) >= 50 and all(v >= 10 for v in kinds.values()), kinds
    for name, entry in MANIFEST.items():
        assert isinstance(entry.get("expect"), str) and entry["expect"], name
        assert name.startswith("spec/") == ("replaces" in entry) == ("edit" in entry), name
        if "replaces" in entry:
            assert (ROOT / "spec" / entry["replaces"]).is_file(), f"{name}: spec/{entry['replaces']} does not exist"


def test_spec_fragments_are_the_current_spec_with_one_edit() -> None:
    """Each spec fragment is the spec file it replaces, as it is now, with its one edit;
    after a spec file changes, ``python tests/bad_inputs/refresh_spec_fragments.py``
    rebuilds them."""
    sys.path.insert(0, str(CORPUS))
    try:
        from refresh_spec_fragments import fragment_text, fragments
    finally:
        sys.path.remove(str(CORPUS))
    stale = [name for name, entry in fragments().items()
             if (CORPUS / name).read_text(encoding="utf-8") != fragment_text(entry)]
    assert not stale, f"out of date with spec/ (run python tests/bad_inputs/refresh_spec_fragments.py): {stale}"


def _fresh(argss: list[tuple[str, ...]]) -> list[Run]:
    """``python -m palast`` with each of ``argss`` in fresh processes, in parallel."""
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return list(pool.map(lambda args: palast(*args), argss))


def _differences(args: tuple[str, ...], fresh: Run, here: Run) -> list[str]:
    """How the run of ``args`` in a fresh process and the one in this process differ."""
    return [f"palast {' '.join(args)}: {what} in a fresh process, {b!r}, differs from in this process, {a!r}"
            for what, b, a in (("exit code", fresh.code, here.code), ("stdout", fresh.stdout, here.stdout),
                               ("stderr", fresh.stderr, here.stderr)) if a != b]


#: The corpus files that also run in a fresh process: the first of each folder.
FRESH_CORPUS = [min(n for n in MANIFEST if n.startswith(folder + "/")) for folder in ("scenarios", "records",
                                                                                         "illegal", "spec")]


def test_corpus_through_the_cli(tmp_path: Path) -> None:
    """Each corpus file through the command line as ``python -m palast`` runs it: the exit
    code, the message fragment, no traceback; every failure is listed. The runs are in this
    process (``tests/cli_runs.py``); the first file of each folder also runs in a fresh
    process, which must print exactly the same."""
    names = sorted(MANIFEST)
    args = {n: corpus_args(n, tmp_path) for n in names}
    with ThreadPoolExecutor(max_workers=1) as pool:  # the fresh processes meanwhile
        fresh = pool.submit(_fresh, [args[n] for n in FRESH_CORPUS])
        runs = {n: in_process(*args[n]) for n in names}
        fresh_runs = dict(zip(FRESH_CORPUS, fresh.result(), strict=True))
    failures = [p for name in names for p in _problems(name, runs[name])]
    failures += [p for name, run in fresh_runs.items() for p in _problems(name, run)]
    failures += [d for name, run in fresh_runs.items() for d in _differences(args[name], run, runs[name])]
    assert not failures, f"{len(failures)} problems with {len(names)} corpus files:\n" + "\n".join(failures)


def test_a_crash_or_warning_in_process_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks of the corpus run in this process catch what a fresh process would show:
    an exception escaping the command is a traceback on standard error and exit code 1
    (as the interpreter prints it), a warning is printed on standard error; the corpus
    check reports both."""
    name = FRESH_CORPUS[0]  # a scenario: palast ask reads it with scenario_from_document
    import palast.formats.scenario as scenario

    validate = scenario.scenario_from_document

    def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("an injected crash")

    def warn(*args: Any, **kwargs: Any) -> Any:
        import warnings

        warnings.warn("an injected warning", UserWarning, stacklevel=1)
        return validate(*args, **kwargs)

    monkeypatch.setattr(scenario, "scenario_from_document", crash)
    run = in_process(*corpus_args(name, tmp_path))
    assert run.code == 1, run
    assert "Traceback (most recent call last):" in run.stderr and "RuntimeError: an injected crash" in run.stderr
    problems = _problems(name, run)
    assert any(p.startswith(f"{name}: a traceback") for p in problems), problems
    assert any(p.startswith(f"{name}: exit 1, expected 2") for p in problems), problems

    monkeypatch.setattr(scenario, "scenario_from_document", warn)
    run = in_process(*corpus_args(name, tmp_path))
    assert run.code == 2 and "UserWarning: an injected warning" in run.stderr, run
    assert any("stderr does not start with" in p for p in _problems(name, run)), run

    monkeypatch.setattr(scenario, "scenario_from_document", validate)
    assert not _problems(name, in_process(*corpus_args(name, tmp_path)))


# ---------------------------------------------------------------------------- arguments
BAD_ARGUMENTS: list[tuple[tuple[str, ...], str]] = [
    (("play", "--players", "7"), "--players: 7 players; the game is for 3 to 5"),
    # Python seeds Random(-1) like Random(1): a negative seed would repeat another's games
    (("play", "--seed=-1"), "--seed: -1 is not in the range x>=0"),
    (("simulate", "--seed=-3", "--games", "2"), "--seed: -3 is not in the range x>=0"),
    (("play", "--players", "2"), "--players: 2 players; the game is for 3 to 5"),
    (("play", "--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'"),
    (("play", "--colours", "red,red,blue"), "--colours: a colour is seated twice"),
    (("play", "--colours", "red,blue,grey"), "--colours: 'grey' is the neutral colour"),
    (("play", "--colours", "red,blue"), "--colours: 2 players given"),
    (("play", "--seed", "abc"), "palast: error: --seed: 'abc' is not a valid integer"),
    (("simulate", "--games", "-1"), "palast: error: --games: -1 is not in the range x>=1"),
    (("simulate", "--games", "0"), "palast: error: --games: 0 is not in the range x>=1"),
    (("simulate", "--workers", "0"), "palast: error: --workers: 0 is not in the range 1<=x<=256"),
    (("simulate", "--players", "9"), "--players: 9 players; the game is for 3 to 5"),
    (("simulate", "--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'"),
    (("simulate", "--policy", "clever"), "palast: error: --policy: 'clever' is not one of"),
    (("explain", "nope"), "POINT: unknown variation point 'nope'"),
    (("explain", "guard-other-card", "nope", "banned-jester"),
     "POINT: unknown variation points 'nope', 'banned-jester' (did you mean 'banned-jester-forced'?)"),
    (("explain", "banned-jester"), "did you mean 'banned-jester-forced'?"),
    (("rulings", "nope"), "ID: no ruling 'nope'"),
    (("rulings", "guard-alon"), "did you mean 'guard-alone'?"),
    (("rulings", "--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'"),
    (("ask", "examples/guard-alone.yaml", "--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'"),
    (("ask", "no-such-file.yaml"), "no-such-file.yaml: cannot read the file"),
    (("ask", "examples"), "palast: error: SCENARIO: file 'examples' is a directory"),
    (("replay", "examples/records/seed7-reference.jsonl", "--ruleset", "nope"), "--ruleset: unknown ruleset 'nope'"),
    (("replay", "no-such-record.jsonl"), "no-such-record.jsonl: cannot read the file"),
    (("play", "-q", "--record", "no/such/dir/game.jsonl"), "the directory to write the record in does not exist"),
    (("play", "-q", "--record", ""), "--record: the record needs a file name"),
    (("--spec", "no-such-spec-dir", "spec", "check"),
     "palast: error: --spec: directory 'no-such-spec-dir' does not exist"),
    (("--spec", "no-such-spec-dir", "ask", "examples/guard-alone.yaml"), "palast: error: --spec: directory"),
]


#: The bad arguments that also run in a fresh process: a value click refuses, a
#: missing file (palast's own InputError) and a bad option of the group.
FRESH_ARGUMENTS = [("play", "--seed", "abc"), ("ask", "no-such-file.yaml"),
                   ("--spec", "no-such-spec-dir", "spec", "check")]


def test_bad_arguments_through_the_cli() -> None:
    """Each bad argument: exit 2, a message naming the option or argument, no traceback.
    The runs are in this process, as ``python -m palast`` runs (``tests/cli_runs.py``);
    a few also run in a fresh process, which must print exactly the same."""
    assert set(FRESH_ARGUMENTS) <= {args for args, _ in BAD_ARGUMENTS}
    with ThreadPoolExecutor(max_workers=1) as pool:  # the fresh processes meanwhile
        fresh = pool.submit(_fresh, FRESH_ARGUMENTS)
        runs = {args: in_process(*args) for args, _ in BAD_ARGUMENTS}
        fresh_runs = dict(zip(FRESH_ARGUMENTS, fresh.result(), strict=True))
    failures = []
    for (args, fragment), run in [*((case, runs[case[0]]) for case in BAD_ARGUMENTS),
                                  *((case, fresh_runs[case[0]]) for case in BAD_ARGUMENTS if case[0] in fresh_runs)]:
        if run.code != 2 or fragment not in run.stderr or "Traceback" in run.stdout + run.stderr:
            failures.append(f"palast {' '.join(args)}: exit {run.code}, stderr {run.stderr.strip()[-300:]!r}")
    failures += [d for args, run in fresh_runs.items() for d in _differences(args, run, runs[args])]
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------------- safety
def test_python_tags_are_refused_and_never_run(tmp_path: Path) -> None:
    """A scenario and a ruling carrying code-running tags: exit 2, and the code never ran."""
    marker = tmp_path / "ran"
    payloads = [f'!!python/object/apply:os.system ["touch {marker}"]',
                f'!!python/object/new:subprocess.check_call [["touch", "{marker}"]]',
                "!!python/name:os.system"]
    for i, payload in enumerate(payloads):
        path = tmp_path / f"tagged{i}.yaml"
        path.write_text(f"players: [red, blue, green]\nto_move: red\ntitle: {payload}\n", encoding="utf-8")
        run = palast("ask", str(path))
        assert run.code == 2 and "is not allowed" in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert not marker.exists()


# ---------------------------------------------------------------------------- size limit
def _big(kind: str, size: int) -> str:
    """A file of about ``size`` bytes of the given kind, valid but for a long note."""
    if kind == "record":
        head = {"format": "palast-record", "version": 1, "players": ["red", "blue", "green"], "note": ""}
        return json.dumps({**head, "note": "x" * (size - len(json.dumps(head)) - 1)}) + "\n"
    text = "players: [red, blue, green]\nto_move: red\nnote: \n"
    return text[:-1] + "x" * (size - len(text)) + "\n"


@pytest.mark.parametrize("kind", ["scenario", "record", "ruling", "schema"])
def test_size_limit_is_checked_before_parsing(kind: str, spec: Spec, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A 5 MB file of each kind is refused with the size in the message, without the
    parser ever being called."""
    path = tmp_path / {"scenario": "big.yaml", "record": "big.jsonl", "ruling": "big.yaml",
                       "schema": "game.schema.json"}[kind]
    path.write_text(_big("record" if kind in ("record", "schema") else "scenario", 5_000_000), encoding="utf-8")

    def parser_called(*args: object, **kwargs: object) -> None:
        raise AssertionError("the parser ran on a file over the size limit")

    monkeypatch.setattr("palast.spec.yamlio.yaml.compose", parser_called)
    monkeypatch.setattr("palast.spec.yamlio.yaml.parse", parser_called)
    monkeypatch.setattr("palast.formats.record.json.loads", parser_called)
    monkeypatch.setattr("palast.spec.schemas.json.loads", parser_called)
    with pytest.raises(InputError) as err:
        if kind == "scenario":
            load_scenario(path, spec)
        elif kind == "record":
            read_record(path)
        elif kind == "ruling":
            load_ruling(path, spec)
        else:
            from palast.spec.schemas import _schemas

            _schemas(tmp_path)
    assert f"the file is {path.stat().st_size} bytes" in str(err.value)
    assert f"up to {MAX_BYTES} bytes" in str(err.value)


def test_files_just_under_the_limit_are_read(spec: Spec, tmp_path: Path) -> None:
    """A scenario and a record just under the limit are read and answered (the limit
    refuses nothing a person could mean)."""
    sc = tmp_path / "big.yaml"
    sc.write_text(_big("scenario", MAX_BYTES - 10), encoding="utf-8")
    assert len(load_scenario(sc, spec).note) > MAX_BYTES - 100
    rec = tmp_path / "big.jsonl"
    rec.write_text(_big("record", MAX_BYTES - 10), encoding="utf-8")
    assert read_record(rec).note is not None
    run = palast("ask", str(sc))
    assert run.code == 0, run.stderr


def test_devices_and_endless_files_are_read_only_up_to_the_limit() -> None:
    """A character device that never ends (its size reads as 0) is refused after
    MAX_BYTES + 1 bytes instead of filling memory."""
    for reader in (read_yaml, read_record):
        with pytest.raises(InputError, match=f"more than {MAX_BYTES} bytes"):
            reader("/dev/zero")


def test_spec_directory_with_a_broken_schema_file(tmp_path: Path) -> None:
    """A schema file that is JSON but not a JSON Schema is a SpecError naming the file and
    the place, not a crash inside jsonschema."""
    copy = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", copy)
    (copy / "schema" / "game.schema.json").write_text('{"type": 7}', encoding="utf-8")
    with pytest.raises(InputError, match=r"game.schema.json: type: not a valid JSON Schema"):
        load_spec(copy)


@pytest.mark.parametrize(("value", "said"), [("1e9999", "found .inf"), ("'three'", 'found "three"'),
                                             ("2.5", "found 2.5")])
def test_a_value_of_the_wrong_type_gets_one_message(spec: Spec, tmp_path: Path, value: str, said: str) -> None:
    """A round that is no whole number and breaks no bound, or is no finite number at all,
    is reported once, as of the wrong type (before, ``.inf`` also got "inf is greater than
    the maximum of 1000"); a number above the maximum is said to be, however written."""
    f = tmp_path / "s.yaml"
    f.write_text(f"players: [red, blue, green]\nround: {value}\nto_move: red\n", encoding="utf-8")
    with pytest.raises(InputError) as got:
        load_scenario(f, spec)
    text = got.value.render()
    assert text.count("(round)") == 1 and said in text and "expected a whole number" in text, text
    # a number out of bounds still says so, also where it is written with a decimal point
    for big in ("5000", "1e4", "5000.0", "1e300"):
        f.write_text(f"players: [red, blue, green]\nround: {big}\nto_move: red\n", encoding="utf-8")
        with pytest.raises(InputError) as got:
            load_scenario(f, spec)
        text = got.value.render()
        assert "must be at most 1000; found" in text and len(text) < 400, text  # no 301-digit number to write
