#!/usr/bin/env python3
"""Runs every command of a tutorial's ```sh blocks, as a user would from
the repository root, in a scratch directory that mirrors the root (links
to examples/, runtime/, build/bin and build/lib of this build), and prints
each command and its output for FileCheck.

A command must exit 0, except one with a trailing comment `# fails`
(must exit non-zero) or `# exits N ...` (0 or N accepted). `cc` at the
start of a command is replaced by the test's C compiler (--cc), and the
word `python3` by the test's Python (--python).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys


def commands(text):
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
        line = ""
        for raw in block.splitlines():
            line += raw
            if line.endswith("\\"):
                line = line[:-1] + " "
                continue
            if line.strip():
                yield line.strip()
            line = ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tutorial")
    ap.add_argument("--src", required=True)
    ap.add_argument("--tile-opt", required=True, help="this build's tile-opt")
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--python", default="python3")
    ap.add_argument("--skip-python", action="store_true",
                    help="skip the commands that run Python (sanitizer "
                    "builds: the instrumented runtime cannot load into it)")
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(os.path.join(a.work, "build"), exist_ok=True)
    links = {"examples": os.path.join(a.src, "examples"),
             "runtime": os.path.join(a.src, "runtime"),
             "python": os.path.join(a.src, "python"),
             "build/bin": os.path.dirname(os.path.abspath(a.tile_opt)),
             "build/lib": a.lib}
    for name, target in links.items():
        path = os.path.join(a.work, name)
        if not os.path.lexists(path):
            os.symlink(target, path)
    failed = 0
    text = open(a.tutorial).read()
    for cmd in commands(text):
        if a.skip_python and re.search(r"(^|\s)python3\s", cmd):
            print("$ " + cmd + "\n[skipped: --skip-python]", flush=True)
            continue
        comment = re.search(r"#\s*(fails|exits (\d+))\b", cmd)
        run = re.sub(r"^cc\s", a.cc + " ", cmd)
        run = re.sub(r"(^|\s)python3\s", r"\g<1>" + a.python + " ", run)
        print("$ " + cmd, flush=True)
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", run],
                              cwd=a.work, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        sys.stdout.write(proc.stdout)
        rc = proc.returncode
        if comment and comment.group(1) == "fails":
            ok = rc != 0
        elif comment and comment.group(2):
            ok = rc in (0, int(comment.group(2)))
        else:
            ok = rc == 0
        print("[exit %d%s]" % (rc, "" if ok else ", unexpected"), flush=True)
        failed += not ok
    print("tutorial: %d command(s) failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
