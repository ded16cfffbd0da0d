"""The disk cache of the methods ``dataclasses`` writes for palast's classes
(:mod:`palast.spec.class_code`): a first run keeps them, a later run compiles none, a corrupt
file is ignored, and classes made from kept code behave as ones made by the standard library."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from palast.spec import class_code

#: Run in a new process: import palast's engine, then report what the cache did and how a
#: frozen dataclass made with it behaves.
PROBE = r"""
import dataclasses, json
import palast.engine.actions as a
import palast.spec.class_code as c
p, q = a.Play(7), a.Play(7)
try:
    p.card = 8
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
init = {k: getattr(v, "__name__", v) for k, v in a.Play.__init__.__annotations__.items()}
print(json.dumps({"init": init, "new": len(c._new), "kept": len(c._codes), "eq": p == q, "ne": p != a.Play(8),
                  "hash": hash(p) == hash(q), "repr": repr(p), "frozen": frozen,
                  "installed": dataclasses._create_fn is c._create_fn}))
"""

pytestmark = pytest.mark.skipif(sys.version_info[:2] != (3, 11) or sys.implementation.name != "cpython",
                                reason="the cache is installed under CPython 3.11 only")


def _probe(cache: Path) -> dict[str, object]:
    env = {**os.environ, "PALAST_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def _file(cache: Path) -> Path:
    return cache / f"class-code-{sys.implementation.cache_tag}.marshal"


def test_a_first_run_keeps_the_methods_and_a_later_run_compiles_none(tmp_path: Path) -> None:
    first = _probe(tmp_path)
    assert first["installed"] is True
    assert isinstance(first["new"], int) and first["new"] > 20  # dozens of classes' methods
    assert _file(tmp_path).is_file()
    second = _probe(tmp_path)
    assert second["new"] == 0 and second["kept"] == first["kept"]
    for key in ("eq", "ne", "hash", "frozen"):
        assert first[key] is True and second[key] is True, key
    assert second["repr"] == first["repr"] == "Play(card=7)"
    # the generated __init__ is annotated with the types, as the standard library makes it
    assert first["init"] == second["init"] == {"card": "int", "return": None}


@pytest.mark.parametrize("content", [b"", b"garbage", b"\xe3" * 40])
def test_a_corrupt_file_is_ignored_and_written_anew(tmp_path: Path, content: bytes) -> None:
    _file(tmp_path).write_bytes(content)
    got = _probe(tmp_path)
    assert isinstance(got["new"], int) and got["new"] > 20
    assert got["eq"] is True and got["frozen"] is True
    assert _probe(tmp_path)["new"] == 0  # the file written by the first run is read


def _framed(data: object) -> bytes:
    payload = marshal.dumps(data)
    return class_code._header(payload) + payload


def test_a_file_of_other_data_is_not_taken(tmp_path: Path) -> None:
    _file(tmp_path).write_bytes(_framed({"text": compile("1", "x", "eval")}))
    assert class_code._read(_file(tmp_path)) == {}
    _file(tmp_path).write_bytes(_framed({b"key": "not code"}))
    assert class_code._read(_file(tmp_path)) == {}
    _file(tmp_path).write_bytes(_framed([1, 2]))
    assert class_code._read(_file(tmp_path)) == {}
    good = {b"k" * 20: compile("1", "<string>", "exec")}
    _file(tmp_path).write_bytes(_framed(good))
    assert class_code._read(_file(tmp_path)) == good
    _file(tmp_path).write_bytes(marshal.dumps(good))  # no header: another Python's, or an old file
    assert class_code._read(_file(tmp_path)) == {}


def test_a_damaged_file_is_not_unmarshalled(tmp_path: Path) -> None:
    """One bit flipped anywhere in the payload: the header's digest no longer vouches for it,
    so its (perhaps crashing) code is never read back, and palast starts as usual."""
    _probe(tmp_path)
    raw = bytearray(_file(tmp_path).read_bytes())
    for at in (len(raw) // 3, len(raw) // 2, len(raw) - 1):
        flipped = bytearray(raw)
        flipped[at] ^= 0x10
        _file(tmp_path).write_bytes(bytes(flipped))
        assert class_code._read(_file(tmp_path)) == {}
        got = _probe(tmp_path)
        assert isinstance(got["new"], int) and got["new"] > 20 and got["eq"] is True


def test_the_file_keeps_other_runs_entries_up_to_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that compiles adds its entries to the file's, so commands that make other
    classes do not push each other's out; past LIMIT only the writing run's stay."""
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path))
    code = compile("1", "<string>", "exec")
    other = {bytes([i]) * 20: code for i in range(5)}
    _file(tmp_path).write_bytes(_framed(other))
    mine = b"m" * 20
    monkeypatch.setattr(class_code, "_codes", {mine: code})
    monkeypatch.setattr(class_code, "_used", {mine})
    monkeypatch.setattr(class_code, "_new", [mine])
    class_code._save()
    assert set(class_code._read(_file(tmp_path))) == {*other, mine}
    monkeypatch.setattr(class_code, "LIMIT", 3)
    class_code._save()
    assert set(class_code._read(_file(tmp_path))) == {mine}
    assert not list(tmp_path.glob(".class-code-*"))  # no temporary file left


def test_an_unwritable_cache_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path))
    _file(tmp_path).mkdir()  # the file's place is taken by a directory: os.replace fails
    key = b"m" * 20
    monkeypatch.setattr(class_code, "_codes", {key: compile("1", "<string>", "exec")})
    monkeypatch.setattr(class_code, "_used", {key})
    monkeypatch.setattr(class_code, "_new", [key])
    class_code._save()
    assert not list(tmp_path.glob(".class-code-*"))


def test_classes_outside_palast_are_made_as_the_standard_library_makes_them() -> None:
    """Also after palast is imported, a dataclass of another module has real annotations."""
    out = subprocess.run([sys.executable, "-c", (
        "import palast, dataclasses, typing\n"
        "@dataclasses.dataclass\nclass Point:\n    x: int\n"
        "print(Point.__init__.__annotations__ == {'x': int, 'return': None}, "
        "typing.get_type_hints(Point.__init__) == {'x': int, 'return': type(None)})")],
        capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]


def test_no_home_directory_makes_classes_as_usual(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "PALAST_CACHE_DIR", "XDG_CACHE_HOME")}
    probe = ("import pathlib\n"
             "def nohome(*a, **k):\n    raise RuntimeError('Could not determine home directory.')\n"
             "pathlib.Path.home = classmethod(nohome)\n"
             "import palast.engine.actions as a, palast.spec.class_code as c\n"
             "print(a.Play(1) == a.Play(1), c.install())")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]


def test_a_class_made_with_it_has_the_standard_librarys_methods() -> None:
    import dataclasses

    class_code.install()
    before = len(class_code._codes)
    fresh = f"b{os.getpid()}x{id(object())}"
    module = types.ModuleType("palast.probe")  # a palast module: its methods go through the cache
    sys.modules[module.__name__] = module
    try:
        # a field name of this run: texts no run kept before
        exec("from dataclasses import dataclass\n@dataclass(frozen=True, order=True)\n"
             f"class C:\n    a: int\n    {fresh}: str = 'x'\n", module.__dict__)
    finally:
        del sys.modules[module.__name__]
    C = module.C
    assert len(class_code._codes) >= before + 4  # __init__, __repr__, __eq__, the order, ... kept
    c = C(1)  # type: ignore[operator]
    assert (c.a, getattr(c, fresh)) == (1, "x") and repr(c) == f"C(a=1, {fresh}='x')"
    assert C(1) == c and C(1, "y") != c and C(0) < c  # type: ignore[operator]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.a = 2  # type: ignore[attr-defined]


FRESH = r"""
import sys, types
import palast.engine.actions
module = types.ModuleType("palast.probe_fresh")
sys.modules[module.__name__] = module
exec("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass C:\n    " + sys.argv[1] + ": int\n",
     module.__dict__)
"""


def test_a_run_that_compiles_adds_to_the_file(tmp_path: Path) -> None:
    """A run that compiles something writes the file anew with the entries it holds and the
    run's own."""
    env = {**os.environ, "PALAST_CACHE_DIR": str(tmp_path)}
    first = _probe(tmp_path)
    kept = class_code._read(_file(tmp_path))
    assert len(kept) == first["kept"]
    stale = b"\x00" * 20
    _file(tmp_path).write_bytes(_framed({**kept, stale: compile("1", "<string>", "exec")}))
    subprocess.run([sys.executable, "-c", FRESH, f"f{os.getpid()}"], env=env, check=True)
    after = class_code._read(_file(tmp_path))
    assert stale in after  # another run's entry stays (up to the limit)
    assert set(kept) <= set(after) and len(after) > len(kept) + 1  # the fresh class's methods were added
