"""Minimization of a finding: line-based delta debugging (ddmin), then
token shrinking (attribute dicts, op flags, memory spaces and layouts of
types, single tokens, integer literals), then ddmin again. A candidate is
kept only if it still gives the same bug signature.
"""

import hashlib
import re
import time

REMOVABLE_RE = [
    re.compile(r"\s*attributes\s*\{[^{}\n]*\}"),
    re.compile(r"\s*\{[^{}\n]*\}(?=\s*(?::|$))"),
    re.compile(r"\s+(?:transpose_a|transpose_b|clear_accum|clear|async|in_bounds)\b"),
    re.compile(r"\s+policy\s*<\w+>"),
    re.compile(r",\s*#[\w.]+<[^<>\n]*>(?=>)"),
    re.compile(r",\s*strided<[^<>\n]*>"),
]
INT_RE = re.compile(r"(?<![\w%#@.\-^!$])-?\d+(?![\w.])")


def _func_args(text):
    """(start, end) of each argument of each func.func signature, with the
    comma that joins it to its neighbour."""
    for m in re.finditer(r"func\.func\s+(?:private\s+)?@[\w.$]+\(", text):
        depth, i, items, start = 0, m.end(), [], m.end()
        while i < len(text):
            c = text[i]
            if c in "(<[{":
                depth += 1
            elif c in ")>]}" and not (c == ">" and text[i - 1] == "-"):
                if depth == 0:
                    if text[start:i].strip():
                        items.append((start, i))
                    break
                depth -= 1
            elif c == "," and depth == 0:
                items.append((start, i))
                start = i + 1
            i += 1
        for k, (a, b) in enumerate(items):
            if k + 1 < len(items):
                yield a, items[k + 1][0]       # "x, " up to the next one
            elif k > 0:
                yield items[k - 1][1], b       # ", x" after the previous one
            else:
                yield a, b


def _region_spans(lines):
    """(first, last) line of every op whose region opens at the end of a
    line and closes on a later line."""
    stack, spans = [], []
    for i, line in enumerate(lines):
        for j, c in enumerate(line):
            if c == "{":
                stack.append((i, line[j + 1:].strip() == ""))
            elif c == "}" and stack:
                start, region = stack.pop()
                if region and i > start:
                    spans.append((start, i))
    return spans


class Minimizer:
    def __init__(self, test, max_tests=400, time_limit=None):
        """test(text) -> True when text still shows the bug."""
        self.test_fn = test
        self.max_tests = max_tests
        self.deadline = time.monotonic() + time_limit if time_limit else None
        self.cache = {}
        self.tests = 0

    def exhausted(self):
        return self.tests >= self.max_tests or (
            self.deadline is not None and time.monotonic() > self.deadline)

    def test(self, text):
        key = hashlib.sha1(text.encode()).digest()
        if key in self.cache:
            return self.cache[key]
        if self.exhausted():
            return False
        self.tests += 1
        ok = bool(self.test_fn(text))
        self.cache[key] = ok
        return ok

    # ddmin over a list of lines (complements only, as in Zeller's ddmin).
    def ddmin_lines(self, text):
        lines = text.split("\n")
        n = 2
        while len(lines) >= 2 and not self.exhausted():
            size = max(1, (len(lines) + n - 1) // n)
            reduced = False
            for start in range(0, len(lines), size):
                cand = lines[:start] + lines[start + size:]
                if cand and self.test("\n".join(cand)):
                    lines = cand
                    n = max(n - 1, 2)
                    reduced = True
                    break
            if not reduced:
                if size == 1:
                    break
                n = min(len(lines), n * 2)
        return "\n".join(lines)

    def remove_blocks(self, text):
        """Hierarchical step: deletes whole ops with regions (functions,
        kernels, loops), or only their bodies, largest first."""
        tried = set()
        while not self.exhausted():
            lines = text.split("\n")
            spans = _region_spans(lines)
            cands = []
            for a, b in spans:
                cands.append(lines[:a] + lines[b + 1:])
                if b - a > 1:
                    cands.append(lines[:a + 1] + lines[b:])
            cands = [c for c in cands if "\n".join(c) not in tried]
            cands.sort(key=len)
            for cand in cands:
                t = "\n".join(cand)
                tried.add(t)
                if self.test(t):
                    text = t
                    break
            else:
                return text
        return text

    def shrink_tokens(self, text):
        changed = True
        while changed and not self.exhausted():
            changed = False
            # Removable units: attribute dicts, flags, memory spaces, layouts.
            for rx in REMOVABLE_RE:
                pos = 0
                while not self.exhausted():
                    m = rx.search(text, pos)
                    if not m:
                        break
                    cand = text[:m.start()] + text[m.end():]
                    if self.test(cand):
                        text, changed = cand, True
                        pos = m.start()
                    else:
                        pos = m.end()
            # Function arguments, one at a time.
            for start, end in reversed(list(_func_args(text))):
                if self.exhausted():
                    break
                cand = text[:start] + text[end:]
                if self.test(cand):
                    text, changed = cand, True
            # Integer literals: try 0 and 1.
            pos = 0
            while not self.exhausted():
                m = INT_RE.search(text, pos)
                if not m:
                    break
                done = False
                for v in ("0", "1"):
                    if m.group() in ("0", "1") and int(v) >= int(m.group()):
                        continue
                    cand = text[:m.start()] + v + text[m.end():]
                    if self.test(cand):
                        text, changed, done = cand, True, True
                        pos = m.start() + len(v)
                        break
                if not done:
                    pos = m.end()
            # Single whitespace-separated tokens.
            spans = [m.span() for m in re.finditer(r"[^\s]+", text)]
            for start, end in reversed(spans):
                if self.exhausted():
                    break
                cand = text[:start] + text[end:]
                if cand != text and self.test(cand):
                    text, changed = cand, True
        return text

    def run(self, text):
        if not self.test(text):
            return text, False
        text = self.remove_blocks(text)
        text = self.ddmin_lines(text)
        text = self.shrink_tokens(text)
        text = self.ddmin_lines(text)
        tidy = re.sub(r"[ \t]+\n", "\n", text)
        tidy = re.sub(r"\n{3,}", "\n\n", tidy).strip("\n") + "\n"
        if tidy != text and self.test(tidy):
            text = tidy
        return text, True
