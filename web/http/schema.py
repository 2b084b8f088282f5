"""Answers described once: every JSON body the API answers with is a ``typing.TypedDict``
declared beside the code that builds it (that code's return type), and the view gives the
same TypedDict to drf-spectacular: ``extend_schema(responses={200: Game})``, or
``list[Stats]`` for a list. No serializer describes an answer a second time.

``AnswerSchema`` (the base of ``accounts.schema.AutoSchema``, the API's schema class) makes
each TypedDict a component of the schema named after it, its docstring the description. A
key's type says what the schema says of it:

- ``NotRequired[X]``: a key that is sometimes absent; ``X | None``: null allowed;
- another TypedDict: its component; ``list[X]``, ``dict[str, X]``: an array, an object;
- ``Literal["a", "b"]``, or ``Annotated[str, OneOf(choices)]`` with a model's (value, label)
  choices: an enum, named after the key as drf-spectacular names a serializer's choices
  (``StatusEnum``);
- ``Annotated[X, "Words."]``: the key's description;
- ``Annotated[X, OpenApiTypes.DATE]``: a string of that format (``IsoDate``, ``Time``);
  ``Annotated[X, {...}]``: that schema, as it is;
- ``Any``: any JSON value.

At run time a TypedDict is a plain dict: nothing here runs while a request is answered.
"""

from __future__ import annotations

import datetime as dt
import inspect
import types
from collections.abc import Sequence
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from drf_spectacular import openapi
from drf_spectacular.plumbing import (
    ResolvedComponent,
    build_array_type,
    build_basic_type,
    build_choice_description_list,
    build_object_type,
    list_hash,
    resolve_type_hint,
)
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

#: A day as the JSON renderer writes it: a date, or its YYYY-MM-DD text already.
IsoDate = Annotated[dt.date | str, OpenApiTypes.DATE]

#: A time as the JSON renderer writes it: a datetime, or its ISO 8601 text already (UTC as
#: ``Z``: ``games.play.selectors.json_time``).
Time = Annotated[dt.datetime | str, OpenApiTypes.DATETIME]


@dataclass(frozen=True)
class OneOf:
    """In ``Annotated[str, OneOf(choices)]``: one of the values of ``choices``, (value,
    label) pairs as a model field's."""

    choices: Sequence[tuple[Any, str]]


def is_answer_type(hint: Any) -> bool:
    """A TypedDict, or a list of them: an answer this module describes."""
    if get_origin(hint) is list:
        return any(is_answer_type(arg) for arg in get_args(hint))
    return is_typeddict(hint)


class AnswerSchema(openapi.AutoSchema):
    """drf-spectacular's schema, reading the TypedDicts views give as their answers."""

    def _get_response_for_code(
        self,
        serializer: Any,
        status_code: str,
        media_types: Any = None,
        direction: Any = "response",
    ) -> Any:
        if isinstance(serializer, OpenApiResponse) and is_answer_type(serializer.response):
            serializer = OpenApiResponse(
                self.answer_schema(serializer.response),
                serializer.description,
                serializer.examples,
            )
        elif is_answer_type(serializer):
            serializer = self.answer_schema(serializer)
        return super()._get_response_for_code(serializer, status_code, media_types, direction)

    def answer_schema(self, hint: Any) -> dict[str, Any]:
        """The schema of a value of type ``hint``; a TypedDict's is a reference to its
        component."""
        origin, args = get_origin(hint), get_args(hint)
        if origin is Annotated:
            base, *notes = args
            formats = [note for note in notes if isinstance(note, OpenApiTypes)]
            schema = build_basic_type(formats[0]) if formats else self.answer_schema(base)
            for note in notes:
                if isinstance(note, dict):
                    schema = note
                elif isinstance(note, OneOf):
                    schema = _enum(list(note.choices))
                elif isinstance(note, str):
                    schema = _described(schema, note)
            return schema
        if origin in (Union, types.UnionType):
            options = [arg for arg in args if arg is not type(None)]
            if len(options) != 1 or len(options) == len(args):
                raise TypeError(f"only X | None is described: {hint}")
            return _nullable(self.answer_schema(options[0]))
        if origin is Literal:
            return _enum([(value, value) for value in args])
        if origin is list:
            return build_array_type(self.answer_schema(args[0]))
        if origin is dict or hint is dict:
            schema = build_basic_type(OpenApiTypes.OBJECT)
            if args and args[1] is not Any:
                schema["additionalProperties"] = self.answer_schema(args[1])
            return schema
        if hint is Any:
            return {}
        if is_typeddict(hint):
            return self._component(hint).ref
        return resolve_type_hint(hint)

    def _component(self, hint: Any) -> ResolvedComponent:
        # A name given twice to different TypedDicts is drf-spectacular's collision warning.
        component = ResolvedComponent(
            name=hint.__name__, type=ResolvedComponent.SCHEMA, object=hint
        )
        if component in self.registry:
            return self.registry[component]
        self.registry.register(component)
        properties, required = {}, []
        # Read from the hints, not __required_keys__: Python 3.11 gets those wrong for
        # NotRequired under ``from __future__ import annotations``.
        for key, value in get_type_hints(hint, include_extras=True).items():
            if get_origin(value) is NotRequired:
                value = get_args(value)[0]
            elif get_origin(value) is Required:
                value = get_args(value)[0]
                required.append(key)
            elif hint.__total__:
                required.append(key)
            properties[key] = self.answer_schema(value)
        doc = inspect.cleandoc(hint.__doc__) if hint.__doc__ else None
        component.schema = build_object_type(properties, required, doc)
        return component


def _enum(choices: list[tuple[Any, str]]) -> dict[str, Any]:
    """As drf-spectacular describes a ChoiceField: its hook makes it a ``<Key>Enum``."""
    schema: dict[str, Any] = {"enum": [value for value, _ in choices]}
    if all(isinstance(value, str) for value, _ in choices):
        schema["type"] = "string"
    schema["description"] = build_choice_description_list(choices)
    schema["x-spec-enum-id"] = list_hash(choices)
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "enum" in schema and None not in schema["enum"]:
        return {**schema, "enum": [*schema["enum"], None], "nullable": True}
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    return {**schema, "nullable": True}


def _described(schema: dict[str, Any], description: str) -> dict[str, Any]:
    if "$ref" in schema:
        return {"allOf": [schema], "description": description}
    if schema.get("description"):  # an enum's list of values
        description = f"{description}\n\n{schema['description']}"
    return {**schema, "description": description}
