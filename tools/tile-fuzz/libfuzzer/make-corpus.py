#!/usr/bin/env python3
"""Writes the seed corpus of tile-capi-fuzzer and tile-pass-fuzzer (docs/fuzzing.md).

  python3 tools/tile-fuzz/libfuzzer/make-corpus.py OUTDIR [--selectors 0123|auto|spread]

The inputs are those of the mutation fuzzer: examples/*.mlir and every
test/**/*.mlir (not test/Fuzz/), split at `// -----`, without comment lines,
deduplicated. Each chunk is written once per selector byte (the first byte
of a fuzzer input picks the pipeline: 0 parse/print/C header, 1 tile-to-nvvm
sm_80, 2 tile-to-nvvm sm_90a, 3 tile-to-rocdl gfx942), as
OUTDIR/<selector>-<sha1 of the chunk>. `--selectors auto` writes each chunk
once, with the pipeline its text is for (a gfx target: 3; sm_80: 1; sm_90a
or its features: 2; else the digest picks one of the four): a quarter of
the files, which libFuzzer loads four times faster (it mutates the first
byte too). `--selectors spread` (for tile-pass-fuzzer, whose selector byte
picks one of about 60 pass and prefix combinations) writes each chunk once,
with a selector byte 0-255 taken from its digest, as
OUTDIR/s<byte>-<sha1 of the chunk>. `--limit N` keeps N chunks, taken in
turn from each source file (in the order of their digests): a seed corpus
that a slow target loads in bounded time (CI's tile-capi-fuzzer run).
"""

import argparse
import hashlib
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

from tilefuzz import corpus  # noqa: E402


def auto_selector(text, digest):
    if "gfx9" in text:
        return "3"
    if "sm_80" in text:
        return "1"
    if "sm_90" in text or "tma" in text or "tile.pipe" in text or "tile.ws" in text:
        return "2"
    return str(int(digest, 16) % 4)


def limit_seeds(seeds, limit):
    """`limit` seeds, one of each file in turn (in digest order)."""
    by_file = {}
    for s in seeds:
        by_file.setdefault(s.path, []).append(s)
    queues = [sorted(v, key=lambda s: hashlib.sha1(s.text.encode()).hexdigest())
              for _, v in sorted(by_file.items())]
    kept = []
    while len(kept) < limit:
        for q in queues:
            if q and len(kept) < limit:
                kept.append(q.pop(0))
    return kept


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--selectors", default="0123",
                    help="selector bytes to write each chunk with (digits 0-3), "
                         "'auto' or 'spread'")
    ap.add_argument("--corpus", nargs="+", default=None,
                    help="files, directories or globs (default: the tests and examples)")
    ap.add_argument("--limit", type=int, default=None,
                    help="keep this many chunks, taken in turn from each file")
    a = ap.parse_args(argv)
    paths = (corpus.expand_paths(a.corpus, ROOT) if a.corpus
             else corpus.default_corpus_paths(ROOT))
    seeds = corpus.load_corpus(paths, ROOT)
    if a.limit is not None and a.limit < len(seeds):
        seeds = limit_seeds(seeds, a.limit)
    os.makedirs(a.out, exist_ok=True)
    n = 0
    for s in seeds:
        body = s.text.encode()
        digest = hashlib.sha1(body).hexdigest()[:16]
        if a.selectors == "spread":
            byte = int(digest, 16) % 256
            with open(os.path.join(a.out, "s%d-%s" % (byte, digest)), "wb") as f:
                f.write(bytes([byte]) + body)
            n += 1
            continue
        for sel in (auto_selector(s.text, digest) if a.selectors == "auto"
                    else a.selectors):
            with open(os.path.join(a.out, "%s-%s" % (sel, digest)), "wb") as f:
                f.write(bytes([int(sel)]) + body)
            n += 1
    print("make-corpus: %d files (%d chunks of %d source files) in %s" % (
        n, len(seeds), len(set(s.path for s in seeds)), a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
