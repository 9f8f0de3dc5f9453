#!/usr/bin/python3
"""The guide cannot drift from the program (issue 49): every `stampede-cli` command shown in README.md and
docs/*.md names a command the program has, and each --option it uses is one that command's --help lists;
(in a block or inline); every scenario file shown whole (a JSON block with "steps") compiles, as `stampede-cli bundle` compiles it,
beside the demo's files (users.csv, shop.proto). Prints what drifted, with the file and line; exit 1 then.

  tests/docs/check_docs.py --cli build/dev/app/cli/stampede-cli --source .
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def blocks(path):
    """(first line number, language, lines) of each fenced block."""
    out, inside, lang, start, body = [], False, "", 0, []
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("```"):
            if inside:
                out.append((start, lang, body))
                inside, body = False, []
            else:
                inside, lang, start = True, line[3:].strip(), n + 1
            continue
        if inside:
            body.append(line)
    return out


def commands(lines, first):
    """(line number, text) of each stampede-cli command, continuation lines joined, comments dropped."""
    out, text, at = [], "", 0
    for n, line in enumerate(lines, first):
        code = re.sub(r"\s+#\s.*$", "", line)
        if not text:
            at = n
        text += " " + code.strip()
        if code.rstrip().endswith("\\"):
            text = text.rstrip("\\ ")
            continue
        if re.match(r"^\s*(\$\s+)?(sudo\s+)?stampede-cli\s", text):
            out.append((at, text.strip()))
        text = ""
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    top = subprocess.run([args.cli, "--help"], capture_output=True, text=True, timeout=30).stdout
    known = set(re.findall(r"^  ([a-z][a-z0-9-]*)\s{2,}", top, re.M))
    if "run" not in known:
        print("FAIL: cannot read the commands from stampede-cli --help")
        return 1
    helps = {}
    files = [os.path.join(args.source, "README.md")] + sorted(glob.glob(os.path.join(args.source, "docs", "*.md")))
    faults, checked, scenarios = [], 0, 0
    work = tempfile.mkdtemp()
    try:
        for f in ("users.csv", "shop.proto", "mock-rules.json"):
            shutil.copy(os.path.join(args.source, "resources", "demo", f), work)
        for path in files:
            name = os.path.relpath(path, args.source)
            text_lines = open(path, encoding="utf-8").read().split("\n")
            inline = []  # `stampede-cli ...` in the prose, outside the blocks
            fence = False
            for n, line in enumerate(text_lines, 1):
                if line.startswith("```"):
                    fence = not fence
                elif not fence:
                    inline += [(n, m) for m in re.findall(r"`(stampede-cli [^`]+)`", line)]
            for first, lang, lines in blocks(path) + [(n, "inline", [t]) for n, t in inline]:
                if lang == "inline":
                    lang = ""
                if lang in ("", "sh", "bash", "shell", "console"):
                    for at, text in commands(lines, first):
                        words = re.sub(r"^\s*(\$\s+)?(sudo\s+)?stampede-cli\s+", "", text).split()
                        command = words[0].strip("[]|") if words else ""
                        if command.startswith("-"):
                            continue  # stampede-cli --help, --version
                        checked += 1
                        if command not in known:
                            faults.append("%s:%d: \"%s\" is not a command of stampede-cli" % (name, at, command))
                            continue
                        if command not in helps:
                            helps[command] = subprocess.run([args.cli, command, "--help"], capture_output=True,
                                                            text=True, timeout=30).stdout
                        for option in sorted(set(OPTION.findall(text))):
                            if not re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", helps[command]):
                                faults.append("%s:%d: stampede-cli %s has no option %s" % (name, at, command, option))
                elif lang == "json":
                    try:
                        doc = json.loads("\n".join(lines))
                    except ValueError:
                        continue  # a fragment (a step, a rule): read in the text around it
                    if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list) or "run_id" in doc:
                        continue  # not a scenario (a summary's shape has steps too)
                    scenarios += 1
                    scenario = os.path.join(work, "s%d.json" % scenarios)
                    json.dump(doc, open(scenario, "w"))
                    r = subprocess.run([args.cli, "bundle", scenario, "-o", scenario + ".stbundle"],
                                       capture_output=True, text=True, timeout=60)
                    if r.returncode != 0:
                        faults.append("%s:%d: the scenario does not compile: %s" % (name, first,
                                                                                  r.stderr.strip()[:300]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for fault in faults:
        print("FAIL:", fault)
    print("%d commands and %d scenario files checked in %d files; %d drifted" % (checked, scenarios, len(files),
                                                                                   len(faults)))
    if checked < 20:
        print("FAIL: fewer than 20 commands found: the guide's blocks were not read")
        return 1
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
