"""Cheap decisions about which files and calls can construct a loader.

Bytes first, and only bytes decide whether a file is parsed: it must mention a loader name
(``DataLoader``, ``StatefulDataLoader``, an ``extra-loaders`` name), and show a call or a
rebinding of one: ``DataLoader(``, ``InfiniteDataLoader(``, ``FastLoader(`` (a class-like name
ending in Loader, as project subclasses are named), ``DataLoader as``, ``= DataLoader``,
``partial(DataLoader``, ``class X(DataLoader``, ``DataLoader if`` / ``else DataLoader``. Most
files that mention DataLoader do so in imports, type hints and docstrings only; parsing is the
largest cost of a run, so they are skipped.

Then, on the module's index (``analysis.scopes``, built from the one parse): which callees
could hold a loader class. Only those calls are resolved (resolving a callee can load another
module's summary). This check is conservative (a superset): a name that merely *could* hold a
loader class counts.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from dl_lint.analysis.scopes import ModuleIndex
from dl_lint.analysis.syntax import is_literal_data

LOADER_NAMES = frozenset({"DataLoader", "StatefulDataLoader"})


def mentions_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    return (
        any(name in data for name in _searched(tuple(extra_names)))
        or b"Loader(" in data  # a call of a class named like a loader: a project subclass, imported
        or _library_mention(data)
    )


def _library_mention(data: bytes) -> bool:
    """The file names a library whose loader classes are in ``analysis.library_loaders``'s table
    (``torch_geometric``): its ``NeighborLoader(`` or ``GraphSAINTRandomWalkSampler(`` need not
    say DataLoader anywhere."""
    return any(package in data for package in _library_packages())


@lru_cache(maxsize=1)
def _library_packages() -> Tuple[bytes, ...]:
    from dl_lint.analysis.library_packages import LIBRARY_PACKAGES

    return tuple(sorted(name.encode() for name in LIBRARY_PACKAGES))


@lru_cache(maxsize=1)
def _library_call() -> "re.Pattern[bytes]":
    from dl_lint.analysis.library_packages import SHORT_NAMES

    return re.compile(rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in sorted(SHORT_NAMES)) + rb")\s*\(")


def library_names() -> FrozenSet[str]:
    from dl_lint.analysis.library_packages import SHORT_NAMES

    return SHORT_NAMES


@lru_cache(maxsize=16)
def _searched(extra_names: Tuple[str, ...]) -> Tuple[bytes, ...]:
    """The loader names to search for, without those that hold another (``StatefulDataLoader``
    holds ``DataLoader``: a file without the one has not the other, and most files have
    neither, so its scan, over every byte, found nothing new)."""
    names = {n.encode() for n in (*LOADER_NAMES, *(n.rsplit(".", 1)[-1] for n in extra_names)) if n}
    return tuple(sorted(n for n in names if not any(o != n and o in n for o in names)))


_CALL_AFTER = re.compile(rb"\w*\s*\(")  # DataLoader(, DataLoaderX(
_REBIND_AFTER = re.compile(rb"\s+(?:as|if)\b")  # import ... as L; DataLoader if c else Other
_REBIND_BEFORE = re.compile(
    rb"(?:=\s*\(?\s*|\belse\s+|\bpartial\s*\(\s*|\bclass\s+\w+\s*\([^)]*?)(?:[\w.]+\.)?$"
)
_CLASS_LIKE_CALL = re.compile(rb"Loader\w*\s*\(")


@lru_cache(maxsize=16)
def _names_pattern(extra: Tuple[str, ...]) -> "re.Pattern[bytes]":
    return re.compile(b"|".join(re.escape(n.encode()) for n in sorted({"DataLoader", *extra}, key=len, reverse=True)))


def may_construct(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    """Whether the bytes of a file that mentions a loader show a call or a rebinding of one
    (see the module docstring): the files worth parsing."""
    return construct_evidence(data, extra_names) is not None


def construct_evidence(data: bytes, extra_names: Iterable[str] = ()) -> Optional[FrozenSet[str]]:
    """What in the bytes of a file that mentions a loader can construct one: None, nothing;
    an empty set, a loader name itself is called or rebound (``DataLoader(``, ``as
    DataLoader``); otherwise the class-like names whose calls are the only evidence
    (``InfiniteDataLoader(``, accelerate's ``DataLoaderConfiguration(``): the file matters only
    if one of them can be a loader class of the project (``may_name_loader_class``). Every test
    is anchored on a literal (the loader names, ``Loader``), so the scan runs at the speed of a
    substring search. Occurrences in comments and doctest lines (``>>>``, ``...``) do not count."""
    extra = tuple(sorted({n.rsplit(".", 1)[-1] for n in extra_names}))
    exact = LOADER_NAMES.union(extra)
    names: Set[str] = set()
    if _library_mention(data):  # a call of a library loader class: the parse decides what it is
        for match in _library_call().finditer(data):
            line_start = data.rfind(b"\n", 0, match.start()) + 1
            if not _in_comment_or_doctest(data, line_start, match.start()):
                return frozenset()
    for match in _names_pattern(extra).finditer(data):
        start, end = match.span()
        line_start = data.rfind(b"\n", 0, start) + 1
        before = data[max(line_start, start - 200) : start]
        if _in_comment_or_doctest(data, line_start, start):
            continue
        call = _CALL_AFTER.match(data, end)
        if call is not None:
            word = _word_around(data, start, end)
            if word in exact:
                return frozenset()
            names.add(word)  # DataLoaderConfiguration(, UlyssesSPDataLoaderAdapter(
            continue
        if _REBIND_AFTER.match(data, end) or _REBIND_BEFORE.search(before):
            return frozenset()
    for match in _CLASS_LIKE_CALL.finditer(data):  # FastLoader(: a project subclass, by its name
        begin = match.start()
        while begin > 0 and (data[begin - 1 : begin].isalnum() or data[begin - 1 : begin] == b"_"):
            begin -= 1
        if begin < match.start() and data[begin : begin + 1].isupper():
            if not _in_comment_or_doctest(data, data.rfind(b"\n", 0, begin) + 1, begin):
                word = _word_around(data, begin, match.start() + len(b"Loader"))
                if word in exact:
                    return frozenset()
                names.add(word)
    return frozenset(names) if names else None


def _word_around(data: bytes, start: int, end: int) -> str:
    """The identifier that holds ``data[start:end]``."""
    while start > 0 and (data[start - 1 : start].isalnum() or data[start - 1 : start] == b"_"):
        start -= 1
    while end < len(data) and (data[end : end + 1].isalnum() or data[end : end + 1] == b"_"):
        end += 1
    return data[start:end].decode("ascii", "replace")


# How a class-like name can be bound, from the bytes around one of its occurrences.
_CLASS_BEFORE = re.compile(rb"\bclass[ \t]+$")
_DEF_BEFORE = re.compile(rb"\bdef[ \t]+$")
_ALIAS_BEFORE = re.compile(rb"\bas[ \t]+$")  # import X as N, with ... as N, except E as N
_ASSIGN_AFTER = re.compile(rb"[ \t]*(?::(?!=)[^=\n]*)?(?::=|=(?!=))")  # N = ..., N: T = ..., (N := ...)
_ANNOTATION_BEFORE = re.compile(rb"(?::|->)[ \t]*$")  # x: N = None is x's annotation
_BASES = re.compile(rb"[ \t]*\(")
_UNKNOWN_BASE = "*"
_BASE = re.compile(rb"\s*([A-Za-z_][\w.]*)\s*(=)?")


class WordIndex:
    """The files that hold each whole word containing "loader" (in any case), built in one pass
    over a project's bytes: the names ``may_name_loader_class`` is asked about are such words,
    and searching every file for each of them cost Lightning's run (646 files, 5.4 MB, ~40
    names) about 2 ms per name in each process. Other words (the bases it follows) are searched
    in every file, in the files' order either way."""

    def __init__(self, sources: Sequence[bytes]) -> None:
        self.sources = [data for data in sources if data]
        self.files: Dict[bytes, List[int]] = {}
        for number, data in enumerate(self.sources):
            lowered = data.lower()  # ASCII only: positions stay where they were
            size = len(data)
            at = lowered.find(b"loader")
            while at >= 0:
                start, end = at, at + 6
                while start and _WORD_BYTE[data[start - 1]]:
                    start -= 1
                while end < size and _WORD_BYTE[data[end]]:
                    end += 1
                found = self.files.setdefault(data[start:end], [])
                if not found or found[-1] != number:
                    found.append(number)
                at = lowered.find(b"loader", end)

    def holding(self, word: bytes) -> List[bytes]:
        if b"loader" not in word.lower():
            return self.sources
        return [self.sources[number] for number in self.files.get(word, ())]


def may_name_loader_class(
    name: str, sources: Iterable[bytes], extra_names: Iterable[str] = (), index: "Optional[WordIndex]" = None
) -> Tuple[bool, FrozenSet[str]]:
    """Whether ``name`` can be bound to a loader class by the project whose every file's bytes
    are ``sources``, as the resolver would find it: it is a loader name, or some file assigns,
    aliases or rebinds it (counted as yes: the parse decides), or defines a class of that name
    with a base that can be one. A name no file defines comes from outside the project, and no
    class outside it is a loader (``analysis.loaders.LOADER_QUALNAMES``) unless configured in
    ``extra-loaders``. A ``def`` of the name is a function, never a loader class.

    Also returns the names looked up (``name`` and the bases followed): only a file whose
    bytes hold one of them as a whole word can change a no. ``index``: a ``WordIndex`` of
    ``sources`` (the same answers, found faster)."""
    exact = LOADER_NAMES.union(n.rsplit(".", 1)[-1] for n in extra_names)
    datas = [data for data in sources if data] if index is None else []
    seen: Set[str] = set()

    def can_be(word: str) -> bool:
        if word in exact or word == _UNKNOWN_BASE:
            return True
        if word in seen:
            return False
        seen.add(word)
        encoded = word.encode()
        holding = datas if index is None else index.holding(encoded)
        for data in holding:
            for start, end in _occurrences(data, encoded):
                kind, at = _binding(data, start, end)
                if kind == "rebinds":
                    return True
                if kind == "class" and any(can_be(base) for base in _bases(data, at)):
                    return True
        return False

    return can_be(name), frozenset(seen | {name})


def _binding(data: bytes, start: int, end: int) -> Tuple[str, int]:
    """How the occurrence ``data[start:end]`` of a name binds it: "rebinds" (an assignment,
    an ``as``), "class" (a class statement with bases, which start at the returned index),
    or "" (a use, a ``def``, a class without bases)."""
    before = data[data.rfind(b"\n", 0, start) + 1 : start]
    if _DEF_BEFORE.search(before):
        return "", 0
    if _ALIAS_BEFORE.search(before):
        return "rebinds", 0
    if _ASSIGN_AFTER.match(data, end) and not _ANNOTATION_BEFORE.search(before):
        return "rebinds", 0
    if _CLASS_BEFORE.search(before):
        bases = _BASES.match(data, end)
        if bases is not None:
            return "class", bases.end()
    return "", 0


def binds_any(data: bytes, names: Iterable[str]) -> bool:
    """Whether ``data`` may bind one of ``names`` to something a no of
    ``may_name_loader_class`` did not see: an assignment, an ``as``, a class with bases (a
    file with only uses, ``def``s and base-less classes of them cannot turn a no into a yes)."""
    for name in names:
        encoded = name.encode()
        if encoded in data and any(_binding(data, s, e)[0] for s, e in _occurrences(data, encoded)):
            return True
    return False


def _occurrences(data: bytes, word: bytes):
    """(start, end) of each occurrence of ``word`` as a whole name in ``data`` (a substring
    search: a regex with look-arounds would try every position)."""
    size = len(word)
    start = data.find(word)
    while start >= 0:
        end = start + size
        if not (start and _WORD_BYTE[data[start - 1]]) and not (end < len(data) and _WORD_BYTE[data[end]]):
            yield start, end
        start = data.find(word, end)


_WORD_BYTE = [chr(i).isalnum() or i == 95 or i >= 128 for i in range(256)]


_STATEMENT_STARTS = (b"for ", b"async for ", b"with ", b"async with ", b"global ", b"nonlocal ", b"del ", b"except ", b"import ", b"from ")
_TARGET_AFTER = re.compile(rb"[ \t]*[)\],]*[ \t]*(?:,|:=|=(?!=))")  # N = , N, x = , (N) = , (N := ...)
# Whole-file searches start with a literal, the word boundary before it checked by hand: a
# pattern that starts with ``\b`` is tried at every byte (1.8 ms each on accelerate's 198 KB
# accelerator.py, against 0.15 ms).
_IMPORT_BLOCK = re.compile(rb"import[ \t]*\(([^)]*)\)")
_STAR_IMPORT = re.compile(rb"import[ \t]+\*")


def _word_starts(match: "re.Match[bytes]", data: bytes) -> bool:
    start = match.start()
    return start == 0 or not _WORD_BYTE[data[start - 1]]


def lone_class_line(data: bytes, name: str) -> Optional[int]:
    """The line of ``class name`` when that statement, at column 0, is the only way the module
    whose bytes are ``data`` binds ``name`` (then an importer's ``name`` is that class, without
    parsing the module); None when the bytes leave any doubt: another ``class``/``def``, an
    assignment or target, an import or ``as``, a star import, a second definition."""
    word = name.encode()
    if not word or b"*" in data and any(_word_starts(m, data) for m in _STAR_IMPORT.finditer(data)):
        return None
    for block in _IMPORT_BLOCK.finditer(data):  # from x import (\n  name,\n)
        if _word_starts(block, data) and word in block.group(1) and any(True for _ in _occurrences(block.group(1), word)):
            return None
    line: Optional[int] = None
    heads: List[int] = []  # starts of the lines at column 0, found when first needed
    for start, end in _occurrences(data, word):
        line_start = data.rfind(b"\n", 0, start) + 1
        before = data[line_start:start]
        if before == b"class " and not (end < len(data) and data[end : end + 1] not in b"(: \t"):
            if line is not None:
                return None  # defined twice
            line = data.count(b"\n", 0, start) + 1
            continue
        stripped = before.lstrip()
        if (
            _DEF_BEFORE.search(before)
            or _CLASS_BEFORE.search(before)
            or _ALIAS_BEFORE.search(before)
            or stripped.startswith(_STATEMENT_STARTS)
            or (_TARGET_AFTER.match(data, end) and not _ANNOTATION_BEFORE.search(before))
        ) and not _in_function_or_class(data, line_start, len(before) - len(stripped), heads):
            return None
    return line


def may_be_keyword_setter(data: bytes, name: str) -> bool:
    """Whether ``data`` can define ``class name`` as a keyword-setting config
    (``configs.setattr_configs.setattr_shape``): such a class has no base but ``object`` and an
    ``__init__(self, **kwargs)`` or ``__init__(self, d)`` without defaults. False only when no
    ``def __init__(self...)`` of the bytes is free of ``=`` before its ``)`` (or there is none),
    or every ``class name`` header lists another base, a keyword or a call (or there is none): then the module
    need not be parsed to ask (accelerate's 100 KB ``accelerator.py`` was, for every
    ``Accelerator(...)`` call). What it cannot read (a string or comment in the header's
    parentheses, ``class Name[T]``) counts as possible."""
    word = name.encode()
    if not word:
        return True
    if not _defaultless_init(data):
        return False
    for start, end in _occurrences(data, word):
        if not _CLASS_BEFORE.search(data, max(0, start - 64), start):
            continue
        rest = data[end : end + 256].lstrip(b" \t\\\r\n")
        if rest[:1] == b":":
            return True
        if rest[:1] != b"(":
            return True  # ``class Name[T]:`` and the like: not read
        close = rest.find(b")")
        inside = rest[1:close] if close > 0 else b"#"
        if b"#" in inside or b"(" in inside or b"'" in inside or b'"' in inside:
            return True  # not read: possible
        if re.sub(rb"[\s\\]", b"", inside) in (b"", b"object", b"object,"):
            return True
    return False


_INIT_HEAD = re.compile(rb"def[ \t]+__init__[ \t]*\(\s*self\b")


def _defaultless_init(data: bytes) -> bool:
    """Whether some ``def __init__(self...`` of ``data`` reaches its first ``)`` before any
    ``=`` (no default). The next ``)`` and ``=`` found are kept for the following heads, so the
    bytes are searched once however many heads there are (a hostile file of unclosed heads)."""
    size = len(data)
    paren = equals = -1
    for head in _INIT_HEAD.finditer(data):
        end = head.end()
        if paren < end:
            paren = data.find(b")", end)
            if paren < 0:
                return False  # no ``)`` after this head: none after the later ones either
        if equals < end:
            equals = data.find(b"=", end)
            if equals < 0:
                equals = size
        if paren < equals:
            return True
    return False


# The start of a line at column 0 (found after its newline: a search for ``^`` in multi-line
# mode is tried at every byte).
_HEAD = re.compile(rb"\n[^ \t\r\n#)\]}]")


def _in_function_or_class(data: bytes, line_start: int, indent: int, heads: List[int]) -> bool:
    """Whether the line starting at ``line_start`` (indented by ``indent``) is inside a
    ``def`` or ``class`` body: its nearest earlier line at column 0 opens one (a binding there
    is local, or a class attribute; docstring examples land here too). ``heads``: the starts
    of the lines at column 0 (filled on first use)."""
    if indent == 0:
        return False
    if not heads:
        if data[:1] and data[:1] not in b" \t\r\n#)]}":
            heads.append(0)
        heads.extend(m.start() + 1 for m in _HEAD.finditer(data))
        heads.append(len(data) + 1)  # never empty again
    from bisect import bisect_left

    at = bisect_left(heads, line_start) - 1
    return at >= 0 and data.startswith((b"def ", b"async def ", b"class ", b"@"), heads[at])


def _bases(data: bytes, at: int) -> List[str]:
    """The last names of the bases of the class header whose ``(`` ends just before ``at``:
    ``(nn.Module, Generic[T], metaclass=M)`` gives Module and Generic (subscripts and keyword
    arguments are not bases)."""
    parts: List[bytes] = []
    depth, begin = 0, at
    for index in range(at, min(len(data), at + 4000)):
        char = data[index]
        if char in b"([{":
            depth += 1
        elif char in b")]}":
            if depth == 0:
                parts.append(data[begin:index])
                break
            depth -= 1
        elif char == 44 and depth == 0:  # ","
            parts.append(data[begin:index])
            begin = index + 1
    names = []
    for part in parts:
        found = _BASE.match(part)
        if part.strip().startswith(b"*"):
            names.append(_UNKNOWN_BASE)  # class N(*bases): could be anything
        elif found is not None and found.group(2) is None:
            names.append(found.group(1).rsplit(b".", 1)[-1].decode("ascii", "replace"))
    return names


def _in_comment_or_doctest(data: bytes, line_start: int, at: int) -> bool:
    prefix = data[line_start:at].lstrip()
    if prefix.startswith((b"#", b">>>", b"...")):
        return True
    hash_at = prefix.find(b"#")
    return hash_at >= 0 and b"'" not in prefix[:hash_at] and b'"' not in prefix[:hash_at]


def looks_like_loader(name: str) -> bool:
    """Imported project subclasses (``InfiniteDataLoader``) are only known by their name here."""
    return "loader" in name.lower()


class LoaderCallees:
    """Which callees of one module may construct a loader: the known names, import aliases, and
    names assigned or subclassed from expressions mentioning one (``Loader = partial(DataLoader)``),
    to a fixpoint. A name bound only by ``class``/``def`` statements of this module (never
    imported, assigned, or a parameter) counts only through its bases: its name alone
    (torch's ``_SingleProcessDataLoaderIter``) says nothing, and calling such a function
    constructs nothing here (any loader it builds is a call in its own body)."""

    def __init__(self, index: ModuleIndex, extra_names: Iterable[str] = ()) -> None:
        bindings: List[Tuple[Set[str], Set[str]]] = []
        defined: Set[str] = set()
        other: Set[str] = set()
        opaque: Set[str] = set()  # bound here otherwise than from a value (import, parameter, ...)
        scopes = [index.module_scope, *index.scopes.values()]
        for scope in scopes:
            for name, found in scope.bindings.items():
                for binding in found:
                    if binding.kind in ("def", "class"):
                        defined.add(name)
                        if binding.kind == "class":
                            bindings.append(({name}, _used(binding, binding.node.bases)))
                        continue
                    other.add(name)
                    if binding.kind not in ("assign", "unpack") or binding.value is None:
                        opaque.add(name)
                    if binding.kind == "import":
                        alias = binding.alias
                        other.add(alias.name.rsplit(".", 1)[-1])
                        if alias.asname:
                            bindings.append(({alias.asname}, {alias.name.rsplit(".", 1)[-1]}))
                    elif binding.kind in ("assign", "unpack") and _may_hold_class(binding):
                        bindings.append(({name}, _used(binding, (binding.value,))))
        for attr, used in index.attr_used.items():
            bindings.append(({attr}, used))
        self.plain = defined - other
        users: Dict[str, List[Set[str]]] = {}  # name -> what the bindings mentioning it bind
        for bound, used in bindings:
            for name in used:
                users.setdefault(name, []).append(bound)
        # Bound from a loader name, to a fixpoint: these may hold a loader class.
        self.sure = _closure(set(LOADER_NAMES) | library_names() | {n.rsplit(".", 1)[-1] for n in extra_names}, users)
        # A name that looks like a loader (and is not a plain class/def of this module) counts
        # as one when a binding mentions it, and so do the names bound from it: each such name
        # -> the loader-like names it comes from (whether the project can make one of those a
        # loader class is ``may_name_loader_class``'s question).
        # A name this module only assigns from values is no root: the closures follow its
        # values (``dataloader_config = DataLoaderConfiguration()`` comes from that class).
        derived = other - opaque
        self.roots: Dict[str, Set[str]] = {}
        for root in {u for u in users if looks_like_loader(u)} - self.plain - self.sure - derived:
            for name in _closure({root}, users) - self.sure:
                self.roots.setdefault(name, set()).add(root)

    def may_be_loader(self, func: ast.AST) -> bool:
        return self.why(func) is not None

    def why(self, func: ast.AST) -> Optional[FrozenSet[str]]:
        """Why a call of ``func`` may construct a loader: an empty set when this module binds
        it from a loader name, else the loader-like names it comes from (``InfiniteDataLoader``,
        known here by its name only); None when it cannot."""
        if isinstance(func, (ast.Name, ast.Attribute)):
            callee = func.id if isinstance(func, ast.Name) else func.attr
            if callee in self.sure:
                return frozenset()
            if callee in self.roots:
                return frozenset(self.roots[callee])
            if callee in self.plain and (isinstance(func, ast.Name) or _on_self(func)):
                return None  # a function, or a class not deriving from a loader, of this module
            return frozenset({callee}) if looks_like_loader(callee) else None
        used = used_names(func)  # (DataLoader if c else Other)(...), partial(...)(...)
        if used & self.sure:
            return frozenset()
        roots = {root for name in used & set(self.roots) for root in self.roots[name]}
        return frozenset(roots) if roots else None

    def any_call(self, index: ModuleIndex) -> bool:
        return any(self.may_be_loader(call.func) for call, _, _, _ in index.calls) or any(
            self.may_be_loader(cls.bases[0])
            for cls in index.module_classes
            if cls.bases and any(isinstance(s, ast.FunctionDef) and s.name == "__init__" for s in cls.body)
        )  # a loader subclass's ``super().__init__(...)`` constructs its base (``ModuleAnalysis._base_init``)


def _may_hold_class(binding) -> bool:
    """Whether an assigned (or unpacked) value can be or hold a loader class as the resolver
    reads it: a call gives one only as ``x = partial(...)``; ``x = obj.method(...)`` and
    ``a, b = f(...)`` never do (following them resolved ``obj``, parsing whole modules)."""
    value = binding.value
    if value is None:
        return False
    if isinstance(value, ast.Call):
        return binding.kind == "assign" and not (isinstance(value.func, ast.Attribute) and value.func.attr != "partial")
    return True


def _closure(names: Set[str], users: Dict[str, List[Set[str]]]) -> Set[str]:
    """``names`` and every name bound from one of them, to a fixpoint."""
    out = set(names)
    todo = list(out)
    while todo:
        for bound in users.get(todo.pop(), ()):
            for name in bound - out:
                out.add(name)
                todo.append(name)
    return out


def _used(binding, nodes) -> Set[str]:
    """The names a binding's value (or class bases) mentions: recorded by the collector, else
    found by walking them."""
    if binding.used is not None:
        return binding.used
    return {n for node in nodes for n in used_names(node)}


def _on_self(func: ast.AST) -> bool:
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("self", "cls")


def used_names(expr: ast.AST) -> Set[str]:
    out: Set[str] = set()
    if is_literal_data(expr):
        return out
    for node in ast.walk(expr):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
    return out


def may_construct_loader(data: bytes, extra_names: Iterable[str] = ()) -> bool:
    """True unless the module provably calls nothing that could be a loader: its bytes show no
    call (``may_construct``), or its parse shows none (a module that does not parse returns
    True, so the analysis reports it). The engine asks ``LoaderCallees`` on the index of its
    one parse instead of parsing here."""
    from dl_lint.analysis.scopes import collect
    from dl_lint.analysis.syntax import ParseFailure, parse
    from dl_lint.source import decode

    if not mentions_loader(data, extra_names) or not may_construct(data, extra_names):
        return False
    try:
        tree = parse(decode(data))
    except (ParseFailure, SyntaxError, UnicodeDecodeError, LookupError):
        return True
    index = collect(tree)
    return LoaderCallees(index, extra_names).any_call(index)
