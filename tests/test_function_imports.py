"""Imports inside functions only where a comment says why (issue 12): a real import cycle, an
optional dependency, an app registry not ready yet. Every other import is at the top of its
module, where a reader (and import-linter) sees what the module stands on.

An import counts as explained when a comment (not only `# noqa`, `# type:` or `# fmt:`) is on
one of its lines, or heads the run of imports it belongs to (the comment line just above the
run, blank lines between the import groups allowed).
"""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("battles", "kingdoms", "warfare")
TOOL_COMMENT = re.compile(r"#\s*(noqa\b|type:|fmt:|pragma:)")


def _why_comments(source: str) -> tuple[set[int], set[int]]:
    """(the lines that carry a comment saying something, not only a tool's marker; those of
    them that are only that comment)."""
    lines, whole = set(), set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and not TOOL_COMMENT.match(token.string):
            lines.add(token.start[0])
            if token.line.strip().startswith("#"):
                whole.add(token.start[0])
    return lines, whole


def unexplained_imports(source: str) -> list[int]:
    """The line numbers of the function-level imports of `source` no comment explains."""
    tree = ast.parse(source)
    comments, headings = _why_comments(source)
    text = source.splitlines()
    import_lines: set[int] = set()
    inside: list[ast.Import | ast.ImportFrom] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            import_lines.update(range(node.lineno, node.end_lineno + 1))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside += [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
    found = []
    for node in inside:
        if comments & set(range(node.lineno, node.end_lineno + 1)):
            continue
        line = node.lineno - 1
        while (
            line > 0
            and line not in headings
            and (line in import_lines or not text[line - 1].strip())
        ):
            line -= 1  # back over the run of imports (and the blank lines between its groups)
        if line not in headings:
            found.append(node.lineno)
    return sorted(set(found))


def test_the_check_finds_an_unexplained_import_and_accepts_an_explained_one():
    source = (
        "import os\n"
        "\n"
        "def bare():\n"
        "    import json\n"
        "    from re import match  # noqa: F401\n"
        "\n"
        "def explained():\n"
        "    import csv  # optional: only the export reads it\n"
        "    import zlib\n"
        "    # Imported at ready: the models load once the app registry is set up.\n"
        "    from a import b\n"
        "\n"
        "    from . import c\n"
        "    x = 1\n"
        "    import d\n"
        "\n"
        "class Config:\n"
        "    def ready(self):\n"
        "        if True:\n"
        "            import e\n"
    )
    assert unexplained_imports(source) == [4, 5, 9, 15, 20]


def _project_modules() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_function_level_imports_say_why(package):
    modules = [path for path in _project_modules() if path.relative_to(ROOT).parts[0] == package]
    assert len(modules) > 10  # the scan reads the package (not an empty glob)
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in modules
        for line in unexplained_imports(path.read_text(encoding="utf-8"))
    ]
    assert not found, (
        "Imports inside functions without a comment saying why (move them to the top of the "
        "module, or say why: a real cycle, an optional dependency, the app registry): "
        + ", ".join(found)
    )
