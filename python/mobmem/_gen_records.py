"""Writes ``mobmem/records.py``, the typed result records, from the core's JSON schemas of
``RunResult`` and ``PhoneResult`` (``mobmem_core::records``): ``make records``, or
``python -m mobmem._gen_records > python/mobmem/records.py``. A test compares the checked-in
file with this output, so the Rust structs and the Python classes cannot drift."""

from __future__ import annotations

import json
import keyword

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HEADER = '''"""Typed result records, generated from the core's result structs by ``mobmem._gen_records``
(``make records``); do not edit by hand.

Each record is the ``dict`` the core's JSON gives, so ``r["faults"]``, ``json.dumps`` and pandas
work as on any dict, with a read-only attribute per field: ``r.faults``, ``r.io.total_ns``. Nested
records are made when the outer one is (``Meters(d).io`` is an ``IoTime``)."""

# mypy: disable-error-code="no-any-return"
# A field is read from the dict, whose values are typed ``Any``; its property says its type.

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


class Fields(dict[str, "Any"]):  # `typing` is not imported at run time
    """A record of the core's JSON: a dict with typed attributes."""

    __slots__ = ()
    #: field → (shape, class) of the fields that hold records: "one", "list" or "map" of them.
    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {}

    def __init__(self, raw: dict[str, Any] | None = None) -> None:
        super().__init__(raw or {})
        for key, (shape, cls) in self._nested.items():
            v = self.get(key)
            if v is None or isinstance(v, Fields):
                continue
            if shape == "one":
                self[key] = cls(v)
            elif shape == "list":
                self[key] = [cls(x) for x in v]
            else:
                self[key] = {k: cls(x) for k, x in v.items()}

    def to_dict(self) -> dict[str, Any]:
        """The record as plain nested dicts (what ``--json`` prints)."""
        return _plain(self)


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v
'''


def _ref(s: dict[str, Any]) -> str | None:
    r = s.get("$ref")
    return r.rsplit("/", 1)[1] if isinstance(r, str) else None


class _Gen:
    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs

    def is_record(self, name: str) -> bool:
        return isinstance(self.defs.get(name), dict) and "properties" in self.defs[name]

    def typ(self, s: Any) -> tuple[str, tuple[str, str] | None]:
        """The Python type of schema ``s``, and (shape, record) when it holds records."""
        if s is True or s == {}:
            return "Any", None
        name = _ref(s)
        if name is not None:
            if self.is_record(name):
                return name, ("one", name)
            return self.typ(self.defs[name])
        for key in ("anyOf", "oneOf"):
            if key in s:
                parts = [self.typ(x) for x in s[key]]
                found = [n for _, n in parts if n]
                types = list(dict.fromkeys(t for t, _ in parts))
                if set(types) - {"None"} and all(x.get("const") is not None or "enum" in x for x in s[key]):
                    return "str", None
                return " | ".join(types), found[0] if len(found) == 1 else None
        if "const" in s or "enum" in s:
            return "str", None
        t = s.get("type")
        if isinstance(t, list):
            inner = [self.typ({**s, "type": x})[0] for x in t if x != "null"]
            return " | ".join(inner) + (" | None" if "null" in t else ""), None
        if t == "integer":
            return "int", None
        if t == "number":
            return "float", None
        if t == "boolean":
            return "bool", None
        if t == "string":
            return "str", None
        if t == "null":
            return "None", None
        if t == "array":
            if "prefixItems" in s:
                items = list(dict.fromkeys(self.typ(x)[0] for x in s["prefixItems"]))
                return f"list[{' | '.join(items)}]", None
            it, nested = self.typ(s.get("items", True))
            return f"list[{it}]", ("list", nested[1]) if nested and nested[0] == "one" else None
        if t == "object":
            it, nested = self.typ(s.get("additionalProperties", True))
            return f"dict[str, {it}]", ("map", nested[1]) if nested and nested[0] == "one" else None
        return "Any", None

    def record(self, name: str, s: dict[str, Any]) -> str:
        doc = (s.get("description") or f"{name}, as the core serializes it.").split("\n\n")[0]
        lines = [f"class {name}(Fields):", _doc(doc, 4), "", "    __slots__ = ()"]
        nested: dict[str, tuple[str, str]] = {}
        props = []
        for field, ps in sorted(s["properties"].items()):
            t, n = self.typ(ps)
            if n:
                nested[field] = n
            attr = field + "_" if keyword.iskeyword(field) else field
            fdoc = (ps.get("description") or "").split("\n\n")[0] if isinstance(ps, dict) else ""
            props += ["", "    @property", f"    def {attr}(self) -> {t}:"]
            if fdoc:
                props.append(_doc(fdoc, 8))
            props.append(f"        return self[{json.dumps(field)}]")
        if nested:
            lines.append("    _nested: ClassVar[dict[str, tuple[str, type[Fields]]]] = {")
            for k, (sh, c) in sorted(nested.items()):
                lines.append(f"        {json.dumps(k)}: ({json.dumps(sh)}, {c}),")
            lines.append("    }")
        return "\n".join(lines + props)


def _doc(text: str, indent: int) -> str:
    """A docstring of ``text`` at ``indent``, wrapped to 100 columns."""
    import textwrap

    words = " ".join(text.split()).replace("\\", "\\\\").replace('"""', "'''")
    pad = " " * indent
    lines = textwrap.wrap(f'"""{words}"""', 100 - indent, break_long_words=False, break_on_hyphens=False)
    return "\n".join(pad + line for line in lines)


def generate(schemas: dict[str, Any]) -> str:
    """The module's text from the core's schemas."""
    defs: dict[str, Any] = {}
    for root, s in schemas.items():
        for name, d in s.get("$defs", {}).items():
            if name in defs and defs[name] != d:
                raise ValueError(f"two different schemas named {name}")
            defs[name] = d
        defs[root] = {k: v for k, v in s.items() if k not in ("$defs", "$schema", "title")}
    g = _Gen(defs)
    names = [n for n in defs if g.is_record(n)]
    # A record's nested classes come first (the `_nested` table names them at class creation).
    order: list[str] = []

    def visit(n: str) -> None:
        if n in order:
            return
        for ps in defs[n]["properties"].values():
            _, nested = g.typ(ps)
            if nested and nested[1] != n:
                visit(nested[1])
        order.append(n)

    for n in sorted(names):
        visit(n)
    return HEADER + "".join("\n\n" + g.record(n, defs[n]) + "\n" for n in order)


def main() -> None:
    from . import _core

    print(generate(json.loads(_core.result_schemas())), end="")


if __name__ == "__main__":
    main()
