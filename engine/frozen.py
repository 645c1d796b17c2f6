"""The base of the engine's small immutable values (a claim's verdict, a completion, a stone, a
position): equality, hashing, pickling and a refusal to be changed, from one list of fields.

The engine does without :mod:`dataclasses`: importing it (and :mod:`inspect` with it) cost more
CPU than the rest of ``import engine``, which every command and every conformance run pays.
"""

from __future__ import annotations

from enum import Enum
from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, Self


class IdentityEnum(Enum):
    """An enumeration hashed by identity. Its members are singletons, so identity is equality,
    and Enum's own hash runs Python code at every ``in`` and dict lookup: the claim proof and
    the game ask ``mode in modes`` and look up steps and decks thousands of times a game."""

    __hash__ = object.__hash__


set_field = object.__setattr__
"""How a frozen value's constructor sets its fields (the value's own ``__setattr__`` refuses)."""


def slot_setters(cls: type, *names: str) -> list[Callable[[Any, Any], None]]:
    """Each named slot's own setter, in order: what a hot constructor sets its fields with, in
    about half the time of :func:`set_field` (the slot's descriptor, called without the lookup
    that ``object.__setattr__`` makes)."""
    return [cls.__dict__[name].__set__ for name in names]


class FrozenValue:
    """A value whose fields, named by ``_fields``, never change once it is made.

    Subclasses declare ``__slots__`` and ``_fields`` (the constructor's parameters, in order)
    and set their fields in ``__init__`` with :func:`set_field`. Two values are equal when they
    are of the same class and their fields are equal.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _key: ClassVar[Callable[[Any], tuple[object, ...]]]

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        # One C call reads every field (for equality, hashing and pickling).
        cls._key = staticmethod(attrgetter(*cls._fields))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self.__class__._key(self) == self.__class__._key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__class__._key(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: {type(self).__name__} is frozen")

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        return (type(self), self.__class__._key(self))

    def replace(self, **changes: object) -> Self:
        """A copy with ``changes`` made, checked by the constructor as any new value is."""
        fields = dict(zip(self._fields, self.__class__._key(self), strict=True))
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        return type(self)(**{**fields, **changes})
