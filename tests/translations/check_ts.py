#!/usr/bin/python3
"""The Chinese translation is complete: no unfinished, obsolete or vanished
entries, and running lupdate over the sources finds no new untranslated text.
Usage: check_ts.py SOURCE_DIR LUPDATE"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

src, lupdate = sys.argv[1], sys.argv[2]
ts = os.path.join(src, "translations", "stampede_zh_CN.ts")


def bad_entries(path):
    text = open(path, encoding="utf-8").read()
    return {kind: len(re.findall(rf'type="{kind}"', text)) for kind in ("unfinished", "obsolete", "vanished")}


failures = []
counts = bad_entries(ts)
for kind, n in counts.items():
    if n:
        failures.append(f"{n} {kind} entries in stampede_zh_CN.ts")
with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "stampede_zh_CN.ts")
    shutil.copy(ts, copy)
    dirs = [os.path.join(src, d) for d in ("widgets", "models", "app/gui")]
    subprocess.run([lupdate, "-silent", *dirs, "-ts", copy], check=True)
    fresh = bad_entries(copy)
    if fresh["unfinished"]:
        failures.append(f"lupdate finds {fresh['unfinished']} strings in the sources with no Chinese translation")
    if fresh["vanished"] or fresh["obsolete"]:
        failures.append("the .ts holds strings the sources no longer use (run lupdate -no-obsolete)")
messages = len(re.findall(r"<message", open(ts, encoding="utf-8").read()))
for f in failures:
    print("FAIL:", f)
print(f"{messages} messages; {3 - len(failures) if len(failures) < 3 else 0} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
