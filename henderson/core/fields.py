"""A position's fields declared once, as a dataclass, and everything derived from that
declaration: `clone`, `key`, the JSON position and its loading (with errors that name the
field), and a JSON Schema of the position.

A game declares its state as a dataclass whose fields are annotated with plain types
(`int`, `str`, `bool`, `Enum`s, `Literal`s, `list`/`set`/`frozenset`/`tuple`/`dict` of
them, `X | None`, and nested dataclasses), with `field(...)` for what the type cannot say:
the name in the JSON, a range, a check against the game's data, or that a field is a
cache that never leaves the engine. Adding a field is one line.

`Layout.of(cls)` builds the codec once per class; `clone` and `key` are generated as plain
Python functions, as fast as hand-written ones.
"""

from __future__ import annotations

import contextvars
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Literal

from henderson.core.dice import Dice, SeededDice, dice_from_json, fresh_seed
from henderson.core.errors import PositionError

Check = Callable[[Any, Any, str], None]  # (context, value, where) -> raises PositionError
_CONTEXT: contextvars.ContextVar[Any] = contextvars.ContextVar("position_context", default=None)


def field(
    default: Any = dataclasses.MISSING,
    *,
    factory: Callable[[], Any] | None = None,
    json: str | None = None,
    lo: int | None = None,
    hi: int | None = None,
    check: Check | None = None,
    cache: Literal["share", "reset"] | None = None,
    required: bool = False,
    in_key: bool = True,
    doc: str = "",
) -> Any:
    """A declared position field.

    json: its name in the position (default: the attribute name); lo/hi: the range of an
    integer (or of a container's integers); check(context, value, where): a check against
    the game's data, run when a position is loaded (raise PositionError); cache: not part of
    the position at all, its clone either shares the value ("share") or starts from the
    default ("reset"); required: a position must write it (else it takes the default);
    in_key: part of `key` (not the dice, the seed nor the action count)."""
    meta = {
        "json": json,
        "lo": lo,
        "hi": hi,
        "check": check,
        "cache": cache,
        "required": required,
        "in_key": in_key,
        "doc": doc,
    }
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


# -- codecs by type ------------------------------------------------------------------------------

MAX_INT = 10**12


_FIELD_NAMES: dict[type, frozenset[str]] = {}

R = typing.TypeVar("R")


def replaced(record: R, **changes: Any) -> R:
    """A copy of a frozen dataclass record with `changes`: what `dataclasses.replace` gives,
    without running every field through `__init__` again (the records games share between
    clones, AAG's pieces and DG's units, change at nearly every action). TypeError names a
    field the record does not have."""
    cls = type(record)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    unknown = changes.keys() - names
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    new = object.__new__(cls)
    attrs = new.__dict__
    attrs.update(record.__dict__)
    attrs.update(changes)
    return new


class kept(typing.Generic[R]):  # a decorator, named like `cached_property`
    """`functools.cached_property` without its lock (Python 3.11 takes one at every first
    read): a value found once per object from the object alone and kept in its `__dict__`,
    for the records that change at nearly every action (a changed copy drops it)."""

    def __init__(self, func: Callable[[Any], R]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @typing.overload
    def __get__(self, obj: None, owner: type | None = None) -> kept[R]: ...

    @typing.overload
    def __get__(self, obj: object, owner: type | None = None) -> R: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> R | kept[R]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class Codec:
    """How one type is copied, keyed, written and read."""

    mutable = False  # whether a clone needs its own copy

    def copy(self, value: Any) -> Any:
        return value

    def key(self, value: Any) -> Any:
        return value

    def dump(self, value: Any) -> Any:
        return value

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        raise NotImplementedError

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        raise NotImplementedError


def _fail(where: str, message: str) -> typing.NoReturn:
    raise PositionError(where, message)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class IntCodec(Codec):
    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        low = -MAX_INT if lo is None else lo
        high = MAX_INT if hi is None else hi
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            _fail(where, f"expected an integer {low}..{high}, got {_show(value)}")
        return value

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer", "minimum": -MAX_INT if lo is None else lo}
        out["maximum"] = MAX_INT if hi is None else hi
        return out


class FloatCodec(Codec):
    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            _fail(where, f"expected a number, got {_show(value)}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            _fail(where, f"expected a number {lo}..{hi}, got {value}")
        return float(value)

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "number"}
        if lo is not None:
            out["minimum"] = lo
        if hi is not None:
            out["maximum"] = hi
        return out


MAX_TEXT = 4096  # no id, name or note of any game's position or data comes near it


class StrCodec(Codec):
    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            _fail(where, f"expected text (at most {MAX_TEXT} characters), got {_show(value)}")
        return value

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"type": "string", "maxLength": MAX_TEXT}


class BoolCodec(Codec):
    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if not isinstance(value, bool):
            _fail(where, f"expected true or false, got {_show(value)}")
        return value

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"type": "boolean"}


class NoneCodec(Codec):
    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if value is not None:
            _fail(where, f"expected null, got {_show(value)}")
        return None

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"type": "null"}


class ChoiceCodec(Codec):
    """An Enum (written as its value) or a Literal of texts or numbers."""

    def __init__(self, choices: tuple[Any, ...], enum_type: type[enum.Enum] | None = None) -> None:
        self.enum = enum_type
        self.choices = choices  # the JSON values

    def dump(self, value: Any) -> Any:
        return value.value if self.enum is not None else value

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if isinstance(value, bool) != any(isinstance(c, bool) for c in self.choices) or value not in self.choices:
            shown = ", ".join(repr(c) for c in self.choices)
            _fail(where, f"{_show(value)} is not one of {shown}")
        return self.enum(value) if self.enum is not None else value

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"enum": list(self.choices)}


class OptionalCodec(Codec):
    def __init__(self, inner: Codec) -> None:
        self.inner = inner
        self.mutable = inner.mutable

    def copy(self, value: Any) -> Any:
        return None if value is None else self.inner.copy(value)

    def key(self, value: Any) -> Any:
        return None if value is None else self.inner.key(value)

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        return None if value is None else self.inner.load(value, where, lo, hi)

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"anyOf": [self.inner.schema(lo, hi), {"type": "null"}]}


MAX_ITEMS = 10_000  # no list of any game's position comes near it


class ListCodec(Codec):
    mutable = True

    def __init__(self, item: Codec, kind: type) -> None:
        self.item = item
        self.kind = kind  # list, tuple, set or frozenset
        self.mutable = kind in (list, set) or item.mutable

    def copy(self, value: Any) -> Any:
        if self.item.mutable:
            copy = self.item.copy
            items = [copy(v) for v in value]
            return items if self.kind is list else self.kind(items)
        return self.kind(value) if self.kind in (list, set) else value

    def key(self, value: Any) -> Any:
        keys = (self.item.key(v) for v in value)
        return frozenset(keys) if self.kind in (set, frozenset) else tuple(keys)

    def dump(self, value: Any) -> Any:
        items = [self.item.dump(v) for v in value]
        return sorted(items, key=_order) if self.kind in (set, frozenset) else items

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            _fail(where, f"expected a list, got {_show(value)}")
        items = [self.item.load(v, f"{where}[{i}]", lo, hi) for i, v in enumerate(value)]
        if self.kind in (set, frozenset) and len(set(items)) != len(items):
            _fail(where, "the same value twice")
        return self.kind(items)

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        out = {"type": "array", "items": self.item.schema(lo, hi), "maxItems": MAX_ITEMS}
        if self.kind in (set, frozenset):
            out["uniqueItems"] = True
        return out


class DictCodec(Codec):
    mutable = True

    def __init__(self, key: Codec, value: Codec) -> None:
        self.keys = key
        self.values = value

    def copy(self, value: Any) -> Any:
        if self.values.mutable:
            return {k: self.values.copy(v) for k, v in value.items()}
        return dict(value)

    def key(self, value: Any) -> Any:
        return tuple(sorted(((k, self.values.key(v)) for k, v in value.items()), key=_order))

    def dump(self, value: Any) -> Any:
        return {str(self.keys.dump(k)): self.values.dump(v) for k, v in sorted(value.items(), key=_order)}

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if not isinstance(value, Mapping) or len(value) > MAX_ITEMS:
            _fail(where, f"expected an object, got {_show(value)}")
        out = {}
        for k, v in value.items():
            out[self.keys.load(k, f"{where}.{k}", None, None)] = self.values.load(v, f"{where}.{k}", lo, hi)
        return out

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"type": "object", "additionalProperties": self.values.schema(lo, hi), "maxProperties": MAX_ITEMS}


class DiceCodec(Codec):
    """A dice source: cloned with the state, written as its state (`Dice.to_json`)."""

    mutable = True

    def copy(self, value: Any) -> Any:
        return value.clone()

    def dump(self, value: Any) -> Any:
        return value.to_json()

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        try:
            found = dice_from_json(value)
        except ValueError as exc:
            _fail(where, str(exc))
        return found if found is not None else SeededDice(fresh_seed())

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return {"type": ["object", "null"]}


class KindCodec(Codec):
    """A dataclass with subclasses that name their `kind` (a ClassVar): written as an
    object of the subclass's fields with its `kind` first, read back as that subclass."""

    mutable = True

    def __init__(self, base: type) -> None:
        self.base = base

    @property
    def kinds(self) -> dict[str, RecordCodec]:
        found: dict[str, RecordCodec] = {}
        todo: list[type] = list(self.base.__subclasses__())
        while todo:
            sub = todo.pop()
            todo.extend(sub.__subclasses__())
            if getattr(sub, "kind", ""):
                found[sub.kind] = RecordCodec(sub)  # type: ignore[attr-defined]
        return found

    def copy(self, value: Any) -> Any:
        return Layout.of(type(value)).clone(value)

    def key(self, value: Any) -> Any:
        return (value.kind, Layout.of(type(value)).key(value))

    def dump(self, value: Any) -> Any:
        return {"kind": value.kind, **Layout.of(type(value)).dump(value)}

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        kinds = self.kinds
        if not isinstance(value, Mapping) or value.get("kind") not in kinds:
            _fail(f"{where}.kind", f"expected one of {', '.join(sorted(kinds))}")
        rest = {k: v for k, v in value.items() if k != "kind"}
        layout = kinds[value["kind"]].layout
        bad = layout.unknown(rest)
        if bad is not None:
            _fail(f"{where}.{bad}", "unknown field")
        return layout.load(rest, None, where)

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        options = []
        for kind, codec in sorted(self.kinds.items()):
            sub = codec.layout.schema()
            sub["properties"] = {"kind": {"const": kind}, **sub["properties"]}
            sub["required"] = ["kind", *sub.get("required", [])]
            options.append(sub)
        return {"oneOf": options}


class RecordCodec(Codec):
    """A nested dataclass: written as an object of its declared fields."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.mutable = not getattr(cls, "__dataclass_params__").frozen  # noqa: B009
        self._layout: Layout | None = None

    @property
    def layout(self) -> Layout:
        if self._layout is None:
            self._layout = Layout.of(self.cls)
        return self._layout

    def copy(self, value: Any) -> Any:
        return self.layout.clone(value) if self.mutable else value

    def key(self, value: Any) -> Any:
        return self.layout.key(value)

    def dump(self, value: Any) -> Any:
        return self.layout.dump(value)

    def load(self, value: Any, where: str, lo: int | None, hi: int | None) -> Any:
        if isinstance(value, Mapping):
            bad = self.layout.unknown(value)
            if bad is not None:
                _fail(f"{where}.{bad}", "unknown field")
        return self.layout.load(value, None, where)

    def schema(self, lo: int | None, hi: int | None) -> dict[str, Any]:
        return self.layout.schema()


def _shallow(codec: Codec) -> bool:
    """Whether a container's `.copy()` is a full copy (its items never change in place)."""
    if isinstance(codec, DictCodec):
        return not codec.values.mutable
    return isinstance(codec, ListCodec) and codec.kind in (list, set) and not codec.item.mutable


def _order(item: Any) -> Any:
    """Sort values of mixed kinds deterministically (keys of a dict, members of a set)."""
    return (type(item).__name__, repr(item)) if not isinstance(item, str | int | tuple) else (0, item)


def _hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of a dataclass's fields; a cache field's annotation may name
    a type known only to the type checker (it is never read)."""
    try:
        return typing.get_type_hints(cls)
    except NameError:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.metadata.get("cache"):
                out[f.name] = Any
                continue
            holder = type("Hint", (), {"__annotations__": {f.name: f.type}, "__module__": cls.__module__})
            out[f.name] = typing.get_type_hints(holder)[f.name]
        return out


def codec_for(tp: Any) -> Codec:
    """The codec of a type annotation."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is int:
        return IntCodec()
    if tp is float:
        return FloatCodec()
    if tp is str:
        return StrCodec()
    if tp is bool:
        return BoolCodec()
    if tp is type(None):
        return NoneCodec()
    if tp is Dice:
        return DiceCodec()
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return ChoiceCodec(tuple(m.value for m in tp), tp)
    if origin is Literal:
        return ChoiceCodec(tuple(args))
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return OptionalCodec(codec_for(rest[0]))
        raise TypeError(f"unsupported union {tp!r} (only X | None)")
    if origin in (list, set, frozenset):
        return ListCodec(codec_for(args[0]), origin)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return ListCodec(codec_for(args[0]), tuple)
        raise TypeError(f"unsupported tuple {tp!r} (only tuple[X, ...])")
    if origin is dict:
        return DictCodec(codec_for(args[0]), codec_for(args[1]))
    if dataclasses.is_dataclass(tp):
        if isinstance(tp, type) and tp.__subclasses__() and hasattr(tp, "kind"):
            return KindCodec(tp)
        return RecordCodec(tp)  # type: ignore[arg-type]
    raise TypeError(f"unsupported field type {tp!r}")


# -- the layout of one class ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Slot:
    """One declared field: attribute, JSON name, codec and checks."""

    name: str
    json: str
    codec: Codec
    default: Any  # a value, or a factory (when `factory` is true)
    factory: bool
    lo: int | None
    hi: int | None
    check: Check | None
    cache: str | None
    required: bool
    in_key: bool
    doc: str

    def fresh(self) -> Any:
        return self.default() if self.factory else self.default


class Layout:
    """Everything derived from one dataclass's declared fields."""

    _cache: ClassVar[dict[type, Layout]] = {}

    def __init__(self, cls: type) -> None:
        self.cls = cls
        hints = _hints(cls)
        slots = []
        for f in dataclasses.fields(cls):
            meta = f.metadata
            factory = f.default_factory is not dataclasses.MISSING
            default = f.default_factory if factory else f.default
            slots.append(
                Slot(
                    name=f.name,
                    json=meta.get("json") or f.name,
                    codec=codec_for(hints[f.name]) if not meta.get("cache") else Codec(),
                    default=default,
                    factory=factory,
                    lo=meta.get("lo"),
                    hi=meta.get("hi"),
                    check=meta.get("check"),
                    cache=meta.get("cache"),
                    required=bool(meta.get("required")) or default is dataclasses.MISSING,
                    in_key=meta.get("in_key", True),
                    doc=meta.get("doc", ""),
                )
            )
        self.slots = tuple(slots)
        self.stored = tuple(s for s in slots if s.cache is None)
        self.by_json = {s.json: s for s in self.stored}
        self.clone = self._make_clone()
        self.key = self._make_key()

    @classmethod
    def of(cls, target: type) -> Layout:
        found = cls._cache.get(target)
        if found is None:
            found = cls._cache[target] = Layout(target)
        return found

    def _make_clone(self) -> Callable[[Any], Any]:
        """`clone(obj)`: a new object of the class, each field copied as its type needs (a
        record of values that never change in place is copied in one step)."""
        env: dict[str, Any] = {"cls": self.cls, "new": object.__new__}
        lines = ["def clone(src):", "    dst = new(cls)", "    d = dst.__dict__", "    s = src.__dict__"]
        if all(s.cache != "reset" and (s.cache == "share" or not s.codec.mutable) for s in self.slots):
            lines += ["    d.update(s)", "    return dst"]
            exec("\n".join(lines), env)  # generated from the declared fields only
            return typing.cast(Callable[[Any], Any], env["clone"])
        for i, s in enumerate(self.slots):
            if s.cache == "reset":
                env[f"fresh{i}"] = s.fresh
                lines.append(f"    d[{s.name!r}] = fresh{i}()")
            elif s.cache == "share" or not s.codec.mutable:
                lines.append(f"    d[{s.name!r}] = s[{s.name!r}]")
            elif _shallow(s.codec):
                lines.append(f"    d[{s.name!r}] = s[{s.name!r}].copy()")
            elif isinstance(s.codec, ListCodec | DictCodec):
                # an empty container (a game's pending decisions, most of the time) is made
                # afresh rather than walked by its copier
                env[f"copy{i}"] = s.codec.copy
                env[f"empty{i}"] = s.codec.kind if isinstance(s.codec, ListCodec) else dict
                lines.append(f"    v = s[{s.name!r}]")
                lines.append(f"    d[{s.name!r}] = copy{i}(v) if v else empty{i}()")
            else:
                env[f"copy{i}"] = s.codec.copy
                lines.append(f"    d[{s.name!r}] = copy{i}(s[{s.name!r}])")
        lines.append("    return dst")
        exec("\n".join(lines), env)  # generated from the declared fields only
        return typing.cast(Callable[[Any], Any], env["clone"])

    def _make_key(self) -> Callable[[Any], tuple[Any, ...]]:
        """`key(obj)`: a hashable tuple of every stored field."""
        env: dict[str, Any] = {}
        parts = []
        for i, s in enumerate(s for s in self.stored if s.in_key):
            if isinstance(s.codec, IntCodec | StrCodec | BoolCodec | ChoiceCodec | NoneCodec):
                parts.append(f"s[{s.name!r}]")
            else:
                env[f"key{i}"] = s.codec.key
                parts.append(f"key{i}(s[{s.name!r}])")
        body = ", ".join(parts)
        exec(f"def key(obj):\n    s = obj.__dict__\n    return ({body}{',' if parts else ''})", env)
        return typing.cast(Callable[[Any], tuple[Any, ...]], env["key"])

    def dump(self, obj: Any) -> dict[str, Any]:
        """The stored fields as JSON values, in declaration order."""
        d = obj.__dict__
        return {s.json: s.codec.dump(d[s.name]) for s in self.stored}

    def load(self, obj: Any, context: Any, where: str = "", into: Any = None) -> Any:
        """An object of the class from JSON (into `into` when given): each field read by its
        type, range-checked and checked against the game's data (`context`); a missing field
        takes its default; an unknown field is an error."""
        if not isinstance(obj, Mapping):
            _fail(where, f"expected an object, got {_show(obj)}")
        if context is None:
            context = _CONTEXT.get()
        else:
            token = _CONTEXT.set(context)
            try:
                return self.load(obj, None, where, into)
            finally:
                _CONTEXT.reset(token)
        target = into if into is not None else object.__new__(self.cls)
        d = target.__dict__
        for s in self.slots:
            path = f"{where}.{s.json}" if where else s.json
            if s.cache is not None:
                d[s.name] = s.fresh()
                continue
            if s.json in obj:
                value = s.codec.load(obj[s.json], path, s.lo, s.hi)
            elif s.required:
                _fail(path, "missing")
            else:
                value = s.fresh()
            if s.check is not None and context is not None:
                s.check(context, value, path)
            d[s.name] = value
        return target

    def unknown(self, obj: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> str | None:
        """The first field of `obj` that is not declared (nor in `allowed`)."""
        return next((k for k in obj if k not in self.by_json and k not in allowed), None)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the class's stored fields."""
        props = {}
        for s in self.stored:
            prop = s.codec.schema(s.lo, s.hi)
            if s.doc:
                prop = {**prop, "description": s.doc}
            props[s.json] = prop
        required = [s.json for s in self.stored if s.required]
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        if required:
            out["required"] = required
        return out
