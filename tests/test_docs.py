"""The documentation a new user follows (issue #19): a short README, docs/ pages whose links
resolve, docs/rules.md generated from the rule modules, install lines that work from the
repository (nothing asks a package index for dl-lint, nothing pins a tag that does not exist),
the repository URL in one place, and the test commands CI runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS]


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _outside_code(markdown: str) -> str:
    return re.sub(r"```.*?```", "", markdown, flags=re.S)


def test_docs_rules_md_is_generated_from_the_rule_modules():
    from dl_lint.rules import rules_document

    assert _text(ROOT / "docs" / "rules.md") == rules_document(), (
        "docs/rules.md is stale: python -m dl_lint.rules > docs/rules.md"
    )


def test_the_generator_prints_the_document():
    from dl_lint.rules import rules_document

    result = subprocess.run([sys.executable, "-m", "dl_lint.rules"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == rules_document()


def test_every_rule_url_points_at_its_section():
    """With a documentation URL configured (docs/rules.md where it is published), each rule's
    link is that page at the rule's own section: the anchor docs/rules.md defines for it."""
    from dl_lint.model import rule_url
    from dl_lint.report.sarif import to_sarif
    from dl_lint.rules import all_rules

    page = "https://github.com/OWNER/dl-lint/blob/main/docs/rules.md"
    rules_md = _text(ROOT / "docs" / "rules.md")
    driver = to_sarif([], documentation_url=page)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == page
    for rule, descriptor in zip(all_rules().values(), driver["rules"]):
        anchor = rule.code.lower()
        assert rule_url(rule.code, page) == descriptor["helpUri"] == f"{page}#{anchor}"
        assert f'<a id="{anchor}"></a>\n\n## {rule.code}: {rule.name}\n' in rules_md
        # the rule's own documentation follows, every section of it
        for heading in re.findall(r"^## (.+)$", rule.doc, re.M):
            assert f"### {heading}" in rules_md


def test_no_link_to_a_place_that_does_not_exist():
    """dl-lint is not published: no URL is built in (model.DOCUMENTATION_URL is None until a
    release sets it, docs/releasing.md), and nothing names a made-up address such as the
    placeholder github.com/dl-lint/dl-lint that JSON, SARIF and the language server printed."""
    from dl_lint import model

    assert model.DOCUMENTATION_URL is None
    places = []
    for path in [*sorted((ROOT / "dl_lint").rglob("*.py")), ROOT / "action.yml", ROOT / "pyproject.toml",
                 ROOT / ".pre-commit-hooks.yaml", ROOT / "README.md", *PAGES]:
        if "github.com/dl-lint" in _text(path):
            places.append(path.relative_to(ROOT).as_posix())
    assert places == []


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(markdown: str) -> set:
    found = {_slug(h) for h in re.findall(r"^#+ (.+)$", _outside_code(markdown), re.M)}
    return found | set(re.findall(r'<a id="([^"]+)"></a>', markdown))


def test_links_between_the_pages_resolve():
    checked = 0
    for page in PAGES:
        # a code span is no link: ``self.name2pre_epoch[task](epoch_id)`` in a judge's notes
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`\n]*`", "", _outside_code(_text(page)))):
            if re.match(r"[a-z]+:", target):
                continue  # http(s): outside the repository
            file, _, fragment = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            assert path.exists(), f"{page.name}: link to {target}: no such file"
            if fragment:
                assert fragment in _anchors(_text(path)), f"{page.name}: link to {target}: no such section"
            checked += 1
    assert checked >= 20


def test_the_readme_is_short_and_has_what_a_new_user_needs():
    readme = _text(ROOT / "README.md")
    assert len(readme.encode()) < 15_000  # it was 42 KB; the rest lives in docs/
    headings = re.findall(r"^## (.+)$", _outside_code(readme), re.M)
    for wanted in ("Install", "Quick start", "pre-commit", "CI", "Rules", "Documentation",
                   "Development: install and test"):
        assert wanted in headings, wanted
    # every docs page is reachable from the README: linked from it, or from a page it reaches
    # (the held-out sets' pages from real-world.md, which reports them)
    reached = set(re.findall(r"\]\(docs/([\w.-]+\.md)", readme))
    todo = list(reached)
    while todo:
        page = ROOT / "docs" / todo.pop()
        for name in re.findall(r"\]\(([\w.-]+\.md)", _text(page)) if page.exists() else ():
            if name not in reached:
                reached.add(name)
                todo.append(name)
    assert {p.name for p in DOCS} <= reached
    assert set(re.findall(r"\]\(docs/([\w.-]+\.md)", readme)) <= {p.name for p in DOCS}  # no dead page link


def test_install_lines_work_without_a_package_index():
    """`pip install dl-lint` fails: dl-lint is on no index. Every install line names the
    repository (git+), a local path or a wheel."""
    for page in PAGES:
        for line in _text(page).splitlines():
            for command in re.findall(r"(?:pipx?|python -m pip) install ([^`\n]*)", line):
                spec = re.split(r"&&|#|;", command)[0]  # what this command installs
                if "dl-lint" in spec or "dl_lint" in spec:
                    assert "git+<repository URL>" in spec or "dist/dl_lint-" in spec, (page.name, line)


def test_pins_name_commits_not_tags():
    """`rev: v0.1.0` and `@v0.1.0` named a tag that does not exist (pre-commit exits 3)."""
    for page in (ROOT / "README.md", *DOCS):
        blocks = "\n".join(re.findall(r"```(?:yaml|console)\n(.*?)```", _text(page), re.S))
        for rev in re.findall(r"^\s*rev: (\S+)", blocks, re.M):
            assert rev == "<commit-sha>", (page.name, rev)
        for uses in re.findall(r"uses: (OWNER/dl-lint@\S+)", blocks):
            assert uses == "OWNER/dl-lint@<commit-sha>", (page.name, uses)
        assert "dl-lint/dl-lint@v" not in blocks and "@v0.1.0" not in blocks


def _console_commands(markdown: str, heading: str) -> list:
    start = markdown.index(heading)
    end = markdown.find("\n## ", start + 1)
    section = markdown[start : end if end >= 0 else len(markdown)]
    return [line for block in re.findall(r"```console\n(.*?)```", section, re.S) for line in block.splitlines()]


def test_ci_runs_the_readmes_install_and_test_commands():
    readme = _text(ROOT / "README.md")
    commands = _console_commands(readme, "## Development: install and test")
    assert "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in commands
    assert "pip install -e '.[test]'" in commands
    assert "python -m pytest" in commands and 'python -m pytest -m "not torch"' in commands
    assert "python -m pytest -m slow" in commands
    ci = _text(ROOT / ".ci" / "run")
    assert "-m pip install --quiet -e '.[test]'" in ci
    assert re.search(r"activate && python -m pytest\)", ci)  # exactly README's command, main Python
    assert re.search(r"activate && python -m pytest -m slow\)", ci)  # and the tests it deselects
    assert re.search(r"STEPS=\(main slow ", ci)
    assert 'python -m pytest -m "not torch")' in ci  # the README's 3.9 command
    assert "3.9.18/bin/python" in ci and "-m build --wheel" in ci


def test_the_torch_pin_exists_for_every_python_it_installs_on():
    """torch 2.13 has wheels for Python >= 3.10 only: on 3.9 the extra must not ask for it."""
    from packaging.requirements import Requirement

    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib
    project = tomllib.loads(_text(ROOT / "pyproject.toml"))
    assert project["project"]["requires-python"] == ">=3.9"
    [torch] = [Requirement(r) for r in project["project"]["optional-dependencies"]["test"] if Requirement(r).name == "torch"]
    assert str(torch.specifier) == "==2.13.0"
    assert not torch.marker.evaluate({"python_version": "3.9"})
    assert torch.marker.evaluate({"python_version": "3.10"}) and torch.marker.evaluate({"python_version": "3.13"})
    markers = project["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("torch:") for m in markers)
    assert "--strict-markers" in project["tool"]["pytest"]["ini_options"]["addopts"]


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_docs_pages_have_a_title(page):
    assert _text(page).startswith("# ")
