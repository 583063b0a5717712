from dl_lint.model import Severity
from dl_lint.rules.base import Rule


class ParseError(Rule):
    code = "DL000"
    name = "parse-error"
    severity = Severity.ERROR
    summary = "A file that needed analysis could not be read, decoded or parsed."
    doc = """
## What it does
Reports a file that dl-lint had to read (it mentions a DataLoader) but could not read or
decode, or had to analyse (it also calls or rebinds one) but could not parse with the Python
that runs dl-lint, or that is larger than `max-file-size`. The diagnostic carries the
parser's line, column and message. Also a path named on the command line that is not a
regular file (a named pipe, a socket, a device): dl-lint does not open it, since reading a
FIFO waits for a writer and would hang the run.

## Why is this bad?
A file dl-lint cannot read is a file it cannot check: its DataLoader calls are not linted. The
other files of the run are still linted, and the run exits 1.

## Example
```python
loader = DataLoader(ds, num_workers=4   # unclosed parenthesis
```

## Use instead
Fix the syntax error (or the encoding: declare it with a PEP 263 coding cookie). Files written
for Python 2 are not linted. To lint source from a pipe, give `-` as the path (with
`--stdin-filename NAME` for the name to report).

## Torch versions
Independent of torch.
"""


RULE = ParseError()
