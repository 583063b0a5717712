"""What a rule may know beyond the loader call it judges: settings and project-wide facts.

Defined beside the rules (not in the engine), so that rules depend only on analysis facts and
this context, and the engine depends on rules, never the other way round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, FrozenSet, Optional, Tuple

if TYPE_CHECKING:
    from dl_lint.analysis.containers import RunDefinition
    from dl_lint.analysis.datasets import ClassFacts, DatasetIndex
    from dl_lint.analysis.loaders import LoaderCall
    from dl_lint.analysis.pythons import StartMethodTarget
    from dl_lint.analysis.signals import Evidence
    from dl_lint.config import Settings
    from dl_lint.remember import Recorded


class RuleContext:
    def __init__(
        self,
        settings: "Settings",
        module_name: str,
        path: str,
        datasets: "DatasetIndex",
        accelerator: Callable[["LoaderCall"], bool],
        signal: Optional[Callable[[str], bool]] = None,
        # Where a signal is (``analysis.signals.Evidence``), for what a certain finding cites.
        evidence: Optional[Callable[[str], Optional["Evidence"]]] = None,
        # The pyproject.toml behind ``python`` and the lines of its requires-python and first
        # Operating System classifier (``Project.python_lines``).
        python_lines: Optional[Callable[[], Tuple[Optional[str], Optional[int], Optional[int]]]] = None,
        # The config file and line that set a setting (``target-python``), when known.
        setting_line: Optional[Callable[[str], Optional[Tuple[str, int]]]] = None,
        is_notebook: bool = False,
        in_cells: bool = False,
        torch_name: Optional[str] = "torch",
        import_row: int = 1,
        # The project's requires-python and classifiers (``Project.python_metadata``).
        python: Optional[Callable[[], Tuple[Optional[str], Tuple[str, ...]]]] = None,
        # The containers that run the project's code (``Project.run_definitions``), DL104.
        containers: Optional[Callable[[], Tuple["RunDefinition", ...]]] = None,
        # The codes selected for this file (a rule that defers to another asks: DL101 to DL104).
        enabled: Optional[FrozenSet[str]] = None,
        # The figure ``dl-lint measure`` recorded for a loader call (``remember.Recorded``), if any.
        measured: Optional[Callable[["LoaderCall"], Optional["Recorded"]]] = None,
    ) -> None:
        self._measured = measured or (lambda call: None)
        self.settings = settings
        self.module_name = module_name
        self.path = path
        self.datasets = datasets
        self._accelerator = accelerator
        self._signal = signal or (lambda kind: False)
        self._evidence = evidence or (lambda kind: None)
        self._python_lines = python_lines or (lambda: (None, None, None))
        self._settings_lines = setting_line or (lambda key: None)
        self.is_notebook = is_notebook
        self.in_cells = in_cells or is_notebook  # run cell by cell in a kernel (DL203)
        # For fixes that need torch (DL102): how the module names torch, where to import it.
        self.torch_name = torch_name
        self.import_row = import_row
        self._python = python or (lambda: (None, ()))
        self._containers = containers or (lambda: ())
        self.enabled = enabled if enabled is not None else frozenset()

    def torch_at_least(self, major: int, minor: int) -> bool:
        try:
            got = tuple(int(p) for p in self.settings.target_version.split(".")[:2])
        except ValueError:
            return True
        return got >= (major, minor)

    def start_method_target(self) -> Optional["StartMethodTarget"]:
        """When the default start method is certainly spawn or forkserver wherever the code runs:
        every allowed Python is 3.14 or later (``target-python``, else the project's
        ``requires-python``), or the project runs only on macOS and Windows (its classifiers).
        None when fork stays possible, or when the program asks for fork itself."""
        from dl_lint.analysis.pythons import start_method_target

        if self.signal("fork"):
            return None
        requires, classifiers = self._python()
        floor = (3, 8) if self.torch_at_least(2, 0) else (3, 6)  # the Pythons torch supports
        if self.settings.target_python is not None:
            target = start_method_target(self.settings.target_python, "target-python", classifiers, floor)
            where = self._setting_line("target-python") if target is not None and target.methods != "spawn" else None
        else:
            target = start_method_target(requires, "requires-python", classifiers, floor)
            where = None
        if target is not None and where is None:
            path, requires_line, classifier_line = self._python_lines()
            line = classifier_line if target.methods == "spawn" else requires_line
            where = (path, line) if path is not None and line is not None else None
        if target is not None and where is not None:
            target = target.replace(path=where[0], line=where[1])
        return target

    def _setting_line(self, key: str) -> Optional[Tuple[str, int]]:
        return self._settings_lines(key)

    def evidence(self, kind: str) -> Optional["Evidence"]:
        """Where a program-wide signal connected to this module is: in the module, in a module
        it imports, or only in an importer (``signals.Evidence``); None without any."""
        return self._evidence(kind)

    def measured_for(self, call: "LoaderCall") -> Optional["Recorded"]:
        """The batch bytes ``dl-lint measure`` recorded for this loader call, or a stale record
        (``dl_lint.remember``); None without one."""
        return self._measured(call)

    def run_definitions(self) -> Tuple["RunDefinition", ...]:
        """The containers at the project root that run its code, with the /dev/shm each leaves
        (``analysis.containers``); empty without any."""
        return self._containers()

    def has_accelerator_evidence(self, call: "LoaderCall") -> bool:
        return self._accelerator(call)

    def signal(self, kind: str) -> bool:
        """A program-wide signal connected to this module: "spawn", "distributed"."""
        return self._signal(kind)

    def dataset_class(self, value) -> Optional["ClassFacts"]:
        """The project class of a dataset value (an Instance), if we can see it."""
        from dl_lint.analysis.values import Instance

        if isinstance(value, Instance) and not value.local:
            return self.datasets.resolve_instance(value, self.module_name)
        return None

    def class_derives(self, name: str, qualnames) -> bool:
        """Whether the class ``name`` of this module provably derives from one of ``qualnames``
        (through classes dl-lint can see; unknown ancestry is False)."""
        cls = self.datasets.lookup_class(self.module_name, name, self.path)
        return cls is not None and self.datasets.derives_from(cls, frozenset(qualnames))

    def dataset_is_iterable(self, value) -> bool:
        cls = self.dataset_class(value)
        return cls is not None and self.datasets.is_iterable(cls)
