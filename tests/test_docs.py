"""The documentation stands on its own.

- No tracked file of the product cites material a user who clones the
  repository does not have (the team's private reference notes) or carries
  internal ownership notes.
- Every reference to a numbered section of docs/rules.md (the comments of
  native/ say "docs/rules.md section 3.2"; the docs say "[rules.md](rules.md)
  section 8") names a section that exists as a heading there, and native/
  uses that one form only.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SCANNED = ("docs", "native", "gota_arena", "plugins", "conf", "benchmarks", "README.md")
SKIPPED_PARTS = {"__pycache__", "build", ".pytest_cache"}
SKIPPED_SUFFIXES = {".so", ".o", ".a", ".pyc"}

# citations of the private notes, and ownership notes
FORBIDDEN = {
    "a path into the team's shared notes": re.compile(r"shared/spec|\.\./shared\b"),
    "the private rules / training-API notes": re.compile(r"\bgota-rules\.md\b|\bgota-training-api\.md\b"),
    "a numbered decision of the private notes": re.compile(
        r"\bspec(?:'s)?\s+(?:training\s+|game\s+)?decisions?\s+\d|\bdecisions?\s+\d+(?:-\d+)?\s+of\s+the\s+spec\b"
        r"|\b(?:training|game)\s+decisions?\s+\d",
        re.IGNORECASE),
    "an ownership note": re.compile(r"\bOwner(?:ship)?:\s*engineer\b", re.IGNORECASE),
}

NUM = r"\d+(?:\.\d+)*"
NUM_LIST = rf"{NUM}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+){NUM})*"
# "rules section 3", "rules sections 3.1, 3.2 and 4", "rules 3.4", "rules.md section 8",
# "docs/rules.md section 7", "[rules.md](rules.md) section 8", "(rules\n * section 7" (joined below)
RULES_REF = re.compile(
    r"(?<![\w-])(?P<prefix>(?:docs/)?rules(?:\.md)?(?:\]\([^)\s]*rules\.md\))?)"   # rules, docs/rules.md, [..](..)
    rf"\s+(?:(?:sections?|§)\s*)?(?P<nums>{NUM_LIST})\b")
HEADING = re.compile(rf"^#{{2,6}}\s+(?P<num>{NUM})\.?\s+\S", re.MULTILINE)
COMMENT_BREAK = re.compile(r"\n[ \t]*(?:\*(?!/)|//|#)?[ \t]*")


def tracked_files() -> list:
    """The tracked files under SCANNED (git), or every file there outside build output."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *SCANNED], cwd=ROOT, capture_output=True, check=True)
        names = [n for n in out.stdout.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
    if names:
        return [ROOT / n for n in names if (ROOT / n).is_file()]
    files = []
    for top in SCANNED:
        path = ROOT / top
        candidates = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        files += [p for p in candidates
                  if not SKIPPED_PARTS & set(p.relative_to(ROOT).parts) and p.suffix not in SKIPPED_SUFFIXES]
    return files


def text_of(path: Path):
    """The file's text, or None for a binary file."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    return data.decode("utf-8", errors="replace")


def rules_sections() -> set:
    return {m.group("num") for m in HEADING.finditer(RULES.read_text(encoding="utf-8"))}


def references(text: str) -> list:
    """(prefix, [section numbers], matched text) of every rules-section reference.
    Lines are joined first (comment leaders dropped), so a reference broken over
    two comment lines is found too."""
    joined = COMMENT_BREAK.sub(" ", text)
    return [(m.group("prefix"), re.findall(NUM, m.group("nums")), m.group(0)) for m in RULES_REF.finditer(joined)]


def test_reference_regex_is_precise():
    assert references("x (docs/rules.md sections 0, 3.1, 3.2 and 4). y") == [
        ("docs/rules.md", ["0", "3.1", "3.2", "4"], "docs/rules.md sections 0, 3.1, 3.2 and 4")]
    assert [r[1] for r in references("/* a (docs/rules.md\n * section 3.4). */")] == [["3.4"]]
    assert [r[:2] for r in references("(rules 3.4) and rules section 9;")] == [("rules", ["3.4"]), ("rules", ["9"])]
    assert [r[:2] for r in references("see [rules.md](rules.md) section 8, then")] == [
        ("rules.md](rules.md)", ["8"])]
    assert [r[:2] for r in references("[docs/rules.md](docs/rules.md) section 3.2")] == [
        ("docs/rules.md](docs/rules.md)", ["3.2"])]
    assert [r[1] for r in references("sections 4 and 8 (docs/rules.md sections 4 and 8)")] == [["4", "8"]]
    # not references: the rules' order, prose with a number later, another word ending in "rules"
    assert references("in the rules' order; the rules say 3 things; rules.md is version 2; my_rules 3") == []
    assert {"0", "3", "3.1", "3.5", "10"} <= set(HEADING.findall("## 0. A\n## 3. B\n### 3.1 C\n### 3.5 D\n## 10. E\n"))
    assert not HEADING.findall("# 1. title only\n#### not a number\n")


@pytest.mark.parametrize("what", sorted(FORBIDDEN))
def test_no_private_citations(what):
    pattern = FORBIDDEN[what]
    hits = []
    for path in tracked_files():
        text = text_of(path)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, f"{what} in files a user gets:\n" + "\n".join(hits)


def test_rules_has_numbered_sections():
    sections = rules_sections()
    assert {str(n) for n in range(11)} <= sections, sorted(sections)
    assert {"3.1", "3.2", "3.3", "3.4", "3.5"} <= sections, sorted(sections)


def test_native_cites_existing_rules_sections():
    sections = rules_sections()
    found, bad = 0, []
    for path in tracked_files():
        rel = path.relative_to(ROOT)
        if rel.parts[0] != "native" or path.suffix not in (".c", ".h"):
            continue
        for prefix, nums, text in references(text_of(path) or ""):
            found += 1
            if prefix != "docs/rules.md":
                bad.append(f"{rel}: '{text}' should read 'docs/rules.md section ...'")
            bad += [f"{rel}: '{text}': docs/rules.md has no section {n}" for n in nums if n not in sections]
    assert found >= 30, f"only {found} references to docs/rules.md sections in native/: is the pattern broken?"
    assert not bad, "\n".join(bad)


def test_docs_cite_existing_rules_sections():
    sections = rules_sections()
    bad = []
    tests = [p for p in sorted((ROOT / "tests").glob("*.py")) if p != Path(__file__).resolve()]
    for path in tracked_files() + tests:
        rel = path.relative_to(ROOT)
        if path.suffix not in (".md", ".py") or rel.parts[0] == "native":
            continue
        for prefix, nums, text in references(text_of(path) or ""):
            if "rules.md" not in prefix:
                bad.append(f"{rel}: '{text}' does not say which rules: link rules.md")
            bad += [f"{rel}: '{text}': docs/rules.md has no section {n}" for n in nums if n not in sections]
    assert not bad, "\n".join(bad)


def test_rules_anchors_resolve():
    """Links to a heading of rules.md ((#...) inside it, rules.md#... elsewhere) name a real heading."""
    text = RULES.read_text(encoding="utf-8")
    slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
             for h in re.findall(r"^#{1,6}\s+(.+)$", text, re.MULTILINE)}
    links = [("docs/rules.md", a) for a in re.findall(r"\]\(#([^)\s]+)\)", text)]
    for path in tracked_files():
        if path.suffix == ".md" and path != RULES:
            links += [(str(path.relative_to(ROOT)), a)
                      for a in re.findall(r"rules\.md#([^)\s]+)\)", text_of(path) or "")]
    missing = [f"{where}: #{a}" for where, a in links if a not in slugs]
    assert not missing, "links to missing headings of rules.md:\n" + "\n".join(missing)


NATIVE_PATH = re.compile(r"(?<![\w/.-])native/[\w*/.-]*[\w*]")


def test_native_paths_exist():
    """Every path into native/ that a doc, a comment or a test names (such as
    native/sim/map.c or native/bots/bots_*.c) is there: a file that moves takes
    its mentions along (docs/simulator.md, "Where things are")."""
    tests = [p for p in sorted((ROOT / "tests").glob("*.py")) if p != Path(__file__).resolve()]
    missing = []
    for path in tracked_files() + tests:
        for name in sorted(set(NATIVE_PATH.findall(text_of(path) or ""))):
            if not name.startswith("native/build/") and not any(ROOT.glob(name)):   # build/: make's output
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, "paths into native/ that do not exist:\n" + "\n".join(missing)
