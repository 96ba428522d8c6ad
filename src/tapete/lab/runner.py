"""`tapete conformance run KIT --against CMD|URL`: every case of a kit through another system, judged by
`compare`, summarised per game and per article, written as JUnit XML for a lab's CI.

The protocol (kit_readme.md): a command reads one round document on standard input and writes one answer (a
settlement or an error document) on standard output, exiting 0 or 2 as `tapete settle` does; a URL takes the
round document by POST (Content-Type application/json) and answers it with status 200. Each case gets its own
process or request and at most `timeout` seconds.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from xml.etree import ElementTree as ET

from tapete.core.errors import TapeteError
from tapete.lab.cases import Case, read_cases
from tapete.lab.compare import Verdict, compare
from tapete.lab.kit import kit_files


class NoAnswer(Exception):
    """The system under test gave no answer: it crashed, timed out or wrote something that is not JSON."""


class Adapter(Protocol):
    """A system under test: one round document in, its answer out (or NoAnswer)."""
    def answer(self, doc: Any, timeout: float) -> Any: ...


@dataclass(frozen=True)
class CommandAdapter:
    """A program run once per case: the document on stdin, the answer on stdout."""
    argv: tuple[str, ...]

    def answer(self, doc: Any, timeout: float) -> Any:
        try:
            done = subprocess.run(self.argv, input=json.dumps(doc, ensure_ascii=False), capture_output=True,
                                  text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise NoAnswer(f"timed out after {timeout:g} s") from None
        except OSError as exc:
            raise NoAnswer(f"could not run {self.argv[0]}: {exc.strerror}") from None
        if done.returncode not in (0, 2):
            tail = done.stderr.strip().splitlines()[-1:] or ["(nothing on stderr)"]
            raise NoAnswer(f"exited with {done.returncode}: {tail[0][:300]}")
        return _json(done.stdout)


@dataclass(frozen=True)
class UrlAdapter:
    """An HTTP endpoint: the document by POST, the answer in the body of a 200 reply."""
    url: str

    def answer(self, doc: Any, timeout: float) -> Any:
        request = urllib.request.Request(self.url, data=json.dumps(doc, ensure_ascii=False).encode("utf-8"),
                                         headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                return _json(reply.read().decode("utf-8", errors="replace"))
        except urllib.error.HTTPError as exc:
            raise NoAnswer(f"HTTP {exc.code} {exc.reason}") from None
        except TimeoutError:
            raise NoAnswer(f"timed out after {timeout:g} s") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(reason, TimeoutError) or "timed out" in str(reason):
                raise NoAnswer(f"timed out after {timeout:g} s") from None
            raise NoAnswer(f"no answer from {self.url}: {reason}") from None


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise NoAnswer(f"the answer is not JSON ({exc.msg}): {text.strip()[:200]!r}") from None


def adapter_for(against: str) -> Adapter:
    """An http(s):// URL is an endpoint; anything else a command line (split as a shell would, never run by one)."""
    if against.startswith(("http://", "https://")):
        return UrlAdapter(against)
    argv = tuple(shlex.split(against))
    if not argv:
        raise TapeteError("bad-option", "--against: a command line or an http(s) URL")
    return CommandAdapter(argv)


@dataclass
class Result:
    case: Case
    suite: str                     # the kit file: <game>/<jurisdiction>
    verdict: Verdict
    seconds: float
    articles: list[str] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        return {"suite": self.suite, "name": self.case.name, **self.verdict.document(), "articles": self.articles}


def load(kit: Path, name_filter: str | None = None) -> list[tuple[str, Case]]:
    """(suite, case) for every case of the kit; a kit line that is not a case is refused (bad input, exit 2)."""
    out = []
    for path in kit_files(kit):
        suite = f"{path.parent.name}/{path.stem}" if path.parent.parent.name == "cases" else path.stem
        try:
            cases = list(read_cases(path.read_text(encoding="utf-8"), str(path)))
        except (ValueError, UnicodeDecodeError) as exc:
            raise TapeteError("bad-document", f"the kit is not valid: {exc}") from None
        out += [(suite, c) for c in cases if name_filter is None or name_filter in c.name]
    if not out:
        raise TapeteError("bad-option", f"no case of {kit} matches {name_filter!r}")
    return out


def run_one(adapter: Adapter, suite: str, case: Case, timeout: float) -> Result:
    start = time.monotonic()
    try:
        verdict = compare(case.expect, adapter.answer(case.doc, timeout))
    except NoAnswer as exc:
        verdict = Verdict("error", str(exc))
    arts = case.extra.get("articles")
    return Result(case, suite, verdict, time.monotonic() - start, list(arts) if isinstance(arts, list) else [])


def run(adapter: Adapter, cases: list[tuple[str, Case]], timeout: float = 10.0, jobs: int = 1) -> list[Result]:
    """Every case, `jobs` at a time; results in the kit's order."""
    if jobs <= 1:
        return [run_one(adapter, s, c, timeout) for s, c in cases]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda sc: run_one(adapter, sc[0], sc[1], timeout), cases))


def summary(results: list[Result]) -> dict[str, Any]:
    """Counts per status, per suite (game/jurisdiction), per game and per article (every article a case of the run
    tests: a case counts under each of its articles)."""
    def count(rs: list[Result]) -> dict[str, int]:
        c = Counter(r.verdict.status for r in rs)
        return {"cases": len(rs), "pass": c["pass"], "fail": c["fail"], "error": c["error"]}

    by_suite: dict[str, list[Result]] = defaultdict(list)
    by_game: dict[str, list[Result]] = defaultdict(list)
    by_article: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_suite[r.suite].append(r)
        by_game[r.suite.split("/")[0]].append(r)
        for a in r.articles:
            by_article[a].append(r)
    return {"total": count(results), "suites": {k: count(v) for k, v in sorted(by_suite.items())},
            "games": {k: count(v) for k, v in sorted(by_game.items())},
            "articles": {a: count(v) for a, v in sorted(by_article.items())}}


def junit(results: list[Result], path: Path) -> None:
    """JUnit XML: one testsuite per kit file, one testcase per case, <failure> and <error> with the diff."""
    root = ET.Element("testsuites", name="tapete conformance", tests=str(len(results)),
                      failures=str(sum(r.verdict.status == "fail" for r in results)),
                      errors=str(sum(r.verdict.status == "error" for r in results)))
    by_suite: dict[str, list[Result]] = defaultdict(list)
    for r in results:
        by_suite[r.suite].append(r)
    for suite, rs in by_suite.items():
        el = ET.SubElement(root, "testsuite", name=suite, tests=str(len(rs)),
                           failures=str(sum(r.verdict.status == "fail" for r in rs)),
                           errors=str(sum(r.verdict.status == "error" for r in rs)),
                           time=f"{sum(r.seconds for r in rs):.3f}")
        for r in rs:
            tc = ET.SubElement(el, "testcase", name=r.case.name, classname=suite.replace("/", "."), time=f"{r.seconds:.3f}")
            if r.verdict.status != "pass":
                kind = "failure" if r.verdict.status == "fail" else "error"
                body = "\n".join(d.text() for d in r.verdict.diffs) or r.verdict.message
                if r.articles:
                    body += "\narticles: " + ", ".join(r.articles)
                ET.SubElement(tc, kind, message=r.verdict.message[:500], type=kind).text = body
    ET.indent(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
