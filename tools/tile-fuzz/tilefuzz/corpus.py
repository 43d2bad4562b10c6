"""Seed corpus: MLIR inputs from the examples and the lit tests.

Each file is split at `// -----` (the -split-input-file separator) and every
comment-only line is dropped (RUN, CHECK, expected-error and prose), as are
trailing `// ...` comments, so that mutations and minimization work on code
only. Chunks are deduplicated by content and ordered by (path, chunk index),
which makes the corpus, and therefore the fuzzing run, deterministic.
"""

import glob
import hashlib
import os
import re

SPLIT_RE = re.compile(r"^\s*//\s*-----\s*$")
COMMENT_LINE_RE = re.compile(r"^\s*//")


class Seed:
    """One corpus entry: `name` is `path` or `path#chunk`."""

    def __init__(self, name, path, text):
        self.name = name
        self.path = path
        self.text = text

    def __repr__(self):
        return "Seed(%r)" % self.name


def strip_trailing_comment(line):
    """Removes a trailing `// ...` comment that is not inside a string."""
    pos = 0
    while True:
        idx = line.find("//", pos)
        if idx < 0:
            return line
        if line.count('"', 0, idx) % 2 == 0:
            return line[:idx].rstrip()
        pos = idx + 2


def clean_chunk(lines):
    out = []
    for line in lines:
        if COMMENT_LINE_RE.match(line):
            continue
        out.append(strip_trailing_comment(line.rstrip("\n")).rstrip())
    # Collapse runs of blank lines, drop leading/trailing ones.
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n")
    return text + "\n" if text.strip() else ""


def split_file(text):
    chunks, cur = [], []
    for line in text.splitlines():
        if SPLIT_RE.match(line):
            chunks.append(cur)
            cur = []
        else:
            cur.append(line)
    chunks.append(cur)
    return chunks


def default_corpus_paths(root):
    """examples/*.mlir and every test/**/*.mlir input (Fuzz/ excluded)."""
    paths = sorted(glob.glob(os.path.join(root, "examples", "*.mlir")))
    for p in sorted(glob.glob(os.path.join(root, "test", "**", "*.mlir"),
                              recursive=True)):
        rel = os.path.relpath(p, root)
        if rel.startswith(os.path.join("test", "Fuzz")):
            continue
        paths.append(p)
    return paths


def expand_paths(args, root):
    """Files, directories (searched for *.mlir) and globs, sorted, unique."""
    out = []
    for a in args:
        if os.path.isdir(a):
            out += sorted(glob.glob(os.path.join(a, "**", "*.mlir"),
                                    recursive=True))
        elif any(c in a for c in "*?["):
            out += sorted(glob.glob(a, recursive=True))
        else:
            out.append(a)
    seen, res = set(), []
    for p in out:
        if p not in seen:
            seen.add(p)
            res.append(p)
    return res


def load_corpus(paths, root):
    """Returns the list of Seeds of `paths`, deduplicated by content."""
    seeds, seen = [], set()
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        rel = os.path.relpath(path, root) if os.path.isabs(path) else path
        if rel.startswith(".."):
            rel = path
        chunks = split_file(text)
        for i, chunk in enumerate(chunks):
            body = clean_chunk(chunk)
            if not body:
                continue
            digest = hashlib.sha1(body.encode()).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            name = rel if len(chunks) == 1 else "%s#%d" % (rel, i)
            seeds.append(Seed(name, rel, body))
    return seeds


def group_by_file(seeds):
    """Seeds grouped per source file, in order: inputs pick a file first, so
    that one file with many small chunks (invalid.mlir) does not dominate."""
    groups, index = [], {}
    for s in seeds:
        if s.path not in index:
            index[s.path] = len(groups)
            groups.append([])
        groups[index[s.path]].append(s)
    return groups


FEATURE_RE = re.compile(r"tile\.pipe\.|tile\.copy async (?:in_bounds )?tma|"
                        r"tile\.(?:pingpong|warp_specialize|blocks_per_sm|launch_group|"
                        r"persistent|exact_stages|tma_store)|tile\.kernel [^\n]*#tile\.target")


def feature_groups(seeds, n_groups, share=0.25):
    """Extra groups (copies of one group) holding the inputs with the
    features of issues 24 to 26 (pipes and hand-offs, tensor copies and
    stores, kernel attributes, kernel targets), so that about `share` of
    the inputs start from one of them although few files have them."""
    chosen = [s for s in seeds if FEATURE_RE.search(s.text)]
    if not chosen:
        return []
    copies = max(1, int(round(n_groups * share / (1 - share))))
    return [chosen] * copies


def corpus_digest(seeds):
    h = hashlib.sha1()
    for s in seeds:
        h.update(s.name.encode() + b"\0" + s.text.encode() + b"\0")
    return h.hexdigest()[:12]
