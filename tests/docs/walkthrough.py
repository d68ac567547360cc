"""A documentation walk-through page: its runnable blocks and the output each promises.

The convention of ``docs/walkthroughs/*.md`` (stated on ``docs/walkthroughs/index.md``):

* every fenced block whose info string is ``bash`` is run, in page order, by one bash
  process for the whole page (so the set-up block's variables reach the later blocks);
  ``sh`` blocks are examples that are not run;
* a ``text`` block titled ``Expected output`` after a ``bash`` block (prose may come
  between, no other block) is what that block prints, line for line; ``<…>`` (angle
  brackets around a word or a few) stands for text that differs from run to run.

A stale figure fails with the page, the line of the expected output and both lines.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```(\S*)(.*)$")
PLACEHOLDER = re.compile(r"<[^<>\n]{1,40}>")
MARK = "@@walk-through block {n}@@"


@dataclass
class Block:
    """One runnable block: where it starts, its commands and the output it promises."""

    line: int  # 1-based line of the opening fence
    code: str
    expected: list[tuple[int, str]] | None = field(default=None)  # (line, text) pairs


def blocks(path: Path) -> list[Block]:
    """The page's ``bash`` blocks, each with the ``Expected output`` block after it."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    last_was_bash = False
    while i < len(lines):
        head = FENCE.match(lines[i])
        if not head:
            i += 1
            continue
        lang, rest = head.group(1), head.group(2)
        start = i
        i += 1
        body: list[tuple[int, str]] = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1  # the closing fence
        if lang == "bash":
            found.append(Block(line=start + 1, code="\n".join(t for _, t in body)))
            last_was_bash = True
            continue
        if lang == "text" and 'title="Expected output"' in rest and last_was_bash:
            found[-1].expected = body
        last_was_bash = False
    return found


def script(page_blocks: list[Block]) -> str:
    """One bash script for the page: each block preceded by a marker line on stdout."""
    parts = ["set -euo pipefail"]
    for n, block in enumerate(page_blocks):
        parts.append(f"printf '\\n{MARK.format(n=n)}\\n'")
        parts.append(block.code)
    parts.append(f"printf '\\n{MARK.format(n='end')}\\n'")
    return "\n".join(parts) + "\n"


def outputs(stdout: str, count: int) -> list[list[str] | None]:
    """Each block's printed lines, split at the markers (None: the block never ran)."""
    result: list[list[str] | None] = [None] * count
    current: int | None = None
    collected: list[str] = []
    for line in stdout.split("\n"):
        match = re.fullmatch(r"@@walk-through block (\d+|end)@@", line)
        if match:
            if current is not None:
                result[current] = collected
            current = None if match.group(1) == "end" else int(match.group(1))
            collected = []
            continue
        if current is not None:
            collected.append(line)
    if current is not None:
        result[current] = collected
    return result


def _pattern(expected: str) -> re.Pattern[str]:
    pieces = PLACEHOLDER.split(expected.rstrip())
    return re.compile(".+?".join(re.escape(p) for p in pieces))


def _trim(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def mismatches(path: Path, page_blocks: list[Block], stdout: str, root: Path) -> list[str]:
    """Every promise the run did not keep, as ``page:line: …`` messages."""
    name = path.relative_to(root).as_posix()
    problems: list[str] = []
    for block, printed in zip(page_blocks, outputs(stdout, len(page_blocks))):
        if printed is None:
            problems.append(f"{name}:{block.line}: this block did not run (an earlier one stopped)")
            break
        if block.expected is None:
            continue
        got = _trim(printed)
        want = [(n, t) for n, t in block.expected]
        while want and not want[-1][1].strip():
            want.pop()
        for k, (line_no, text) in enumerate(want):
            actual = got[k] if k < len(got) else "(nothing)"
            if not _pattern(text).fullmatch(actual):
                problems.append(f"{name}:{line_no}: expected {text.strip()!r}\n"
                                f"{' ' * len(name)}  printed  {actual!r}")
        for extra in got[len(want):]:
            problems.append(f"{name}:{block.line}: printed more than the page shows: {extra!r}")
    return problems


def run(path: Path, env: dict[str, str], cwd: Path, timeout: float) -> tuple[list[Block], subprocess.CompletedProcess]:
    """Run the page's blocks in one bash process; its blocks and the finished process.

    bash leads a process group of its own: a page stopped at its timeout is stopped
    whole (its ``curl`` and ``sleep`` with it), never leaving a child behind."""
    page_blocks = blocks(path)
    with subprocess.Popen(["bash", "-c", script(page_blocks)], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as bash:
        try:
            stdout, stderr = bash.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:  # a wait that never ends: say so, with the output
            os.killpg(bash.pid, signal.SIGKILL)
            stdout, stderr = bash.communicate()
            return page_blocks, subprocess.CompletedProcess(
                bash.args, returncode=-9, stdout=stdout,
                stderr=stderr + f"\n(the page was stopped after {timeout:.0f} s)")
    return page_blocks, subprocess.CompletedProcess(bash.args, bash.returncode, stdout, stderr)
