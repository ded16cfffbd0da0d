"""The disk cache of compiled generated code (:mod:`palast.spec.code_cache`): a stale or
corrupt entry is ignored, another text gets another key, and the games built from cached
code behave as freshly compiled ones."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from palast.spec import code_cache

SOURCE = "def f(x):\n    return x + 1\n"


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PALAST_CACHE_DIR", str(tmp_path))
    return tmp_path


def _run(code: object) -> int:
    ns: dict[str, object] = {}
    exec(code, ns)
    return ns["f"](1)  # type: ignore[operator, no-any-return]


def test_compiled_code_is_kept_and_read_back() -> None:
    key = code_cache.code_key(SOURCE, "<t>")
    assert code_cache.load_code(key) is None
    assert _run(code_cache.compiled(SOURCE, "<t>")) == 2
    kept = code_cache.load_code(key)
    assert kept is not None and _run(kept) == 2


def test_another_text_or_label_gets_another_key() -> None:
    key = code_cache.code_key(SOURCE, "<t>")
    assert code_cache.code_key(SOURCE.replace("1", "2"), "<t>") != key
    assert code_cache.code_key(SOURCE, "<u>") != key


@pytest.mark.parametrize("content", [b"", b"garbage", b"0" * 64 + b"\n" + marshal.dumps(1), b"KEY",
                                     b"KEY\n" + marshal.dumps({"not": "code"}),
                                     b"KEY\n" + marshal.dumps(compile("1", "x", "eval"))[:-5]])
def test_a_corrupt_or_stale_entry_is_ignored(content: bytes) -> None:
    key = code_cache.code_key(SOURCE, "<t>")
    folder = code_cache.code_dir()
    folder.mkdir(parents=True)
    (folder / f"{key}.marshal").write_bytes(content.replace(b"KEY", key.encode()))
    assert code_cache.load_code(key) is None
    assert _run(code_cache.compiled(SOURCE, "<t>")) == 2  # compiled again, and kept anew
    assert code_cache.load_code(key) is not None


def test_an_entry_under_another_key_is_not_taken() -> None:
    other = code_cache.code_key("def f(x):\n    return 0\n", "<t>")
    code_cache.compiled("def f(x):\n    return 0\n", "<t>")
    key = code_cache.code_key(SOURCE, "<t>")
    (code_cache.code_dir() / f"{other}.marshal").rename(code_cache.code_dir() / f"{key}.marshal")
    assert code_cache.load_code(key) is None
    assert _run(code_cache.compiled(SOURCE, "<t>")) == 2


def test_an_unwritable_cache_directory_only_means_compiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("PALAST_CACHE_DIR", str(blocker))
    assert _run(code_cache.compiled(SOURCE, "<t>")) == 2


def test_the_oldest_entries_are_pruned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past LIMIT entries the older half goes, by modification time; files that are not
    entries (a temporary file, another kind) are neither counted nor removed."""
    import os

    monkeypatch.setattr(code_cache, "LIMIT", 4)
    folder = code_cache.code_dir()
    folder.mkdir(parents=True)
    others = [folder / ".code-x.tmp", folder / "notes.txt"]
    for f in others:
        f.write_text("not an entry")
    keys = []
    for i in range(4):
        keys.append(code_cache.code_key(f"X = {i}\n", "<t>"))
        code_cache.compiled(f"X = {i}\n", "<t>")
        path = folder / f"{keys[-1]}.marshal"
        os.utime(path, (1000 + 10 * i, 1000 + 10 * (3 - i)))  # the first written is the newest
    assert len(list(folder.glob("*.marshal"))) == 4  # with the other files: six, not over LIMIT
    code_cache.compiled("X = 4\n", "<t>")  # five entries: the oldest two go
    left = {p.stem for p in folder.glob("*.marshal")}
    assert left == {keys[0], keys[1], code_cache.code_key("X = 4\n", "<t>")}
    assert all(f.exists() for f in others)


def test_an_entry_removed_meanwhile_does_not_stop_the_pruning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process may remove an entry between the count and the sort by age: it
    sorts as the oldest, and the pruning goes on (before, the error ended it)."""
    import os

    monkeypatch.setattr(code_cache, "LIMIT", 2)
    folder = code_cache.code_dir()
    folder.mkdir(parents=True)
    for i in range(3):
        (folder / f"k{i}.marshal").write_bytes(b"x")
        os.utime(folder / f"k{i}.marshal", (1000 + i, 1000 + i))
    real = Path.stat

    def stat(self: Path, *args: object, **kw: object) -> object:
        if self.name == "k1.marshal":  # gone when its age is asked
            raise FileNotFoundError(self)
        return real(self, *args, **kw)  # type: ignore[arg-type]

    with monkeypatch.context() as m:
        m.setattr(Path, "stat", stat)
        code_cache._prune(folder)
    assert sorted(p.name for p in folder.glob("*.marshal")) == ["k0.marshal", "k2.marshal"]


def test_a_game_from_cached_code_answers_as_a_fresh_one() -> None:
    from palast.engine.codegen_source import code_of
    from palast.formats.scenario import load_scenario
    from palast.lang.compiler import _compiled
    from palast.query.ask import ask
    from palast.spec.load import cached_spec

    spec = cached_spec(None, False)
    example = Path(__file__).resolve().parent.parent / "examples" / "guard-alone.yaml"
    sc = load_scenario(example, spec)
    code_of.cache_clear()
    _compiled.cache_clear()
    fresh = ask(spec, sc)
    assert list(code_cache.code_dir().glob("*.marshal"))
    code_of.cache_clear()
    _compiled.cache_clear()
    assert ask(spec, sc) == fresh


def test_a_damaged_entry_is_not_unmarshalled() -> None:
    """One bit flipped in the code: the digest no longer matches, so the damaged code (which
    may crash the interpreter) is never read back, and the text is compiled again."""
    key = code_cache.code_key(SOURCE, "<t>")
    code_cache.compiled(SOURCE, "<t>")
    path = code_cache.code_dir() / f"{key}.marshal"
    raw = bytearray(path.read_bytes())
    raw[-3] ^= 0x08
    path.write_bytes(bytes(raw))
    assert code_cache.load_code(key) is None
    assert _run(code_cache.compiled(SOURCE, "<t>")) == 2
    assert code_cache.load_code(key) is not None
