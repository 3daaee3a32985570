"""Import circles between files (tools/import_circles.py): neither the Python package nor the Rust
crates has one. The finder itself is tested on made-up trees."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import import_circles as ic  # noqa: E402


def test_the_python_package_has_no_import_circle():
    assert ic.circles(ic.python_graph(ROOT / "python" / "mobmem")) == []


def test_the_crates_have_no_import_circle():
    assert [sorted(str(p.relative_to(ROOT)) for p in c) for c in ic.everywhere()] == []


def test_the_finder_sees_a_circle_through_uses_paths_and_reexports(tmp_path):
    src = tmp_path / "src"
    (src / "a").mkdir(parents=True)
    (src / "lib.rs").write_text("pub mod a;\npub mod b;\npub use b::Thing;\n")
    (src / "a" / "mod.rs").write_text(
        "mod c;\n// crate::b::Thing in a comment is no import\nfn f() {}\n"
        "#[cfg(test)]\nmod tests {\n    use crate::b::Thing; // nor in a test\n}\n"
    )
    (src / "a" / "c.rs").write_text("use super::f; // the module's own inside: no edge\nfn g() {}\n")
    (src / "b.rs").write_text("pub struct Thing;\n#[cfg(test)]\nmod t {\n    fn t() { crate::a::f() }\n}\n")
    assert ic.circles(ic.rust_graph(src)) == []
    # b reaches a's child through a path in code, a reaches b through the crate root's re-export.
    (src / "b.rs").write_text("pub struct Thing;\nfn h() { crate::a::c::g() }\n")
    (src / "a" / "mod.rs").write_text('mod c;\nuse crate::{Thing as T};\nconst S: &str = "crate::x";\n')
    (src / "a" / "c.rs").write_text("pub fn g() { let _ = crate::Thing; }\n")
    got = ic.circles(ic.rust_graph(src))
    assert [[p.relative_to(src).as_posix() for p in c] for c in got] == [["a/c.rs", "b.rs"]]


def test_the_finder_sees_a_lazy_python_import(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import x\n")
    (pkg / "x.py").write_text("from . import y\n")
    (pkg / "y.py").write_text("def f():\n    from .x import g\n")
    got = ic.circles(ic.python_graph(pkg))
    assert [[p.name for p in c] for c in got] == [["x.py", "y.py"]]
    (pkg / "y.py").write_text("from . import __name__ as n  # the package itself: no edge\n")
    assert ic.circles(ic.python_graph(pkg)) == []
