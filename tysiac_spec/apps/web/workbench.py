"""The house-rule workbench (``/w``): a house file's checks, rule book and comparison, the
form's controls, and the house file as YAML written from the form and read back.

No web framework here (:mod:`.server` holds the routes).  Every answer comes from the one
home of its rule: the checks are ``tysiac validate``'s (:func:`~tysiac_spec.ruleset.load_ruleset`
and :func:`~tysiac_spec.ruleset.check_every_option`, the text contained by
:func:`.rulesets.load_table_ruleset`), the rule book is :mod:`tysiac_spec.docs.book`'s, the
comparison :mod:`tysiac_spec.docs.compare`'s, the labels are the rule book's words
(:mod:`tysiac_spec.docs.terms`, :mod:`tysiac_spec.docs.fields`), and the controls are built
from the JSON Schema (``schemas/ruleset.schema.json``) and the base ruleset's table options.

A house file written from the form is ``id``, ``kind: house``, ``extends: <base>``, ``name``
and only the rules whose value differs from the base, nested as a person writes them::

    id: our-table
    kind: house
    extends: pl-standard
    name:
      en: Our table
    auction:
      step: 20
    options:
      five_rounds:
        default: up
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..._paths import SCHEMAS_DIR
from ...docs import terms
from ...docs.fields import form_nodes, value_at
from ...errors import TysiacError
from ...ruleset import Ruleset, check_every_option, load_ruleset, registry
from ...ruleset._yaml import YMap, load_yaml, to_plain
from ...ruleset.model import Formula
from . import views
from .rulesets import UPLOAD_FILE, load_table_ruleset, shipped

__all__ = [
    "CALLS_PER_MINUTE",
    "HouseFiles",
    "RateBook",
    "WorkbenchError",
    "book_html",
    "check",
    "compare_json",
    "controls",
    "house_parts",
    "house_text",
    "is_base",
]

META = frozenset({"source", "status", "reason", "doc"})
"""Provenance keys of a rule element: not rules, never a control."""

ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
"""A house file's ``id`` as the form writes it."""


CALLS_PER_MINUTE = 120
"""Workbench requests (checks, books, comparisons, saves) per minute from one address: the
page checks as a person types (debounced), so more than a table's creation allows."""


class RateBook:
    """Requests in the last minute per client address (:data:`CALLS_PER_MINUTE` each)."""

    def __init__(self, per_minute: int = CALLS_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self._seen: dict[str, list[float]] = {}

    def take(self, who: str) -> bool:
        """Count one request of ``who``; ``False`` when over the budget (not counted)."""
        now = time.monotonic()
        if len(self._seen) > 10_000:  # forget the quiet addresses
            self._seen = {k: v for k, v in self._seen.items() if v and now - v[-1] < 60}
        recent = [t for t in self._seen.get(who, []) if now - t < 60]
        if len(recent) >= self.per_minute:
            self._seen[who] = recent
            return False
        recent.append(now)
        self._seen[who] = recent
        return True


HOUSE_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""The id of a saved house file (its link ``/w/<id>``)."""


class HouseFiles:
    """The house files saved on the server, as files in the server's own folder, so that an
    upload may ``extends`` one by its id (:meth:`find`, given to
    :func:`tysiac_spec.ruleset.registry.add_finder`); the store keeps the texts, this folder
    is rebuilt from it at every start."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, house_id: str, text: str) -> None:
        """Keep ``text`` as the file of ``house_id`` (written whole, then renamed)."""
        if not HOUSE_ID_RE.fullmatch(house_id):
            raise WorkbenchError("not a house id")
        target = self.folder / f"{house_id}.yaml"
        tmp = target.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)

    def find(self, ref: str) -> Path | None:
        """The file of the saved house ``ref``; ``None`` for any other name."""
        if not HOUSE_ID_RE.fullmatch(ref):
            return None
        path = self.folder / f"{ref}.yaml"
        return path if path.is_file() else None


def is_base(ref: str) -> bool:
    """Whether ``ref`` names a ruleset a house file may extend here: a shipped id with a
    player count, or a saved house file."""
    return ref in _shipped_ids() or registry.found_elsewhere(ref) is not None


class WorkbenchError(ValueError):
    """A request the workbench cannot answer (an unknown base or rule path, a value of the
    wrong kind); the message names the field, for a ``400``."""


# ---------------------------------------------------------------------------- checks


def check(text: str) -> dict[str, Any]:
    """``text`` checked as ``tysiac validate house.yaml`` checks it (every value of every
    option too), within the upload limits and containment of :mod:`.rulesets`.

    Returns:
        ``{"ok": bool, "errors": [{"line", "column", "code", "message", "path", "text"}],
        "id": ruleset id or None}``; ``text`` is the diagnostic exactly as ``tysiac
        validate`` prints it for a file named ``house.yaml``; ``line``/``column`` are 1-based
        or ``None`` (a problem of the file as a whole).
    """
    try:
        rules = load_table_ruleset(None, text, None)
        check_every_option(rules, text=text)
    except TysiacError as exc:
        errors = [views.diagnostic_json(d, file=UPLOAD_FILE, source=text) for d in exc.diagnostics]
        return {"ok": False, "errors": errors, "id": _id_of(text)}
    return {"ok": True, "errors": [], "id": rules.id}


def _id_of(text: str) -> str | None:
    try:
        doc = load_yaml(text, file=UPLOAD_FILE)
    except TysiacError:
        return None
    ident = doc.get("id") if isinstance(doc, YMap) else None
    return ident if isinstance(ident, str) else None


def book_html(text: str, lang: str) -> str:
    """The rule book of the house file ``text`` in ``lang`` as one HTML page (the renderer
    of ``tysiac docs``).

    Raises:
        TysiacError: the file's problems (as :func:`check` lists them).
    """
    from ...docs.book import build_book, render_book

    rules = load_table_ruleset(None, text, None)
    links = {"home": "/w", "langs": {}, "markdown": ""}
    return render_book(build_book(rules, lang=lang), "html", links=links)


def compare_json(text: str, lang: str) -> dict[str, Any]:
    """What the house file ``text`` changes against the ruleset it extends: the rows of
    :func:`tysiac_spec.docs.compare.to_json` that differ, in ``lang``.

    Raises:
        TysiacError: the file's problems.
        WorkbenchError: the file extends no shipped ruleset (or several).
    """
    from ...docs.compare import compare, to_json

    rules = load_table_ruleset(None, text, None)
    parents = rules.parents
    if len(parents) != 1 or not is_base(parents[0]):
        raise WorkbenchError("the file extends one shipped ruleset (`extends: pl-standard`)")
    return to_json(compare([load_ruleset(parents[0]), rules], lang=lang))


# ---------------------------------------------------------------------------- the form


@lru_cache(maxsize=1)
def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS_DIR / "ruleset.schema.json").read_text(encoding="utf-8"))
    return data


def _resolve(node: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in node:
        node = _schema()["$defs"][str(node["$ref"]).rsplit("/", 1)[1]]
    return node


def _plain(node: Mapping[str, Any]) -> tuple[Mapping[str, Any], bool]:
    """A field's schema without its annotated form (``{value: …, source: …}``), and whether
    it may be null."""
    node = _resolve(node)
    nullable = False
    for _ in range(4):
        alts = node.get("anyOf")
        if not alts:
            break
        kept = [
            a
            for a in alts
            if a.get("type") != "null"
            and not any(p.get("$ref") == "#/$defs/annotated" for p in a.get("allOf", ()))
        ]
        nullable = nullable or (len(kept) < len(alts) and any(a.get("type") == "null" for a in alts))
        if len(kept) != 1:
            break
        node = _resolve(kept[0])
    return node, nullable


def _field_schema(parts: tuple[str, ...]) -> tuple[Mapping[str, Any], bool] | None:
    """The schema of the rule at document path ``parts`` (``("auction", "step")``,
    ``("players", "3", "hand_size")``), or ``None`` where the schema has none."""
    node: Mapping[str, Any] = _schema()
    nullable = False
    for i, part in enumerate(parts):
        node = _resolve(node)
        if i == 1 and parts[0] == "players":
            node = node.get("additionalProperties") or {}
            continue
        props = node.get("properties")
        if not isinstance(props, Mapping) or part not in props:
            return None
        node, nullable = _plain(props[part])
    return node, nullable


def _control_kind(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """The control for a field's (plain) schema: a yes/no switch, a whole number, a choice or
    a formula; ``None`` for a list or a mapping (written in the YAML only)."""
    if "enum" in schema:
        return {"kind": "choice", "choices": list(schema["enum"])}
    kind = schema.get("type")
    if kind == "boolean":
        return {"kind": "bool"}
    if kind == "integer":
        return {"kind": "int", "min": schema.get("minimum"), "max": schema.get("maximum")}
    if kind == "string" and "x-formula" in schema:
        return {"kind": "formula", "site": schema["x-formula"]}
    if kind == "string":
        return {"kind": "text"}
    return None


def _plain_value(value: Any) -> Any:
    if isinstance(value, Formula):
        return value.text
    return value


def _doc_value(doc: Any, parts: tuple[str, ...]) -> tuple[bool, Any]:
    node = doc
    for part in parts:
        if isinstance(node, Mapping) and "value" in node and part not in node:
            node = node["value"]
        if not isinstance(node, Mapping) or part not in node:
            return False, None
        node = node[part]
    if isinstance(node, Mapping) and "value" in node:
        node = node["value"]
    return True, to_plain(node)


@lru_cache(maxsize=1)
def _shipped_ids() -> tuple[str, ...]:
    return tuple(r.id for r in shipped())


def _base(base: str) -> Ruleset:
    if not is_base(base):
        raise WorkbenchError(f"`base` is one of {', '.join(_shipped_ids())}, or the id of a saved house file")
    return load_ruleset(base)


@lru_cache(maxsize=64)
def controls(base: str, lang: str) -> dict[str, Any]:
    """The workbench's form for a house file extending the shipped ruleset ``base``, in
    ``lang``: one control per rule, in the rule book's sections and order
    (:func:`tysiac_spec.docs.fields.form_nodes`), labelled with its words; the table-plan
    rules once per player count; then the table options.

    Returns:
        ``{"base", "counts": [2, 3, 4], "sections": [{"id", "title", "controls": [{"path",
        "label", "kind" ("bool" | "int" | "choice" | "formula" | "text"), "nullable",
        "value" (the base's), "choices"?: [{"value", "label"}], "min"?, "max"?, "site"?,
        "doc"?, "set_by"?, "set_by_label"?, "per_count"?: [{"n", "value", "path"}]}]}]}``;
        ``path`` is the dotted document path (``auction.step``, ``players.3.hand_size``,
        ``options.five_rounds``); a table option's
        ``label`` and its choices' are its words (:func:`tysiac_spec.docs.terms.option_name`,
        :func:`~tysiac_spec.docs.terms.option_value`); ``set_by`` names the table option that
        sets the rule, ``set_by_label`` in words; ``per_count`` lists the base's values of the
        rule for a player count (``players.3.auction.cap``), which the form does not change.

    Raises:
        WorkbenchError: ``base`` is no shipped ruleset with a player count.
    """
    rules = _base(base)
    counts = list(rules.player_counts)
    first = rules.form(min(counts))
    sections: dict[str, dict[str, Any]] = {}
    groups: dict[int, str] = {}
    for node in form_nodes(rules, first, lang):
        if node.kind == "group":
            groups[node.depth] = node.label
        if node.kind != "leaf" or "[" in node.path:
            continue
        within = [groups[d] for d in range(node.depth) if d in groups]
        rel = tuple(node.path.split("."))
        places: list[tuple[tuple[str, ...], int | None]]
        if rel[0] == "players":
            places = [(("players", str(n), *rel[2:]), n) for n in counts]
        else:
            places = [(rel, None)]
        for parts, n in places:
            found = _field_schema(parts)
            if found is None:
                continue
            kind = _control_kind(found[0])
            if kind is None:
                continue
            written, value = _doc_value(rules.document, parts)
            if not written:
                form = rules.form(n) if n is not None else first
                value = _plain_value(value_at(form, node.model))
            if isinstance(value, (list, dict, tuple)):
                continue
            label = " › ".join([*within, node.label])
            if n is not None:
                label += f" ({terms.ui('n_players', lang, n=n)})"
            control = {"path": ".".join(parts), "label": label, "nullable": found[1], "value": value, **kind}
            if n is None:
                # a base may set this rule again per player count (players.3.auction.cap):
                # shown beside the control, read-only (the form writes the top-level rule)
                per_count = []
                for count in counts:
                    at = ("players", str(count), *parts)
                    over, v = _doc_value(rules.document, at)
                    if over and not isinstance(v, (list, dict, tuple)):
                        per_count.append({"n": count, "value": v, "path": ".".join(at)})
                if per_count:
                    control["per_count"] = per_count
            if kind["kind"] == "choice":
                control["choices"] = [
                    {"value": c, "label": terms.choice(node.model, str(c), lang) or str(c)}
                    for c in kind["choices"]
                ]
            section = sections.setdefault(
                node.section,
                {
                    "id": node.section,
                    "title": terms.pick(terms.SECTION_TITLES[node.section], lang),
                    "controls": [],
                },
            )
            section["controls"].append(control)
    set_by = _set_by_options(rules)
    for section in sections.values():
        for control in section["controls"]:
            if control["path"] in set_by:
                name = set_by[control["path"]]
                control["set_by"] = name
                control["set_by_label"] = terms.option_name(name, lang, rules.options[name].doc)
    options = []
    for name, opt in rules.options.items():
        doc = (opt.doc or {}).get(lang) or (opt.doc or {}).get("en")
        control = {
            "path": f"options.{name}",
            "label": terms.option_name(name, lang, opt.doc),
            "nullable": False,
            "value": opt.default,
            "doc": doc,
        }
        if opt.type == "choice":
            control |= {
                "kind": "choice",
                "choices": [{"value": c, "label": terms.option_value(name, c, lang)} for c in opt.choices],
            }
        elif opt.type == "bool":
            control |= {"kind": "bool"}
        else:
            control |= {"kind": "int", "min": opt.minimum, "max": opt.maximum}
        options.append(control)
    out = list(sections.values())
    if options:
        out.append(
            {"id": "options", "title": terms.pick(terms.SECTION_TITLES["options"], lang), "controls": options}
        )
    return {"base": base, "counts": counts, "sections": out}


def _patch_paths(node: Any, parts: tuple[str, ...]) -> list[str]:
    if isinstance(node, Mapping) and not ("value" in node and set(node) <= META | {"value"}):
        return [p for k, v in node.items() if k not in META for p in _patch_paths(v, (*parts, str(k)))]
    return [".".join(parts)]


def _set_by_options(rules: Ruleset) -> dict[str, str]:
    """Document path -> the table option whose values set that rule (a house file changes
    the option there, not the rule: ``option.overridden``)."""
    out: dict[str, str] = {}
    for name, opt in rules.options.items():
        for patch in (opt.set or {}).values():
            for path in _patch_paths(patch or {}, ()):
                out.setdefault(path, name)
    return out


def _by_path(base: str) -> dict[str, dict[str, Any]]:
    return {c["path"]: c for s in controls(base, "en")["sections"] for c in s["controls"]}


def _valid(control: Mapping[str, Any], value: Any) -> bool:
    kind = control["kind"]
    if value is None:
        return bool(control["nullable"])
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        low, high = control.get("min"), control.get("max")
        return (low is None or value >= low) and (high is None or value <= high)
    if kind == "choice":
        return value in control["choices"] or value in [c["value"] for c in control["choices"]]
    return isinstance(value, str) and 0 < len(value) <= 2000


_PLAIN = re.compile(r"[^\W\d][\w .()+*/<>=-]*[\w.)]|[^\W\d]")
"""A text written without quotes: a word or words, no ``: `` or `` #``, no leading digit."""
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null", "none", "~"})


def _scalar(value: Any) -> str:
    """A value as YAML: ``true``/``false``, ``null``, a number, a plain word, else a
    double-quoted string (JSON's quoting, which YAML reads the same)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS and ": " not in text and " #" not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _key(key: Any) -> str:
    if isinstance(key, int) and not isinstance(key, bool):
        return str(key)
    text = str(key)
    plain = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*|[1-9][0-9]{0,5}", text) and text.lower() not in _YAML_WORDS
    return text if plain else json.dumps(text)


def _emit(tree: Mapping[Any, Any], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for key, value in tree.items():
        if isinstance(value, Mapping) and value:
            out.append(f"{pad}{_key(key)}:")
            _emit(value, indent + 2, out)
        elif isinstance(value, list) and any(isinstance(v, Mapping | list) for v in value):
            out.append(f"{pad}{_key(key)}:")
            _emit_list(value, indent + 2, out)
        else:
            out.append(f"{pad}{_key(key)}: {_flow(value)}")


def _emit_list(items: list[Any], indent: int, out: list[str]) -> None:
    pad = " " * indent
    for item in items:
        if isinstance(item, Mapping) and item:
            inner: list[str] = []
            _emit(item, indent + 2, inner)
            out.append(f"{pad}- {inner[0].lstrip()}")
            out.extend(inner[1:])
        elif isinstance(item, list) and any(isinstance(v, Mapping | list) for v in item):
            out.append(f"{pad}-")
            _emit_list(item, indent + 2, out)
        else:
            out.append(f"{pad}- {_flow(item)}")


def _flow(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _drop(doc: dict[Any, Any], parts: list[str]) -> None:
    """Remove ``parts`` from ``doc`` (an annotated value goes whole), and the mappings it leaves empty."""
    node: Any = doc
    trail: list[tuple[dict[Any, Any], Any]] = []
    for part in parts[:-1]:
        key = next((k for k in node if str(k) == part), None) if isinstance(node, dict) else None
        if key is None:
            return
        trail.append((node, key))
        node = node[key]
    if not isinstance(node, dict):
        return
    last = next((k for k in node if str(k) == parts[-1]), None)
    if last is None:
        return
    del node[last]
    for parent, key in reversed(trail):
        if parent[key] == {}:
            del parent[key]


def _merge(into: dict[Any, Any], tree: Mapping[Any, Any]) -> None:
    for key, value in tree.items():
        same = next((k for k in into if str(k) == str(key)), key)
        if isinstance(value, Mapping) and isinstance(into.get(same), dict):
            _merge(into[same], value)
        else:
            into[same] = value


_HEAD = ("id", "kind", "extends", "name")


def house_text(
    base: str,
    changes: Mapping[str, Any],
    *,
    ident: str = "my-house",
    name: str = "My house rules",
    previous: str | None = None,
) -> str:
    """The house file extending ``base`` with ``changes`` (document path -> value, the
    paths of :func:`controls`): only the values that differ from the base are written, in
    the form's order; a table option's value is written as its ``default``.  With
    ``previous`` (the file as it stands), what it writes beyond the form's rules -- other
    languages' names, a description, lists, per-count sections -- is kept, in its order (its
    comments are not).

    Raises:
        WorkbenchError: an unknown base or path, a value of the wrong kind, a bad id or name,
            a ``previous`` that is not a YAML mapping within the limits.
    """
    known = _by_path(base)
    if not ID_RE.fullmatch(ident):
        raise WorkbenchError("`id` is 1 to 64 lower-case letters, digits and hyphens")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 200 or any(ord(c) < 32 for c in name):
        raise WorkbenchError("`name` is 1 to 200 characters on one line")
    for path, value in changes.items():
        control = known.get(path)
        if control is None:
            raise WorkbenchError(f"no rule `{path[:80]}` in the workbench's form for {base}")
        if not _valid(control, value):
            raise WorkbenchError(f"`{path}`: not a value of this rule")
    kept: dict[Any, Any] = {}
    names: dict[Any, Any] = {}
    if previous is not None and previous.strip():
        from ... import limits

        try:
            limits.check("ruleset_bytes", len(previous.encode("utf-8", "surrogatepass")), file=UPLOAD_FILE)
            doc = to_plain(load_yaml(previous, file=UPLOAD_FILE))
        except TysiacError:
            raise WorkbenchError("the YAML has errors: fix them before using the form") from None
        if isinstance(doc, dict):
            names = dict(doc["name"]) if isinstance(doc.get("name"), dict) else {}
            kept = {k: v for k, v in doc.items() if k not in _HEAD}
            for path in known:
                parts = path.split(".")
                _drop(kept, [*parts, "default"] if parts[0] == "options" else parts)
                if parts[0] == "options" and parts[1] in kept.get("options", {}) and path not in changes:
                    left = kept["options"][parts[1]]
                    if isinstance(left, dict) and set(left) <= META:  # only its words were left
                        _drop(kept, parts)
    tree: dict[str, Any] = {}
    for path, control in known.items():
        if path not in changes or changes[path] == control["value"]:
            continue
        parts = path.split(".")
        if parts[0] == "options":
            parts.append("default")
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = changes[path]
    _merge(kept, tree)
    names = {"en": name.strip(), **{k: v for k, v in names.items() if k != "en"}}
    out = [f"id: {ident}", "kind: house", f"extends: {base}", "name:"]
    _emit(names, 2, out)
    _emit(kept, 0, out)
    return "\n".join(out) + "\n"


def house_parts(text: str) -> dict[str, Any]:
    """The form's view of a house file: ``{"base", "id", "name", "changes", "other"}`` --
    ``changes`` the values of the form's rules the file writes (document path -> value),
    ``other`` the paths it writes that have no control (lists, per-count sections, …; kept
    in the YAML only).  ``base`` is ``None`` unless the file extends one shipped ruleset.

    Raises:
        TysiacError: the text is not YAML, or is over the limits.
    """
    from ... import limits

    limits.check("ruleset_bytes", len(text.encode("utf-8", "surrogatepass")), file=UPLOAD_FILE)
    doc = to_plain(load_yaml(text, file=UPLOAD_FILE))
    if not isinstance(doc, dict):
        return {"base": None, "id": None, "name": None, "changes": {}, "other": []}
    base = doc.get("extends")
    base = base if isinstance(base, str) and is_base(base) else None
    name = doc.get("name")
    name = name.get("en") if isinstance(name, dict) else None
    known = _by_path(base) if base else {}
    changes: dict[str, Any] = {}
    other: list[str] = []

    def walk(node: Any, parts: tuple[str, ...]) -> None:
        path = ".".join(parts)
        if isinstance(node, dict) and "value" in node and path in known:
            node = node["value"]
        if path in known and not isinstance(node, dict | list):
            changes[path] = node
        elif isinstance(node, dict):
            for key, value in node.items():
                if str(key) not in META:
                    walk(value, (*parts, str(key)))
        else:
            other.append(path)

    for key, value in doc.items():
        if key in ("id", "kind", "extends", "name", "description", "aliases", "sources", *META):
            continue
        if key == "options" and isinstance(value, dict):
            for opt, spec in value.items():
                path = f"options.{opt}"
                if (
                    path in known
                    and isinstance(spec, dict)
                    and set(spec) - META <= {"default"}
                    and "default" in spec
                ):
                    changes[path] = spec["default"]
                else:
                    other.append(path)
            continue
        walk(value, (str(key),))
    # a rule written at the base's value is no change
    changes = {p: v for p, v in changes.items() if not (p in known and known[p]["value"] == v)}
    return {
        "base": base,
        "id": doc.get("id") if isinstance(doc.get("id"), str) else None,
        "name": name if isinstance(name, str) else None,
        "changes": changes,
        "other": other,
    }
