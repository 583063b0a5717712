"""``Record``: the base of dl-lint's small data classes, plain ``__slots__`` classes.

Why not ``dataclasses``: making a dataclass costs about 0.6 ms at import (it compiles the
generated methods with ``exec``), and importing ``dataclasses`` imports ``inspect`` (about 8 ms).
A plain check imported some 34 of them, about 25 ms of startup for a tool that is compared with
ruff (about 100 ms for a whole run on the benchmark repositories).

A subclass declares its fields in ``__slots__``, in constructor order, and writes a plain
``__init__`` whose positional parameters are exactly those fields (a mutable default is written
``None`` and made fresh in ``__init__``). This base gives what ``@dataclass(frozen=True)`` gave:
equality and hashing over the fields (less those named in ``_uncompared``, the former
``field(compare=False)``), a repr, ``replace`` and ``as_dict`` (``dataclasses.replace`` and
``asdict``), and fast pickling (worker processes send records back). A mutable record sets
``__hash__ = None``. Records are not read-only: that they are not changed is a convention
inside the package, as it was (a ``__setattr__`` guard would slow every construction).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, ClassVar, Dict, FrozenSet, Tuple, TypeVar

__all__ = ["Record", "as_dict"]

R = TypeVar("R", bound="Record")


def _values_of(names: Tuple[str, ...]) -> Callable[[Any], Tuple[Any, ...]]:
    """A function returning the tuple of the attributes ``names`` of an object (always a tuple:
    ``attrgetter`` of one name returns the value itself)."""
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    if not names:
        return lambda obj: ()
    return attrgetter(*names)


class Record:
    __slots__ = ()

    # Set on each subclass by __init_subclass__: every field (base classes' first), and the
    # fields equality and hashing compare.
    _fields: ClassVar[Tuple[str, ...]] = ()
    _compared: ClassVar[Tuple[str, ...]] = ()
    # Fields left out of equality and hashing (what ``field(compare=False)`` was).
    _uncompared: ClassVar[FrozenSet[str]] = frozenset()
    _values: ClassVar[Callable[[Any], Tuple[Any, ...]]]
    _key: ClassVar[Callable[[Any], Tuple[Any, ...]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: list = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name not in fields and name not in ("__weakref__", "__dict__"):
                    fields.append(name)
        cls._fields = tuple(fields)
        cls._compared = tuple(name for name in fields if name not in cls._uncompared)
        # staticmethod: called as ``self._values(self)``, never bound as a method.
        cls._values = staticmethod(_values_of(cls._fields))
        cls._key = staticmethod(_values_of(cls._compared))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key(self) == self._key(other)

    def __hash__(self) -> int:
        return hash(self._key(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self._values(self)))
        return f"{self.__class__.__qualname__}({fields})"

    def __reduce__(self) -> Tuple[type, Tuple[Any, ...]]:
        return self.__class__, self._values(self)

    def replace(self: R, **changes: Any) -> R:
        """A copy with the fields in ``changes`` replaced (``dataclasses.replace``)."""
        values = [
            changes.pop(name) if name in changes else value for name, value in zip(self._fields, self._values(self))
        ]
        if changes:
            unknown = ", ".join(sorted(changes))
            raise TypeError(f"{self.__class__.__qualname__}.replace() got unexpected field(s): {unknown}")
        return self.__class__(*values)


def as_dict(record: Record) -> Dict[str, Any]:
    """The fields of ``record`` as a dict, records within it converted too; tuples and lists
    keep their type, dicts are copied (``dataclasses.asdict``)."""
    return {name: _plain(value) for name, value in zip(record._fields, record._values(record))}


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return as_dict(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {_plain(key): _plain(item) for key, item in value.items()}
    return value
