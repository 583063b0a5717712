"""Which factory a call may run, as the call-site phase (``judge.judge_call_sites``) and a
module's own analysis (``ModuleAnalysis._root_calls``) both resolve it: a module-level function
the call names, a method of a project class called on an instance of it, a method the object's
own class defines called on ``self``, or a class whose ``__init__`` builds the loader."""

from __future__ import annotations

import ast
import os
from typing import Any  # a ModuleAnalysis (imported by name it would close a circle with the module)


def factory_key(analysis: Any, call, site):
    """(file, factory name) a call may run: a module-level function it names, or a method of a
    project class called on an instance of it (``model.loader(...)`` with ``model =
    Walker(...)``: ``Walker.loader``); None otherwise."""
    from dl_lint.analysis.values import Instance

    func = call.func
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name) and func.value.id == "self":
            # The object calling a method its own class defines (``for batch in
            # self._get_loader(examples, 5)``, torchtune's ``self._setup_data(...)``): a call
            # site of that method, in the class's own file, with the values the call passes.
            # A method of a base class, or ``self`` that is not the method's first parameter
            # (a nested function's closure), is not followed.
            return _own_method_key(analysis, func.attr, site)
        owner = analysis.resolver.resolve(func.value, site).single
        instance = owner.value if owner is not None else None
        if isinstance(instance, Instance):
            if instance.local or not instance.path:
                return None
            return _inherited_key(analysis, instance, func.attr) or (os.path.abspath(instance.path), f"{instance.name}.{func.attr}")
    target = analysis.resolver.resolve(func, site).single
    ref = target.value if target is not None else None
    kind = getattr(ref, "kind", None)
    if kind == "class" and ref.path:  # a construction: the class may build its loader in ``__init__``
        return os.path.abspath(ref.path), f"{ref.name}.__init__"
    if kind != "function":
        return None
    return os.path.abspath(ref.path), ref.name


def _inherited_key(analysis: Any, instance: Any, name: str):
    """(file, "Base.name") when the instance's class does not define ``name`` and the lookup
    finds it on a project base (``inherited_home``): ``Child(data, num_workers=0)`` with the
    hooks and ``__init__`` of ``Base(LightningDataModule)``. None when the class defines it, or
    the lookup cannot be told."""
    home = inherited_home(analysis.resolver.project, instance.module, instance.path, instance.name, name)
    if home is None or home == (instance.path, instance.name):
        return None
    return os.path.abspath(home[0]), f"{home[1]}.{name}"


def inherited_home(project: Any, module: str, path: str, cls: str, name: str):
    """(file, class name) of the ``def`` a lookup of ``name`` on an instance of the project class
    ``cls`` (of ``module`` at ``path``) finds, itself or a base (``SummaryModule.method_owner``:
    one project base at each step, each binding the name only by a ``def``); None when that
    cannot be told or nothing defines it."""
    summary = getattr(project, "summary", None)
    found = summary(module, path) if summary is not None else None
    if found is None or getattr(found, "path", None) != path:
        return None
    home = found.method_owner(cls, name)
    return (home[0].path, home[1]) if home else None


def _own_method_key(analysis: Any, name: str, site):
    """(file, "Class.name") for ``self.name(...)`` in a method of a class of this module that
    defines ``name`` itself; None otherwise."""
    scope = site.scope
    cls = analysis.ix.method_class.get(id(scope)) if scope is not None else None
    if cls is None or not scope.args.args or scope.args.args[0].arg != "self":
        return None
    if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name for s in cls.body):
        return os.path.abspath(analysis.path), f"{cls.name}.{name}"
    return None
