"""The spec-validation stamp (palast.spec.stamp): a spec validated once, byte for byte, is
trusted without the rulings' checks; any change to it is validated again."""

from __future__ import annotations

import marshal
import os
import shutil
from pathlib import Path

import pytest

import palast.spec.load as spec_module
from palast.errors import SpecError
from palast.spec.load import load_spec
from palast.spec.modules import module_files

ROOT = Path(__file__).resolve().parent.parent


def count_calls(monkeypatch: pytest.MonkeyPatch, name: str) -> list[object]:
    """Wrap ``palast.spec.load.<name>`` so that each call is noted; return the list of calls."""
    calls: list[object] = []
    real = getattr(spec_module, name)

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(spec_module, name, counting)
    return calls


def test_a_stamped_spec_is_not_validated_again_but_a_changed_one_is(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", copy)
    first = load_spec(copy, rulings=False)
    assert len(list((tmp_path / "cache").glob("spec-valid-*"))) == 1

    def refuse(*args: object, **kwargs: object) -> list[str]:
        raise AssertionError("validated again")

    monkeypatch.setattr(spec_module, "schema_errors", refuse)
    again = load_spec(copy, rulings=False)
    assert again.variation_points.keys() == first.variation_points.keys()
    assert again.rulesets == first.rulesets
    monkeypatch.undo()
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    # one clause id changed: other bytes, so no stamp vouches for them
    vp = copy / "variation_points.yaml"
    vp.write_text(vp.read_text(encoding="utf-8").replace("A.role.courtesan", "A.role.nonexistent", 1),
                  encoding="utf-8")
    with pytest.raises(SpecError, match=r"A\.role\.nonexistent"):
        load_spec(copy, rulings=False)


def test_spec_check_always_validates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the rulings (palast spec check, palast rulings) the stamp is never used."""
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    load_spec(ROOT / "spec", rulings=False)
    calls = count_calls(monkeypatch, "schema_errors")
    load_spec(ROOT / "spec")
    assert len(calls) == len(spec_module.SPEC_FILES) + len(module_files(ROOT / "spec"))


def test_a_stamped_spec_is_read_from_its_kept_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second load of the same bytes reads no YAML: the parsed data kept beside the
    stamp gives the same spec (integer keys, such as the targets by player count, kept)."""
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    first = load_spec(ROOT / "spec", rulings=False)
    assert len(list((tmp_path / "cache").glob("spec-data-*.marshal"))) == 1

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("YAML read again")

    monkeypatch.setattr(spec_module, "read_yaml", refuse)
    again = load_spec(ROOT / "spec", rulings=False)
    assert again.game == first.game and again.rules == first.rules and again.clauses == first.clauses
    assert [again.target(n) for n in (3, 4, 5)] == [first.target(n) for n in (3, 4, 5)]


@pytest.mark.parametrize("content", [b"not marshal data", marshal.dumps({"game.yaml": {1, 2}}),
                                     marshal.dumps(["a list"]), b""])
def test_kept_data_that_is_not_plain_yaml_data_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          content: bytes) -> None:
    """A damaged or foreign data file is not used: the YAML is parsed again."""
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    first = load_spec(ROOT / "spec", rulings=False)
    [kept] = (tmp_path / "cache").glob("spec-data-*.marshal")
    kept.write_bytes(content)
    reads = count_calls(monkeypatch, "read_yaml")
    again = load_spec(ROOT / "spec", rulings=False)
    assert len(reads) == len(spec_module.SPEC_FILES) + len(module_files(ROOT / "spec"))
    assert again.rules == first.rules


def test_the_stamp_covers_all_the_validating_code() -> None:
    """Every module that loading the spec runs (palast.spec.load and what it imports, at any
    depth, inside functions too) is among the files whose bytes name the stamp: a change to
    any of them validates the spec again."""
    from palast.spec.stamp import validator_files
    from tests.test_layering import DYNAMIC, find_modules, read_imports

    mods = find_modules(ROOT, ["palast"])
    imports, _ = read_imports(ROOT, ["palast"], DYNAMIC)
    graph: dict[str, set[str]] = {}
    for i in imports:
        if not i.type_only:
            graph.setdefault(i.source, set()).add(i.target)
    runs: set[str] = set()
    todo = ["palast.spec.load"]
    while todo:
        m = todo.pop()
        if m not in runs:
            runs.add(m)
            todo.extend(graph.get(m, ()))
    hashed = set(validator_files())
    missing = sorted(m for m in runs if mods[m].resolve() not in hashed)
    assert not missing, f"palast.spec.stamp.VALIDATORS leaves out {missing}"


def test_the_data_of_a_few_specs_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several checkouts share the cache directory: the data of the newest few specs stays,
    older data goes."""
    from palast.spec import stamp

    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    for i in range(stamp.KEEP_DATA + 2):
        stamp.save_documents(f"{i:064x}", {"game.yaml": {"n": i}})
    kept = sorted(p.name for p in (tmp_path / "cache").glob("spec-data-*.marshal"))
    assert len(kept) == stamp.KEEP_DATA
    assert stamp.load_documents(f"{stamp.KEEP_DATA + 1:064x}") == {"game.yaml": {"n": stamp.KEEP_DATA + 1}}


def test_a_scenario_that_passed_its_schema_is_not_validated_again(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario whose data passed the schema is stamped; the same data is trusted after,
    other data is validated, and a scenario that fails its schema is never stamped."""
    import palast.spec.schemas as schemas
    from palast.errors import ScenarioError
    from palast.formats.scenario import parse_scenario
    from palast.spec.load import cached_spec

    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    spec = cached_spec(str(ROOT / "spec"), rulings=False)
    calls: list[object] = []
    real = schemas.schema_errors

    def counting(*args: object, **kwargs: object) -> list[str]:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(schemas, "schema_errors", counting)
    text = "players: [red, blue, green]\nto_move: red\nhands: {red: [maid/red]}\n"
    parse_scenario(text, spec)
    assert len(calls) == 1 and len(list((tmp_path / "cache").glob("input-valid-*"))) == 1
    parse_scenario(text, spec)
    assert len(calls) == 1, "the same scenario data was validated again"
    parse_scenario(text.replace("maid/red", "guard/red"), spec)
    assert len(calls) == 2, "other scenario data was trusted"
    bad = text + "scores: {red: many}\n"
    for _ in range(2):
        with pytest.raises(ScenarioError, match="scores"):
            parse_scenario(bad, spec)
    assert len(calls) == 4 and len(list((tmp_path / "cache").glob("input-valid-*"))) == 2


def test_the_stamps_of_valid_input_are_kept_up_to_a_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past :data:`~palast.spec.stamp.KEEP_INPUT_STAMPS` stamps of valid input, the older
    half goes (the newest stay); other files of the cache directory are left alone."""
    from palast.spec import stamp

    cache = tmp_path / "cache"
    monkeypatch.setenv("PALAST_CACHE_DIR", str(cache))
    monkeypatch.setattr(stamp, "KEEP_INPUT_STAMPS", 6)
    cache.mkdir()
    (cache / "spec-valid-x").touch()
    for i in range(6):
        stamp.mark_input_valid(f"k{i}")
        os.utime(cache / f"input-valid-k{i}", (1_000_000 + i, 1_000_000 + i))
    assert sorted(p.name for p in cache.iterdir()) == [*(f"input-valid-k{i}" for i in range(6)), "spec-valid-x"]
    stamp.mark_input_valid("k6")  # the 7th: the oldest three go
    assert sorted(p.name for p in cache.iterdir()) == [*(f"input-valid-k{i}" for i in range(3, 7)), "spec-valid-x"]
    assert stamp.input_is_valid("k6") and not stamp.input_is_valid("k0")


def test_the_digest_of_files_follows_their_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """files_digest reads the files every time: another byte gives another digest, the same
    bytes the same digest. code_digest (palast's own code) reads them once per process and
    again when a file's times or inode change."""
    from palast.spec import stamp

    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    first = stamp.files_digest([a, b])
    assert stamp.files_digest([b, a]) != first  # the order counts
    stat = a.stat()
    a.write_text("x = 2\n")  # same size, other bytes, the modification time put back
    os.utime(a, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert stamp.files_digest([a, b]) != first
    a.write_text("x = 1\n")
    assert stamp.files_digest([a, b]) == first
    monkeypatch.setattr(stamp, "_VALIDATORS", [a, b])
    monkeypatch.setattr(stamp, "_CODE_DIGESTS", {})
    assert stamp.code_digest() == first
    reads: list[Path] = []
    original = Path.read_bytes

    def counting(self: Path) -> bytes:
        reads.append(self)
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    assert stamp.code_digest() == first and reads == []
    stat = a.stat()
    a.write_text("x = 3\n")
    os.utime(a, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the change time still moves
    assert stamp.code_digest() != first and a in reads


def test_a_spec_edited_in_place_with_its_time_put_back_is_validated(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The same size, the modification time restored (cp -p, rsync -t, touch -r): the spec's
    bytes are read again in the same process, so the stamp of the old bytes is not taken."""
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path / "cache"))
    copy = tmp_path / "spec"
    shutil.copytree(ROOT / "spec", copy)
    load_spec(copy, rulings=False)
    game = copy / "game.yaml"
    text = game.read_text(encoding="utf-8")
    stat = game.stat()
    assert "3: 6" in text
    game.write_text(text.replace("3: 6", "3: X", 1), encoding="utf-8")
    os.utime(game, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    with pytest.raises(SpecError, match="expected a whole number"):
        load_spec(copy, rulings=False)
