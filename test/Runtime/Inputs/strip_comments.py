#!/usr/bin/env python3
"""Prints the C file argv[1] without its comments: string literals and
character constants stay, a block comment leaves its line breaks. For tests
that grep what a program's code names (the compiler's preprocessor would
expand macros and includes, and `-fpreprocessed` is gcc's alone)."""
import re
import sys

TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'",
                   re.S)


def keep(match):
    text = match.group(0)
    if text.startswith("//"):
        return ""
    if text.startswith("/*"):
        return " " + "\n" * text.count("\n")
    return text


with open(sys.argv[1]) as source:
    sys.stdout.write(TOKEN.sub(keep, source.read()))
