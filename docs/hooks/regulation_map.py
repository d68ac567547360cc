"""MkDocs hook: the regulation map, generated at build time from the tests' citations.

A test says which subsections it checks with a marker,
``@pytest.mark.regulation("637a.15(d)")`` (a citation in its comments or docstring explains,
it does not check, and is not counted, as ``../shared/tools/regcov --strict`` counts); the
code cites the subsection a rule comes from in its docstrings and comments. This hook scans
both and writes, in place of the marker
``<!-- regulation-map -->`` on ``regulation-map.md``, one table per chapter: each
subsection, the tests that cite it and the modules that do. The chapters' subsection
lists are read from the rule texts in ``../shared/regs/*.txt`` the way
``../shared/tools/regcov`` reads them (section headings ``§ 637a.15.``, subsections
``(a)``, ``(b)``… in order, definitions and physical-layout subsections left out), so the
counts here agree with regcov's. Without ``../shared`` the page says so and lists what the
tests cite: the build never fails for want of the rule texts.

Pure Python and the standard library only: the build fetches nothing.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import Path

MARKER = "<!-- regulation-map -->"
PAGE = "regulation-map.md"
APPS = ("casino", "tables", "poker_room", "jackpots", "finance")
# As regcov: subsections that describe only the layout, signage wording or furniture, and
# the subsections whose "(x)" marker the source text lost (added by hand).
PHYSICAL = {
    "579.2(b)", "579.2(c)", "579.2(d)", "589.2(b)", "589.2(c)", "589.2(d)",
    "671a.2(b)", "671a.2(c)", "671a.2(d)", "637a.2(b)", "637a.2(c)", "637a.2(d)", "637a.7(a)",
}
ADDED = {"637a.10(l)", "637a.12(l)", "637a.18(l)", "637a.20(f)", "637a.20(i)",
         "637a.20(j)", "637a.20(k)", "637a.20(l)"}
SECTION = re.compile(r"§\s*(\d{3}a?\.\d+)\.\s")
SUB = re.compile(r"^[\s\-#*]*\(([a-z])\)\s")
CITE = re.compile(r"(\d{3}a?\.\d+)\s*\(([a-z])\)")
CHAPTER_TITLES = {
    "579": "Chapter 579 — Five Card Hi-Lo",
    "589": "Chapter 589 — Lunar Poker (2013)",
    "637a": "Chapter 637a — Poker",
    "671a": "Chapter 671a — Lunar Poker (2016)",
}
FILES_SHOWN = 4


def subsections(regs: Path) -> dict[str, str]:
    """Every subsection of the rule texts, as regcov counts them, mapped to its file."""
    found: dict[str, str] = {}
    for path in sorted(regs.glob("*.txt")):
        section, last = None, "`"
        for line in path.read_text(encoding="utf-8").splitlines():
            head = SECTION.match(line.lstrip("#* -"))
            if head:
                section, last = head.group(1), "`"
                if section.endswith(".1"):  # definitions: cited through the rules using them
                    section = None
                continue
            if section is None:
                continue
            sub = SUB.match(line)
            # letters run in order; a jump of more than two is a roman numeral ((i), (v))
            if sub and 0 < ord(sub.group(1)) - ord(last) <= 2:
                last = sub.group(1)
                key = f"{section}({last})"
                if key not in PHYSICAL:
                    found.setdefault(key, path.name)
    if found:
        for key in ADDED:
            found.setdefault(key, "ch637a-poker.txt")
    return found


def _python_files(root: Path, folder: str, tests: bool):
    for dirpath, dirnames, filenames in os.walk(root / folder):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in {"__pycache__", "migrations", ".venv", "node_modules"})
        for name in sorted(filenames):
            if not name.endswith(".py"):
                continue
            is_test = name.startswith("test_") or name.endswith("_test.py")
            if is_test == tests:
                yield Path(dirpath) / name


def marker_text(text: str) -> str:
    """The arguments of every ``mark.regulation(...)`` in a test file, joined (as regcov
    --strict reads them)."""
    out = []
    for m in re.finditer(r"mark\.regulation\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        out.append(text[m.end():i - 1])
    return "\n".join(out)


def citations(root: Path, folders, tests: bool) -> dict[str, set[str]]:
    """Subsection → the files (relative to ``root``) that cite it: a test file by its
    regulation markers only, a module anywhere in its text."""
    cited: dict[str, set[str]] = defaultdict(set)
    for folder in folders:
        for path in _python_files(root, folder, tests):
            text = path.read_text(encoding="utf-8", errors="replace")
            if tests:
                text = marker_text(text)
            for section, letter in CITE.findall(text):
                cited[f"{section}({letter})"].add(path.relative_to(root).as_posix())
    return cited


def _sort_key(key: str):
    section, letter = key[:-3], key[-2]
    chapter, number = section.split(".")
    return (chapter, int(number), letter)


def _files(paths: set[str]) -> str:
    shown = sorted(paths)[:FILES_SHOWN]
    text = ", ".join(f"`{p}`" for p in shown)
    if len(paths) > FILES_SHOWN:
        text += f" and {len(paths) - FILES_SHOWN} more"
    return text or "—"


def render(root: Path, regs: Path) -> str:
    """The map's Markdown: a summary table, then one table per chapter."""
    tested = citations(root, ["tests"], tests=True)
    implemented = citations(root, APPS, tests=False)
    wanted = subsections(regs) if regs.is_dir() else {}
    lines: list[str] = []
    if wanted:
        keys = sorted(wanted, key=_sort_key)
    else:
        lines += [
            "!!! warning \"The rule texts are not beside this checkout\"",
            f"    `{regs}` was not found when this site was built, so the map cannot list "
            "the subsections no test cites. It lists the subsections the tests cite.",
            "",
        ]
        keys = sorted(tested, key=_sort_key)
    by_chapter: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        by_chapter[key.split(".")[0]].append(key)
    lines += ["| chapter | subsections | checked by tests | cited in the code |",
              "|---|---|---|---|"]
    for chapter, chapter_keys in sorted(by_chapter.items()):
        hit = sum(1 for k in chapter_keys if k in tested)
        code = sum(1 for k in chapter_keys if k in implemented)
        lines.append(f"| [{chapter}](#chapter-{chapter}) | {len(chapter_keys)} | {hit} | {code} |")
    lines.append("")
    for chapter, chapter_keys in sorted(by_chapter.items()):
        title = CHAPTER_TITLES.get(chapter, f"Chapter {chapter}")
        lines += [f"## {title} {{#chapter-{chapter}}}", "",
                  "| subsection | tested by | implemented in (cited by) |", "|---|---|---|"]
        for key in chapter_keys:
            mark = "" if key in tested else " (no test checks it)"
            lines.append(f"| `§ {key}`{mark} | {_files(tested.get(key, set()))} "
                         f"| {_files(implemented.get(key, set()))} |")
        lines.append("")
    return "\n".join(lines)


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    """Fill the marker on the regulation map's page; leave every other page alone."""
    if page.file.src_uri != PAGE or MARKER not in markdown:
        return markdown
    root = Path(config["config_file_path"]).resolve().parent
    return markdown.replace(MARKER, render(root, root.parent / "shared" / "regs"))
