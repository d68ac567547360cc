"""The walk-through pages keep their conventions (docs/walkthroughs/index.md): each page
starts with one set-up block that defines what the page uses, no variable is used before
it is defined, and each role's token is named for the role. No server needed."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.docs import walkthrough
from tests.docs.test_walkthroughs import PAGES, PAGES_DIR

ROLE_TOKENS = {"DEALER": "demo_dealer", "FLOOR": "demo_floorperson",
               "SUPERVISOR": "demo_poker_shift_supervisor", "CASHIER": "demo_cashier",
               "SECURITY": "demo_security", "COUNT_TEAM": "demo_count_team",
               "COUNT_TEAM_2": "demo_count_team_2", "FINANCE": "demo_finance",
               "FINANCE_2": "demo_finance_2", "COMPLIANCE": "demo_compliance",
               "COMPLIANCE_2": "demo_compliance_2", "ADMIN": "demo_admin"}
ASSIGN = re.compile(r"(?:^|[\s;(&|])([A-Z][A-Z0-9_]*)=|\bfor ([A-Z][A-Z0-9_]*) in\b")
USE = re.compile(r"\$\{?([A-Z][A-Z0-9_]*)")


def _events(line: str):
    """The line's assignments and uses of upper-case variables, in the order written."""
    found = [(m.start(), "define", m.group(1) or m.group(2)) for m in ASSIGN.finditer(line)]
    found += [(m.start(), "use", m.group(1)) for m in USE.finditer(line)]
    return sorted(found)


@pytest.mark.parametrize("page", PAGES)
def test_the_set_up_block_comes_first_and_names_each_token_for_its_role(page: str) -> None:
    blocks = walkthrough.blocks(PAGES_DIR / page)
    setup = blocks[0].code
    assert blocks[0].expected is None
    assert re.search(r"^API=\$\{API:-http://127\.0\.0\.1:8000/api/v1\}", setup, re.M)
    assert re.search(r"^LOGINS=\$\{LOGINS:-var/demo_logins\.txt\}", setup, re.M)
    for variable, login in ROLE_TOKENS.items():
        assert f"\n{variable}=$(token {login})\n" in setup, variable
    # Only the set-up logs in: a later block never changes what a token variable means.
    for block in blocks[1:]:
        assert "token " not in block.code and "/auth/token/" not in block.code


@pytest.mark.parametrize("page", PAGES)
def test_no_variable_is_used_before_the_page_defines_it(page: str) -> None:
    defined = {"PATH", "HOME"}
    for block in walkthrough.blocks(PAGES_DIR / page):
        for offset, line in enumerate(block.code.split("\n"), start=1):
            for _, kind, name in _events(line):
                if kind == "define":
                    defined.add(name)
                else:
                    assert name in defined, (
                        f"docs/walkthroughs/{page}:{block.line + offset}: ${name} used before "
                        "the page defines it")


@pytest.mark.parametrize("page", PAGES)
def test_every_block_but_the_set_up_promises_its_output(page: str) -> None:
    path: Path = PAGES_DIR / page
    for block in walkthrough.blocks(path)[1:]:
        assert block.expected, f"docs/walkthroughs/{page}:{block.line}: no Expected output"


def test_a_stale_figure_fails_naming_the_page_and_the_line(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text("# A page\n\n```bash\necho '{\"pot_cents\":4800}'\necho id-42\n```\n\n"
                    "Some prose.\n\n```text title=\"Expected output\"\n{\"pot_cents\":4400}\n"
                    "id-<id>\n```\n", encoding="utf-8")
    blocks, done = walkthrough.run(page, {"PATH": "/usr/bin:/bin"}, tmp_path, 30)
    problems = walkthrough.mismatches(page, blocks, done.stdout, tmp_path)
    assert problems == ["docs/page.md:11: expected '{\"pot_cents\":4400}'\n"
                        "              printed  '{\"pot_cents\":4800}'"]


def test_a_page_that_never_finishes_is_stopped_and_says_so(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```bash\necho started\nsh -c 'echo $$ > sleeper.pid; exec sleep 30'\n"
                    "```\n", encoding="utf-8")
    started = time.monotonic()
    blocks, done = walkthrough.run(page, {"PATH": "/usr/bin:/bin"}, tmp_path, 1)
    assert done.returncode == -9
    assert "(the page was stopped after 1 s)" in done.stderr
    assert walkthrough.outputs(done.stdout, len(blocks)) == [["started", ""]]
    assert time.monotonic() - started < 10  # not held until the sleep ends by its pipe
    # the page's children are stopped with it: no `sleep 30` is left running
    pid = int((tmp_path / "sleeper.pid").read_text())
    deadline = time.monotonic() + 5
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(pid), "the page's sleep outlived the page"


def _running(pid: int) -> bool:
    """The process exists and is not a zombie (killed, waiting to be reaped)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status
