"""Every reproduction is one module plus one line in ``REPRODUCTIONS`` plus its claims file: a
module that defines a reproduction's functions but has no line (so ``mobmem reproduce`` cannot
name it), or a line without claims, fails here. The core's registries have the same test in Rust
(crates/mobmem-core/tests/registries.rs)."""

import ast
from pathlib import Path

from mobmem import reproduce

PKG = Path(reproduce.__file__).parent
ENTRY = {"add_arguments", "compute", "report"}


def test_every_reproduction_module_has_its_line_and_its_claims():
    modules = {}
    for f in sorted(PKG.glob("*.py")):
        defined = {n.name for n in ast.parse(f.read_text()).body if isinstance(n, ast.FunctionDef)}
        if ENTRY <= defined:
            modules[f.stem] = f
    registered = {m.__name__.rsplit(".", 1)[1]: name for name, m in reproduce.REPRODUCTIONS.items()}
    assert set(modules) == set(registered), "reproduction modules vs REPRODUCTIONS"
    claims = {p.stem for p in (PKG / "claims").glob("*.toml")}
    assert claims == set(reproduce.REPRODUCTIONS), "claims files vs REPRODUCTIONS"
    assert len(modules) >= 5
