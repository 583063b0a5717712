"""What a rule may know beyond the loader call it judges: settings and project-wide facts.

Defined beside the rules (not in the engine), so that rules depend only on analysis facts and
this context, and the engine depends on rules, never the other way round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:
    from dl_lint.analysis.datasets import ClassFacts, DatasetIndex
    from dl_lint.analysis.loaders import LoaderCall
    from dl_lint.config import Settings


class RuleContext:
    def __init__(
        self,
        settings: "Settings",
        module_name: str,
        path: str,
        datasets: "DatasetIndex",
        accelerator: Callable[["LoaderCall"], bool],
        signal: Optional[Callable[[str], bool]] = None,
        is_notebook: bool = False,
        torch_name: Optional[str] = "torch",
        import_row: int = 1,
    ) -> None:
        self.settings = settings
        self.module_name = module_name
        self.path = path
        self.datasets = datasets
        self._accelerator = accelerator
        self._signal = signal or (lambda kind: False)
        self.is_notebook = is_notebook
        # For fixes that need torch (DL102): how the module names torch, where to import it.
        self.torch_name = torch_name
        self.import_row = import_row

    def torch_at_least(self, major: int, minor: int) -> bool:
        try:
            got = tuple(int(p) for p in self.settings.target_version.split(".")[:2])
        except ValueError:
            return True
        return got >= (major, minor)

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
