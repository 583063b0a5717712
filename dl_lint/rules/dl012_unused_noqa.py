from dl_lint.model import Severity
from dl_lint.rules.base import Rule


class UnusedNoqa(Rule):
    code = "DL012"
    name = "unused-noqa"
    severity = Severity.INFO
    default_on = False
    summary = "A `# noqa` directive names a dl-lint code that silences nothing on its line."
    fix_available = (
        "Safe: remove the unused codes from the directive, or the whole directive when none is left; "
        "other tools' codes and other comments are kept. Unsafe when the directive goes with a reason "
        "written after its codes (`# noqa: DL001 -- tuned on A100`)."
    )
    references = (
        "ruff's unused-noqa (RUF100), ruff 0.17: unknown codes ignored, `lint.external` kept",
        "flake8 7.5 `Violation.is_inline_ignored`: a code in `# noqa:` is also a prefix",
    )
    doc = """
## What it does
Reports the dl-lint codes of a line's `# noqa: ...` directive that silence nothing: no diagnostic
of that code (or, for a prefix such as `DL1`, of any code it starts) is reported on the rows the
directive covers (every row of a reported call), in this run. A code whose rule is not enabled
for the file is reported as *non-enabled*: it silences nothing either.

It is off by default; enable it with `extend-select = ["DL012"]` (or `--extend-select DL012`).

Only codes that are dl-lint's are judged: a code no dl-lint rule starts with (`E501`, `F401`,
`DL999`) belongs to another tool and is left alone, as are the codes and prefixes listed in the
`external` setting (for another tool whose codes look like dl-lint's). A bare `# noqa` is never
reported (it may be there for any tool), nor a file directive (`# dl-lint: noqa: ...`), nor a
directive in a notebook or a YAML config.

A diagnostic is counted where it is silenced: a directive on a function call silences the
findings dl-lint reports at that call (a loader built from the call's arguments), and a
directive on a DataLoader call silences a finding reported in the YAML config it reads.

## Why is this bad?
A directive that silences nothing is left over from code that changed: it hides nothing today
and hides a new problem of that code on the same line tomorrow.

## Example
```python
loader = DataLoader(ds, num_workers=4, prefetch_factor=2)  # noqa: DL001, E501
```

## Use instead
```python
loader = DataLoader(ds, num_workers=4, prefetch_factor=2)  # noqa: E501
```

`# noqa: DL012` (or a prefix of it, such as `DL0`) on the line keeps the directive as it is.

## Torch versions
Independent of torch.
"""


RULE = UnusedNoqa()
