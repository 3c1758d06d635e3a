"""Hypothesis strategies from the roster schema (the JSON Schema subset our schemas use).

``from_schema(schema)`` draws values that the schema accepts, so that property tests try
the engine on exactly what ``read_roster`` lets through. Unknown keywords fail loudly, so a
schema that grows a keyword this module doesn't know can't quietly weaken the tests.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import strategies as st

ANNOTATIONS = {"description", "title", "$schema", "$id", "default", "examples"}
KNOWN = ANNOTATIONS | {
    "type", "const", "enum", "oneOf", "anyOf", "properties", "required",
    "additionalProperties", "items", "minItems", "maxItems", "minLength", "maxLength",
    "pattern", "minimum", "maximum",
}  # fmt: skip
SMALL_INT = 50
#: What a roster's text may hold: any character but NUL (``rules.roster.text_problem``);
#: lone surrogates (category Cs) can't be written as UTF-8 anyway.
CHARACTERS = st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x00")
TEXT = st.text(CHARACTERS, max_size=12)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"schema keywords not supported by the strategy: {sorted(unknown)}")
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([from_schema(s) for s in schema[key]])
    types = schema.get("type")
    if types is None:
        return st.none() | st.booleans() | st.integers() | TEXT
    if isinstance(types, list):
        return st.one_of([from_schema({**schema, "type": t}) for t in types])
    return _TYPES[types](schema)


def _string(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    text = st.text(
        CHARACTERS,
        min_size=schema.get("minLength", 0),
        max_size=min(schema.get("maxLength", 12), 12),
    )
    if "pattern" in schema:
        pattern = re.compile(schema["pattern"])
        text = text.filter(lambda s: pattern.search(s) is not None)
    return text


def _integer(schema: dict[str, Any]) -> st.SearchStrategy[int]:
    low = schema.get("minimum", -SMALL_INT)
    return st.integers(min_value=low, max_value=schema.get("maximum", max(low, 0) + SMALL_INT))


def _number(schema: dict[str, Any]) -> st.SearchStrategy[float | int]:
    return _integer(schema) | st.floats(
        min_value=schema.get("minimum", -SMALL_INT),
        max_value=schema.get("maximum", SMALL_INT),
        allow_nan=False,
    )


def _array(schema: dict[str, Any]) -> st.SearchStrategy[list]:
    items = from_schema(schema.get("items", {}))
    return st.lists(
        items, min_size=schema.get("minItems", 0), max_size=min(schema.get("maxItems", 6), 6)
    )


def _object(schema: dict[str, Any]) -> st.SearchStrategy[dict]:
    properties = schema.get("properties", {})
    required = set(schema.get("required", ()))
    for name in required - set(properties):
        properties = {**properties, name: {}}
    return st.fixed_dictionaries(
        {k: from_schema(v) for k, v in properties.items() if k in required},
        optional={k: from_schema(v) for k, v in properties.items() if k not in required},
    )


_TYPES = {
    "string": _string,
    "integer": _integer,
    "number": _number,
    "boolean": lambda schema: st.booleans(),
    "null": lambda schema: st.none(),
    "array": _array,
    "object": _object,
}
