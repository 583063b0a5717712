"""Run definitions in a repository that fix a container's shared memory (/dev/shm), for DL104.

DataLoader workers hand every batch to the main process through /dev/shm. A container gets
64 MiB of it unless its run definition says otherwise: Docker's documentation (docker/cli
docs/reference/run.md, "Runtime constraints on resources": `--shm-size` "If you omit the size
entirely, the system uses `64m`"), and the same default in containerd's CRI plugin, which
Kubernetes pods get (``defaultShmSize = int64(1024 * 1024 * 64)``).

Only a few well-known places are read, at the project root: compose files
(``docker-compose*.y[a]ml``, ``compose*.y[a]ml``), ``.devcontainer.json`` and
``devcontainer.json`` files, Kubernetes manifests (YAML files holding ``containers:``), shell
scripts that call ``docker run`` and Makefiles (``Makefile``, ``makefile``, ``GNUmakefile``,
``*.mk``, ``*.make``) whose recipes call it, in the root and in ``docker/``, ``.devcontainer/``
(and its subfolders), ``k8s/``, ``kubernetes/``, ``deploy/`` and ``scripts/``. ``docker run`` stands for
``docker container run``, ``nvidia-docker run`` and ``podman run`` too (podman's default
``--shm-size`` is 64m as well). A Makefile's recipe is read as the shell text make hands over:
``$(VAR)``/``${VAR}`` is the value the Makefile assigns it once, unconditionally, with ``=``,
``:=`` or ``::=`` (``$(shell pwd)``, ``$(CURDIR)`` and ``$(PWD)`` are the working folder);
anything else (``?=``, ``+=``, a conditional, target-specific or ``define``d value, an
``include``, a function) is unknown, which leaves a size it gives unknown. A Dockerfile cannot set
shared memory, so it is not one. Each definition that runs the project's code (a compose service
that builds the repository, mounts it or runs Python; a pod container or ``docker run`` that runs
Python or mounts the working folder; any devcontainer) gives the /dev/shm size it leaves:

- 64 MiB when nothing changes it;
- its size when it sets one (``shm_size`` of a compose service, ``--shm-size``);
- None ("not limited here, or unknown") for ``ipc: host`` / ``--ipc=host`` / ``hostIPC: true``,
  a volume mounted at /dev/shm (a Kubernetes ``emptyDir`` with ``medium: Memory``, a tmpfs), a
  compose ``extends`` or ``include``, an unreadable or broken file, a size that is interpolated.

A compose ``build.shm_size`` only sizes the build's containers and is not read. YAML is read with
PyYAML, imported only when such a file exists; JSON with comments (devcontainer.json) is read
after its comments are removed. Nothing here raises: what cannot be read is unknown.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from dl_lint.record import Record

DOCKER_DEFAULT_SHM = 64 * 1024 * 1024
MAX_DEFINITION_BYTES = 1024 * 1024  # a run definition is small; a bigger file is not read
SEARCHED_FOLDERS = ("docker", ".devcontainer", "k8s", "kubernetes", "deploy", "scripts")
_COMPOSE_NAME = re.compile(r"^(docker-)?compose([.-][\w.-]+)?\.ya?ml$")
_RUNS_PYTHON = re.compile(r"python|\.py\b|torchrun|accelerate\s+launch|deepspeed|lightning\s+run", re.I)
_WORKING_FOLDER = re.compile(r"^(\.|\./|\.\./|\$\(pwd\)|\$PWD|\$\{PWD\}|`pwd`)")
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([bkmgtp]?)(?:i?b)?\s*$", re.I)
_RACY_NS = 2_000_000_000  # a listing younger than this after its folder's mtime is not trusted
_DOCKER_RUN = re.compile(r"\b(?:(?:nvidia-)?docker|podman)\s+(?:container\s+)?run\b")
# A variable that may carry docker options (``$DOCKER_ARGS``, ``"$@"``): the options are unknown.
# A variable that names the image or a path (``$IMAGE``) cannot set shared memory.
_VARIABLE_ARGUMENTS = re.compile(r"^\$(?:[@*]|\{[@*]\}|\{?\w*(?:ARG|OPT|FLAG|EXTRA)\w*\}?)$", re.I)


class RunDefinition(Record):
    """One container that runs the project's code, and the /dev/shm it leaves: ``shm`` bytes,
    None when it does not limit it (or it is unknown). ``what`` names it for messages
    ("service train of docker-compose.yml"), ``how`` says what decides the size."""

    __slots__ = ("path", "line", "what", "shm", "how")

    def __init__(self, path: str, line: int, what: str, shm: Optional[int], how: str) -> None:
        self.path = path
        self.line = line
        self.what = what
        self.shm = shm
        self.how = how


# -- where to look ------------------------------------------------------------------------------


def candidate_files(root: str, listings: Optional[Dict[str, list]] = None) -> Tuple[List[str], bool]:
    """The files at the project root (and in ``SEARCHED_FOLDERS``) that may be run definitions,
    by name: a few directory listings, no walk; and whether ``listings`` changed. With
    ``listings`` (the results cache's), a folder whose stat proves it unchanged is not listed
    again (as ``discovery`` does for the folders it walks)."""
    found: List[str] = []
    changed = False
    folders = [root] + [os.path.join(root, name) for name in SEARCHED_FOLDERS]
    seen = 0
    while seen < len(folders):
        folder = folders[seen]
        seen += 1
        names, subfolders, updated = _listing(folder, listings)
        changed = changed or updated
        found.extend(os.path.join(folder, name) for name in names)
        if os.path.basename(folder) == ".devcontainer" and os.path.dirname(folder) == root:
            folders.extend(os.path.join(folder, name) for name in subfolders)
    return found, changed


def _listing(folder: str, listings: Optional[Dict[str, list]]) -> Tuple[List[str], List[str], bool]:
    """(candidate file names, subfolder names) of ``folder``, and whether ``listings`` changed."""
    try:
        st = os.stat(folder)
    except OSError:
        return [], [], False
    key = f"run-definitions:{folder}"
    known = listings.get(key) if listings is not None else None
    if (
        isinstance(known, list)
        and len(known) == 5
        and known[0] == st.st_mtime_ns
        and known[1] == st.st_ino
        and isinstance(known[2], int)
        and st.st_mtime_ns + _RACY_NS < known[2]
    ):
        return list(known[3]), list(known[4]), False
    names: List[str] = []
    subfolders: List[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):
                        subfolders.append(entry.name)
                    elif entry.is_file() and kind_by_name(entry.name) is not None:
                        names.append(entry.name)
                except OSError:
                    continue
    except OSError:
        return [], [], False
    names.sort()
    subfolders.sort()
    if listings is None:
        return names, subfolders, False
    import time

    listings[key] = [st.st_mtime_ns, st.st_ino, time.time_ns(), names, subfolders]
    return names, subfolders, True


def kind_by_name(name: str) -> Optional[str]:
    lower = name.lower()
    if _COMPOSE_NAME.match(lower):
        return "compose"
    if lower in ("devcontainer.json", ".devcontainer.json"):
        return "devcontainer"
    if lower.endswith((".yaml", ".yml")):
        return "kubernetes"
    if lower.endswith(".sh"):
        return "script"
    if lower in ("makefile", "gnumakefile") or lower.endswith((".mk", ".make")):
        return "makefile"
    return None


def relevant(path: str, data: bytes) -> bool:
    """Whether a candidate's bytes can hold a run definition (a YAML file that is not a compose
    file must name ``containers:``; a script must call ``docker run``)."""
    kind = kind_by_name(os.path.basename(path))
    if kind == "kubernetes":
        return b"containers:" in data
    if kind in ("script", "makefile"):
        return _DOCKER_RUN.search(data.decode("utf-8", "replace")) is not None
    return kind is not None


# -- reading ------------------------------------------------------------------------------------


def run_definitions(files: Dict[str, bytes]) -> Tuple[RunDefinition, ...]:
    """Every run definition of the project's code in ``files`` (path -> bytes, the relevant
    candidates). Never raises: a file that cannot be read gives one unknown definition."""
    out: List[RunDefinition] = []
    for path in sorted(files):
        try:
            out.extend(_read(path, files[path], files))
        except Exception:  # noqa: BLE001 - anything unexpected in a foreign file is unknown, never a crash
            out.append(_unknown(path, "it could not be read"))
    return tuple(out)


def _read(path: str, data: bytes, files: Dict[str, bytes]) -> List[RunDefinition]:
    kind = kind_by_name(os.path.basename(path))
    text = data.decode("utf-8", "replace")
    if kind == "compose":
        documents = _yaml(text, many=False)
        if documents is None:
            return [_unknown(path, "its YAML could not be read")]
        return _compose(path, text, documents[0])
    if kind == "kubernetes":
        documents = _yaml(text, many=True)
        if documents is None:
            return [_unknown(path, "its YAML could not be read")]
        return [d for document in documents for d in _kubernetes(path, text, document)]
    if kind == "devcontainer":
        return _devcontainer(path, text, files)
    if kind == "script":
        return _scripts(path, text)
    if kind == "makefile":
        return _makefile(path, text)
    return []


def _unknown(path: str, why: str) -> RunDefinition:
    return RunDefinition(path, 1, _display(path), None, why)


def _display(path: str) -> str:
    """A definition's file for messages: its name, from ``.devcontainer/`` on inside it."""
    parts = path.replace(os.sep, "/").split("/")
    return "/".join(parts[parts.index(".devcontainer") :]) if ".devcontainer" in parts else parts[-1]


def _yaml(text: str, many: bool) -> Optional[List[Any]]:
    try:
        import yaml  # PyYAML: imported only when a YAML run definition exists
    except ImportError:
        return None
    try:
        if many:
            return list(yaml.safe_load_all(text))
        return [yaml.safe_load(text)]
    except Exception:  # noqa: BLE001 - yaml.YAMLError, and deep nesting (RecursionError): unknown
        return None


def _line_of(text: str, key: str, start: int = 1) -> int:
    """The first row at or after ``start`` where ``key`` begins a mapping entry (or a list item)."""
    pattern = re.compile(rf"^\s*(?:-\s*)?(?:name:\s*)?[\"']?{re.escape(key)}[\"']?\s*:?")
    for row, line in enumerate(text.splitlines()[start - 1 :], start=start):
        if pattern.match(line):
            return row
    return start


def docker_size(value: Any) -> Optional[int]:
    """Bytes of a Docker size (``"2gb"``, ``"512m"``, ``"1G"``, an int of bytes; binary units,
    as docker's own parser); None when it is not one (``${SHM_SIZE}``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if not isinstance(value, str):
        return None
    match = _SIZE.match(value)
    if match is None:
        return None
    number, unit = float(match.group(1)), match.group(2).lower()
    size = int(number * 1024 ** " kmgtp".index(unit or " "))
    return size if size > 0 else None


def _mentions(value: Any, pattern: "re.Pattern[str]") -> bool:
    if isinstance(value, str):
        return pattern.search(value) is not None
    if isinstance(value, list):
        return any(_mentions(item, pattern) for item in value)
    return False


# -- compose ------------------------------------------------------------------------------------


def _compose(path: str, text: str, document: Any) -> List[RunDefinition]:
    name = os.path.basename(path)
    if not isinstance(document, dict):
        return []
    out = []
    if "include" in document:
        out.append(RunDefinition(path, _line_of(text, "include"), name, None, "it includes other compose files"))
    services = document.get("services")
    if not isinstance(services, dict):
        return out
    for service, spec in services.items():
        if not isinstance(spec, dict) or not _runs_project(spec):
            continue
        what = f"service {service} of {name}"
        line = _line_of(text, str(service))
        out.append(RunDefinition(path, line, what, *_service_shm(spec)))
    return out


def _runs_project(spec: Dict[str, Any]) -> bool:
    """A compose service that builds the repository, mounts it, or runs Python."""
    if "build" in spec:
        return True
    if _mentions(spec.get("command"), _RUNS_PYTHON) or _mentions(spec.get("entrypoint"), _RUNS_PYTHON):
        return True
    for volume in spec.get("volumes") or ():
        source = volume.split(":", 1)[0] if isinstance(volume, str) else volume.get("source") if isinstance(volume, dict) else None
        if isinstance(source, str) and _WORKING_FOLDER.match(source):
            return True
    return False


def _service_shm(spec: Dict[str, Any]) -> Tuple[Optional[int], str]:
    if "extends" in spec:
        return None, "it extends another service"
    ipc = spec.get("ipc")
    if ipc == "host":
        return None, "ipc: host"
    if ipc not in (None, "private", "shareable"):
        return None, f"ipc: {ipc}"
    for volume in spec.get("volumes") or ():
        target = volume.split(":")[1] if isinstance(volume, str) and volume.count(":") >= 1 else None
        if isinstance(volume, dict):
            target = volume.get("target")
        if isinstance(target, str) and target.rstrip("/") == "/dev/shm":
            return None, "a volume at /dev/shm"
    tmpfs = spec.get("tmpfs")
    if _mentions(tmpfs, re.compile(r"/dev/shm")):
        return None, "a tmpfs at /dev/shm"
    if "shm_size" in spec:
        size = docker_size(spec["shm_size"])
        return size, f"shm_size: {spec['shm_size']}"
    return DOCKER_DEFAULT_SHM, "no shm_size or ipc: host"


# -- Kubernetes ---------------------------------------------------------------------------------


def _pod_specs(node: Any) -> Iterator[Dict[str, Any]]:
    if isinstance(node, dict):
        containers = node.get("containers")
        if isinstance(containers, list) and any(isinstance(c, dict) and "image" in c for c in containers):
            yield node
            return
        for value in node.values():
            yield from _pod_specs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _pod_specs(value)


def _kubernetes(path: str, text: str, document: Any) -> List[RunDefinition]:
    if not isinstance(document, dict) or "kind" not in document:
        return []
    out = []
    kind = document.get("kind")
    for pod in _pod_specs(document):
        volumes = {v.get("name"): v for v in pod.get("volumes") or () if isinstance(v, dict)}
        for container in pod["containers"]:
            if not isinstance(container, dict):
                continue
            if not (_mentions(container.get("command"), _RUNS_PYTHON) or _mentions(container.get("args"), _RUNS_PYTHON)):
                continue
            name = str(container.get("name", "?"))
            what = f"container {name} of the {kind} in {os.path.basename(path)}"
            line = _line_of(text, name)
            if pod.get("hostIPC") is True:
                out.append(RunDefinition(path, line, what, None, "hostIPC: true"))
                continue
            mount = next(
                (
                    m
                    for m in container.get("volumeMounts") or ()
                    if isinstance(m, dict) and str(m.get("mountPath", "")).rstrip("/") == "/dev/shm"
                ),
                None,
            )
            if mount is not None:
                volume = volumes.get(mount.get("name")) or {}
                memory = isinstance(volume.get("emptyDir"), dict) and volume["emptyDir"].get("medium") == "Memory"
                how = "an emptyDir with medium: Memory at /dev/shm" if memory else "a volume at /dev/shm"
                out.append(RunDefinition(path, line, what, None, how))
                continue
            out.append(RunDefinition(path, line, what, DOCKER_DEFAULT_SHM, "no memory-backed emptyDir at /dev/shm"))
    return out


# -- devcontainer.json ----------------------------------------------------------------------------


def jsonc(text: str) -> Any:
    """JSON with comments (``//``, ``/* */``) and trailing commas, as devcontainer.json allows."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
            continue
        if c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(c)
        i += 1
    cleaned = re.sub(r",(\s*[}\]])", r"\1", "".join(out))
    import json  # only for a devcontainer.json (json, with its regexes, costs 2 ms to import)

    return json.loads(cleaned)


def _devcontainer(path: str, text: str, files: Dict[str, bytes]) -> List[RunDefinition]:
    what = _display(path)
    try:
        config = jsonc(text)
    except (ValueError, RecursionError):
        return [_unknown(path, "its JSON could not be read")]
    if not isinstance(config, dict):
        return [_unknown(path, "it is not a JSON object")]
    compose = config.get("dockerComposeFile")
    if compose is not None:
        named = [compose] if isinstance(compose, str) else compose if isinstance(compose, list) else [None]
        folder = os.path.dirname(path)
        read = {os.path.normpath(p) for p in files}
        if all(isinstance(n, str) and os.path.normpath(os.path.join(folder, n)) in read for n in named):
            return []  # the compose files decide, and they are read
        return [_unknown(path, "its compose file is not one dl-lint reads")]
    line = _line_of(text, "runArgs")
    run_args = config.get("runArgs") or []
    if not isinstance(run_args, list) or not all(isinstance(a, str) for a in run_args):
        return [RunDefinition(path, line, what, None, "runArgs could not be read")]
    shm, how = _docker_flags(run_args)
    for mount in config.get("mounts") or ():
        if isinstance(mount, str) and re.search(r"(target|destination|dst)=/dev/shm\b", mount):
            shm, how = None, "a mount at /dev/shm"
        elif isinstance(mount, dict) and str(mount.get("target", "")).rstrip("/") == "/dev/shm":
            shm, how = None, "a mount at /dev/shm"
    if how == "no --shm-size or --ipc=host":
        how = "runArgs without --shm-size or --ipc=host"
    return [RunDefinition(path, line, what, shm, how)]


# -- docker run -----------------------------------------------------------------------------------


def _docker_flags(tokens: Sequence[str]) -> Tuple[Optional[int], str]:
    """The /dev/shm a ``docker run`` with these arguments leaves."""
    for i, token in enumerate(tokens):
        value = tokens[i + 1] if i + 1 < len(tokens) else ""
        name, has_value, inline = token.partition("=")
        given = inline if has_value else value
        if name == "--shm-size":
            size = docker_size(given)
            return size, f"--shm-size {given}" if size else f"--shm-size {given} (not read)"
        if name == "--ipc":
            if given == "host":
                return None, "--ipc=host"
            if given not in ("private", "shareable"):
                return None, f"--ipc={given}"
        if name in ("-v", "--volume") and re.search(r":/dev/shm/?(:|$)", given):
            return None, "a volume at /dev/shm"
        if name in ("--mount", "--tmpfs") and "/dev/shm" in given:
            return None, "a mount at /dev/shm"
    return DOCKER_DEFAULT_SHM, "no --shm-size or --ipc=host"


def _logical_lines(lines: Sequence[str]) -> Iterator[Tuple[int, str]]:
    """(index of the first line, the line with its backslash continuations joined)."""
    row = 0
    while row < len(lines):
        first = row
        logical = lines[row]
        while logical.rstrip().endswith("\\") and row + 1 < len(lines):
            row += 1
            logical = logical.rstrip()[:-1] + " " + lines[row]
        row += 1
        yield first, logical


def _scripts(path: str, text: str) -> List[RunDefinition]:
    out = []
    for first, logical in _logical_lines(text.split("\n")):
        if logical.lstrip().startswith("#"):
            continue
        found = _docker_run(path, first + 1, logical, os.path.basename(path))
        if found is not None:
            out.append(found)
    return out


def _docker_run(path: str, line: int, command: str, where: str, of: str = "") -> Optional[RunDefinition]:
    """The definition a shell command line that calls ``docker run`` gives: None when it calls
    none, or one that neither mounts the working folder nor runs Python (not the project's)."""
    match = _DOCKER_RUN.search(command)
    if match is None:
        return None
    tool = "podman" if match.group(0).startswith("podman") else "docker"
    what = f"{tool} run{of} in {where}"
    try:
        import shlex

        tokens = shlex.split(command[match.end() :], comments=True)
    except ValueError:
        return RunDefinition(path, line, what, None, "the command could not be read")
    mounts_here = any(
        _WORKING_FOLDER.match(tokens[i + 1]) for i, t in enumerate(tokens[:-1]) if t in ("-v", "--volume")
    ) or any(t.startswith(("-v=", "--volume=")) and _WORKING_FOLDER.match(t.split("=", 1)[1]) for t in tokens)
    if not (mounts_here or _mentions(tokens, _RUNS_PYTHON)):
        return None
    if any(_VARIABLE_ARGUMENTS.match(t) for t in tokens):
        return RunDefinition(path, line, what, None, "its arguments come from a variable")
    return RunDefinition(path, line, what, *_docker_flags(tokens))


# -- Makefiles ------------------------------------------------------------------------------------

_MAKE_PREFIXES = r"(?:(?:export|override|private)\s+)*"
_MAKE_ASSIGNMENT = re.compile(rf"^{_MAKE_PREFIXES}([A-Za-z_][\w.-]*)\s*(:::=|::=|:=|\?=|\+=|!=|=)(.*)$", re.S)
# ``train: SHM = 8g``: a value for one target (and what it makes)
_MAKE_TARGET_VARIABLE = re.compile(rf"^[^=#]*?[^:=]:\s*{_MAKE_PREFIXES}([A-Za-z_][\w.-]*)\s*(?:::?=|\?=|\+=|!=|=)")
_MAKE_DEFINE = re.compile(rf"^{_MAKE_PREFIXES}define\s+([A-Za-z_][\w.-]*)")
_MAKE_CONDITIONAL = re.compile(r"^(?:ifeq|ifneq|ifdef|ifndef)\b")
_MAKE_WORKING_FOLDER = re.compile(r"^(?:CURDIR|PWD|shell\s+pwd|abspath\s+\.|realpath\s+\.)$")
_MAKE_LONGEST = 64 * 1024  # a variable's expansion longer than this is not a docker option
_UNKNOWN = object()


def _makefile(path: str, text: str) -> List[RunDefinition]:
    """The ``docker run`` commands of a Makefile's recipes (lines after a rule that start with a
    tab; ``@``, ``-`` and ``+`` prefixes dropped), with its variables expanded as make does."""
    variables: Dict[str, Any] = {}
    recipes: List[Tuple[int, str, str]] = []
    depth = 0
    defining: Optional[str] = None
    target: Optional[str] = None
    includes = False
    for first, logical in _logical_lines(text.split("\n")):
        stripped = logical.strip()
        if defining is not None:
            if stripped.startswith("endef"):
                defining = None
            continue
        if logical.startswith("\t") and target is not None:
            recipes.append((first + 1, target, logical.lstrip("\t").lstrip(" @-+")))
            continue
        stripped = _make_comment(stripped)
        if not stripped:
            continue
        words = stripped.split(None, 1)
        if _MAKE_CONDITIONAL.match(stripped):
            depth += 1
            continue
        if words[0] == "endif":
            depth = max(0, depth - 1)
            continue
        if words[0] == "else":
            continue
        if words[0] in ("include", "-include", "sinclude"):
            includes = True
            continue
        defined = _MAKE_DEFINE.match(stripped)
        if defined is not None:  # a multi-line value: not read
            variables[defined.group(1)] = _UNKNOWN
            defining = defined.group(1)
            continue
        assignment = _MAKE_ASSIGNMENT.match(stripped)
        if assignment is not None:
            target = None
            name, operator, value = assignment.group(1), assignment.group(2), assignment.group(3).strip()
            plain = depth == 0 and operator in ("=", ":=", "::=", ":::=") and name not in variables
            variables[name] = value if plain else _UNKNOWN
            continue
        scoped = _MAKE_TARGET_VARIABLE.match(stripped)
        if scoped is not None:  # ``train: SHM = 8g``: the variable differs by target
            variables[scoped.group(1)] = _UNKNOWN
            continue
        if ":" in stripped:  # a rule; a recipe may follow after ``;``
            target = stripped.split(":", 1)[0].strip() or "?"
            head, semicolon, inline = stripped.partition(";")
            if semicolon and ":" in head:
                recipes.append((first + 1, target, inline.strip().lstrip("@-+")))
        else:
            target = None
    out = []
    where = os.path.basename(path)
    for row, name, command in recipes:
        if _DOCKER_RUN.search(command) is None:
            continue
        shell = _make_expand(command, {} if includes else variables, {})
        found = _docker_run(path, row, shell, where, f" of target {name}")
        if found is not None:
            out.append(found)
    return out


def _make_comment(line: str) -> str:
    """A makefile line without its comment (an unescaped ``#``)."""
    at = 0
    while True:
        at = line.find("#", at)
        if at < 0:
            return line
        if at == 0 or line[at - 1] != "\\":
            return line[:at].rstrip()
        at += 1


def _make_expand(text: str, variables: Dict[str, Any], expanded: Dict[str, str]) -> str:
    """``text`` with make's references replaced: a known variable by its expanded value, the
    working folder (``$(CURDIR)``, ``$(shell pwd)``) by ``$PWD``, ``$$`` by ``$``, anything else by
    a shell variable ``${NAME}`` (a function's result by ``${MAKE_UNKNOWN_OPTIONS}``), whose value
    is unknown where it is read. ``expanded`` keeps each variable's expansion (each is expanded
    once; one that refers to itself, or grows past ``_MAKE_LONGEST``, is unknown)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        following = text[i + 1]
        if following == "$":
            out.append("$")
            i += 2
            continue
        if following not in "({":
            out.append(f"${{{following}}}" if following.isalnum() else "${MAKE_AUTOMATIC}")
            i += 2
            continue
        close = ")" if following == "(" else "}"
        level, j = 0, i + 1
        while j < n:
            if text[j] == following:
                level += 1
            elif text[j] == close:
                level -= 1
                if level == 0:
                    break
            j += 1
        if j >= n:
            out.append("${MAKE_UNKNOWN_OPTIONS}")
            break
        inner = text[i + 2 : j].strip()
        value = variables.get(inner)
        # a function's result may be any options (``$(shell cat opts)``): as an option variable is
        unknown = f"${{{inner}}}" if re.fullmatch(r"[A-Za-z_]\w*", inner) else "${MAKE_UNKNOWN_OPTIONS}"
        if isinstance(value, str):
            if inner not in expanded:
                expanded[inner] = unknown  # while it expands: a reference to itself is unknown
                done = _make_expand(value, variables, expanded)
                expanded[inner] = done if len(done) <= _MAKE_LONGEST else unknown
            out.append(expanded[inner])
        elif inner not in variables and _MAKE_WORKING_FOLDER.match(inner):
            out.append("$PWD")
        else:
            out.append(unknown)
        i = j + 1
    return "".join(out)
