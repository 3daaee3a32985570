"""Import circles between files: chains of imports that come back to the file they started from.

    python tools/import_circles.py          # every circle in the Rust crates and the Python package
    python tools/import_circles.py --edges  # and the imports inside each circle

A file's imports are every path it names, not only its `use` lines and top-level imports: in Rust,
`crate::…`, `super::…`, `self::…` and a child module's name wherever they appear in code (a `use`
tree's braces expanded; comments and strings skipped; `mod x;` declares the tree and is no
import); in Python, every relative import, at the top or inside a function. A path is resolved to
the deepest file it reaches (`crate::plan::Resolved` → src/plan.rs). A circle is a strongly
connected component of more than one file. Tests (`tests.rs`, `*_tests.rs` and inline
`#[cfg(test)] mod … { }`) are left out: they import what they test, and nothing imports them. tests/test_layers.py keeps the count at
0.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# --- Rust -----------------------------------------------------------------------------------------


def _strip_rust(text: str) -> str:
    """The code without comments, string and char literals (each replaced by a space)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif (m := re.match(r'r(#*)"', text[i:])) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append(" ")
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append(" ")
        elif c == "'" and (m := re.match(r"'(\\.|[^\\'])'", text[i:])):
            i += len(m.group(0))
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _without_tests(code: str) -> str:
    """The code without its inline test modules (`#[cfg(test)] mod tests { … }`), which are left
    out as test files are."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{", code):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        out.append(code[i : m.start()])
        i = j
    return "".join(out) + code[i:]


def _use_paths(tree: str) -> Iterable[str]:
    """The full paths of one `use` tree (`a::{b, c::{d, e}}` → a::b, a::c::d, a::c::e)."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))  # an alias names no other file
    depth, start = 0, None
    for i, c in enumerate(tree):
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and start is not None:
                prefix = tree[:start]
                inner, parts, d, s = tree[start + 1 : i], [], 0, 0
                for k, ch in enumerate(inner):
                    d += ch == "{"
                    d -= ch == "}"
                    if ch == "," and d == 0:
                        parts.append(inner[s:k])
                        s = k + 1
                parts.append(inner[s:])
                for p in parts:
                    if p:
                        yield from _use_paths(prefix + p)
                return
    yield tree


def _rust_modules(src: Path) -> dict[tuple[str, ...], Path]:
    """Each file module of a crate by its path from the crate root."""
    mods = {}
    for f in src.rglob("*.rs"):
        rel = f.relative_to(src).with_suffix("").parts
        if rel in (("lib",), ("main",)):
            key: tuple[str, ...] = ()
        elif rel[-1] == "mod":
            key = rel[:-1]
        else:
            key = rel
        mods[key] = f
    return mods


def _absolute(key: tuple[str, ...], segs: list[str], children: set[str]) -> list[str] | None:
    """A path named in module `key` from the crate root, or None if it is another crate's or an
    item's (a type's, an enum's) path."""
    if segs[0] == "crate":
        return segs[1:]
    if segs[0] in ("super", "self"):
        base = list(key)
        while segs and segs[0] in ("super", "self"):
            base = base[:-1] if segs[0] == "super" else base
            segs = segs[1:]
        return base + segs
    if segs[0] in children:
        return [*key, *segs]
    return None


class _Crate:
    """A crate's file modules, their children and what each re-exports (`pub use`)."""

    def __init__(self, src: Path) -> None:
        self.mods = _rust_modules(src)
        self.code = {k: _without_tests(_strip_rust(f.read_text())) for k, f in self.mods.items()}
        self.children = {
            key: {k[-1] for k in self.mods if len(k) == len(key) + 1 and k[: len(key)] == key}
            for key in self.mods
        }
        self.reexports: dict[tuple[str, ...], dict[str, list[str]]] = {}
        self.globs: dict[tuple[str, ...], list[list[str]]] = {}
        for key, code in self.code.items():
            names, globs = {}, []
            for m in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", code):
                for p in _use_paths(m.group(1)):
                    alias = re.search(r"\bas\s*(\w+)$", m.group(1)) if "{" not in m.group(1) else None
                    path = _absolute(key, p.split("::"), self.children[key])
                    if path is None:
                        continue
                    if path[-1] == "*":
                        globs.append(path[:-1])
                    else:
                        names[alias.group(1) if alias else path[-1]] = path
            self.reexports[key], self.globs[key] = names, globs

    def resolve(self, path: list[str], depth: int = 0) -> tuple[str, ...] | None:
        """The file module that defines what `path` (from the crate root) names."""
        cur: tuple[str, ...] = ()
        i = 0
        while i < len(path) and (*cur, path[i]) in self.mods:
            cur, i = (*cur, path[i]), i + 1
        if i < len(path) and depth < 16:
            name = path[i]
            if name in self.reexports[cur]:
                return self.resolve(self.reexports[cur][name] + path[i + 1 :], depth + 1)
            for g in self.globs[cur]:
                got = self.resolve([*g, *path[i:]], depth + 1)
                if got is not None and re.search(
                    rf"\b(fn|struct|enum|trait|type|const|static|macro_rules!)\s+{name}\b", self.code[got]
                ):
                    return got
        return cur if cur in self.mods else None


def rust_graph(src: Path) -> dict[Path, set[Path]]:
    """Each file of the crate at `src` and the files it imports (a re-export followed to the file
    that defines the name; a file's own `pub use` lines are its face, not its imports)."""
    crate = _Crate(src)
    graph: dict[Path, set[Path]] = {}
    for key, f in crate.mods.items():
        if f.name == "tests.rs" or f.stem.endswith("_tests"):
            continue
        code = crate.code[key]
        uses = re.sub(r"\bpub(?:\([^)]*\))?\s+use\s+[^;]+;", " ", code)
        paths = [p for m in re.finditer(r"\buse\s+([^;]+);", uses) for p in _use_paths(m.group(1))]
        rest = re.sub(r"\buse\s+[^;]+;", " ", uses)
        paths += re.findall(r"(?<![\w:])((?:crate|super|self|\w+)(?:::\w+)+)", rest)
        out = graph.setdefault(f, set())
        for p in paths:
            path = _absolute(key, p.split("::"), crate.children[key])
            target = None if path is None else crate.resolve(path)
            # A file reading its own ancestor module (`super::Sim` in sim/procs.rs) is the inside of
            # that module split over files, not a layer above reaching down: it is no edge.
            if target is not None and target != key and target != key[: len(target)]:
                t = crate.mods[target]
                if not (t.name == "tests.rs" or t.stem.endswith("_tests")):
                    out.add(t)
    return graph


# --- Python ---------------------------------------------------------------------------------------


def python_graph(pkg: Path) -> dict[Path, set[Path]]:
    """Each module of the package at `pkg` and the modules its relative imports name."""
    graph: dict[Path, set[Path]] = {}

    def module(parts: tuple[str, ...]) -> Path | None:
        d = pkg.parent.joinpath(*parts)
        if (d / "__init__.py").exists():
            return d / "__init__.py"
        f = d.with_suffix(".py")
        return f if f.exists() else None

    for f in pkg.rglob("*.py"):
        rel = f.relative_to(pkg.parent).with_suffix("").parts
        here = rel[:-1]  # the package a relative import starts from, for a module and an __init__ alike
        out = graph.setdefault(f, set())
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = here[: len(here) - (node.level - 1)]
            target = (*base, *node.module.split(".")) if node.module else base
            for a in node.names:
                sub = module((*target, a.name))
                m = sub or module(target)
                # The package's own __init__ (an extension module such as `_core` falls back to
                # it) is its ancestor: no edge, as in Rust.
                if m is not None and m != f and not (m.name == "__init__.py" and f.is_relative_to(m.parent)):
                    out.add(m)
    return graph


# --- Circles --------------------------------------------------------------------------------------


def circles(graph: dict[Path, set[Path]]) -> list[list[Path]]:
    """The strongly connected components of more than one file (Tarjan's, iterative)."""
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    stack: list[Path] = []
    on: set[Path] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def graphs(root: Path = ROOT) -> list[dict[Path, set[Path]]]:
    """The import graph of each Rust crate and of the Python package."""
    return [
        *(rust_graph(src) for src in sorted(root.glob("crates/*/src"))),
        python_graph(root / "python" / "mobmem"),
    ]


def everywhere(root: Path = ROOT) -> list[list[Path]]:
    """Every circle in the project's Rust crates and its Python package."""
    return [c for g in graphs(root) for c in circles(g)]


def main() -> int:
    edges = "--edges" in sys.argv[1:]
    found = []
    for g in graphs():
        for c in circles(g):
            found.append(c)
            print(f"{len(c)} files: " + ", ".join(str(p.relative_to(ROOT)) for p in c))
            for a in c if edges else ():
                for b in sorted(g[a] & set(c)):
                    print(f"    {a.relative_to(ROOT)} -> {b.relative_to(ROOT)}")
    print(f"{len(found)} import circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
