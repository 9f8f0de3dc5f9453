#!/usr/bin/python3
"""newman parity harness (issue 48): runs each of newman's own integration
collections (../shared/newman-fixtures, or --fixtures DIR) with newman and with
stampede-cli against the same local server (echo_server.py, standing in for
postman-echo.com), and compares them test for test: each request's assertions
(name and verdict, in order) and the exit code (0 or not). Prints a line per
collection and the count that match; --verbose prints where they differ.

  tests/newman/compare.py --cli build/dev/app/cli/stampede-cli --newman PATH/TO/newman

newman is a test peer only (npm install newman); it is never a dependency of
Stampede. make check runs it as the ctest entry newman_parity (--install-peer
DIR: newman installed there with npm when it is not yet; --min-same N: exit 1
when fewer collections behave the same, or when the fixtures or newman cannot be
had: a missing peer fails, it is not a skip)."""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))


def start_echo():
    p = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "echo_server.py")], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    port = int(p.stdout.readline())
    return p, port


def localize(text, base):
    text = re.sub(r"https?://postman-echo\.com", base, text)
    text = re.sub(r"(?<![\w.])postman-echo\.com", base[len("http://"):], text)  # a URL without its scheme
    try:  # a URL as parts (newman sends to its host and port, not its raw text)
        tree = json.loads(text)
    except ValueError:
        return text
    host, port = base[len("http://"):].split(":")

    def walk(v):
        if isinstance(v, dict):
            if v.get("host") == ["postman-echo", "com"]:
                v["host"], v["port"], v["protocol"] = host.split("."), port, "http"
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(tree)
    return json.dumps(tree, indent=1, ensure_ascii=False)


def fixtures(root):
    """(name, collection, environment, globals, data) for each collection."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "**", "*.postman_collection.json"), recursive=True)):
        folder = os.path.dirname(path)
        stem = os.path.basename(path)[: -len(".postman_collection.json")]
        found = {}
        for kind, pattern in (("env", "*.postman_environment.json"), ("globals", "*.postman_globals.json"),
                              ("data", "*.postman_data.*")):
            matches = sorted(glob.glob(os.path.join(folder, pattern))) if folder != root else []
            same = [m for m in matches if os.path.basename(m).startswith(stem)]
            found[kind] = (same or matches or [None])[0]
        out.append((os.path.relpath(path, root), path, found["env"], found["globals"], found["data"]))
    return out


# Test names that hold a value made fresh at each run ({{$guid}}, {{$randomInt}}, {{$timestamp}} in
# super-sandbox-test's): compared without it, as no two runs can give the same.
VOLATILE = re.compile(r"^(Correct (?:GUID|Random|Timestamp): ).*$")


def stable(name):
    return VOLATILE.sub(r"\1(a fresh value)", name)


# Tests whose outcome is the clock's, not the runner's: prototype-check's `Date.now() == (new Date()).getTime()`
# reads the clock twice and fails whenever a millisecond passes between the reads (newman fails it on a busy
# machine). Compared as having run, not by their outcome; a run that failed only them counts as passed.
RACY = {"Date prototype getTime"}


def unclocked(tests):
    return sorted((t[0], t[1], None if t[1] in RACY else t[2]) + tuple(t[3:]) for t in tests)


def exit_without_racy(code, tests):
    failed = [t for t in tests if not t[2]]
    return 0 if code == 1 and failed and all(t[1] in RACY for t in failed) else code


UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def junit_suites(path):
    """A JUnit file as newman writes it: each suite (a request, by its folders and name) with its cases (name,
    failed, the failure's message), in order; None when there is no such file."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    suites = []
    for suite in root.iter("testsuite"):
        cases = []
        for case in suite.iter("testcase"):
            failure = case.find("failure")
            name = stable(case.get("name", ""))
            if name in RACY:  # its outcome is the clock's
                cases.append((name, None, ""))
                continue
            cases.append((name, failure is not None, failure.get("message", "") if failure is not None else ""))
        name = suite.get("name", "")
        if UUID.match(name):  # an unnamed item: newman names it by its id, Stampede's step is "(unnamed)"
            name = "(unnamed)"
        # newman orders a suite's cases as its tests first ran, Stampede its tests named at run time
        # (tests['id ' + id]) after those written out: compared as a set
        failures = suite.get("failures")
        if any(c[1] is None for c in cases):  # counted without the racy cases
            failures = str(sum(1 for c in cases if c[1]))
        suites.append((name, suite.get("tests"), failures, sorted(cases, key=lambda c: (c[0], str(c[1]), c[2]))))
    # newman orders the suites by each request's first execution, Stampede by the collection's order (they
    # differ where postman.setNextRequest jumps back): compared as a set
    return sorted(suites)


def working_dir(work, fixtures, own):
    """A folder where the collections' file fields (src "test/integration/tc4/upload-file.json", as newman's
    own suite names them from its repository's root) are found: test/integration is the fixtures, test/own
    Stampede's own collections. Both tools are given it (newman's --working-dir)."""
    wd = os.path.join(work, "wd")
    os.makedirs(os.path.join(wd, "test"))
    os.symlink(fixtures, os.path.join(wd, "test", "integration"))
    os.symlink(own, os.path.join(wd, "test", "own"))
    return wd


def newman_run(newman, col, env, globs, data, work, wd):
    report = os.path.join(work, "newman.json")
    cmd = [newman, "run", col, "--reporters", "json,junit", "--reporter-json-export", report,
           "--reporter-junit-export", os.path.join(work, "newman.xml"), "--timeout-request", "10000",
           "--working-dir", wd]
    if env:
        cmd += ["-e", env]
    if globs:
        cmd += ["-g", globs]
    if data:
        cmd += ["-d", data]
    # newman is the peer, not what is tested: on a busy machine a run of it once hung past 120 s (form-files); it
    # is tried once more, and a second hang is that collection's difference, said, not a crash of the harness
    for attempt in (1, 2):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            break
        except subprocess.TimeoutExpired:
            print("       newman (the peer) did not end within 120 s on %s (try %d of 2)" % (os.path.basename(col),
                                                                                           attempt))
            if attempt == 2:
                return -1, []
    tests = []
    try:
        run = json.load(open(report))["run"]
        seen = set()
        for e in run["executions"]:
            # an auth helper's replay (Digest's answer to a 401) is the same execution listed twice, under one
            # cursor ref: newman's own count (run.stats.assertions) has its tests once
            ref = e.get("cursor", {}).get("ref")
            if ref is not None and ref in seen:
                continue
            seen.add(ref)
            name = e["item"].get("name", "(unnamed)")  # newman shows none; Stampede's step is "(unnamed)"
            for a in e.get("assertions", []):
                tests.append((name, stable(a["assertion"]), "error" not in a))
    except (OSError, ValueError, KeyError):
        pass
    return p.returncode, tests


def stampede_run(cli, col, env, globs, data, work, wd):
    project = os.path.join(work, "p.stampede")
    imp = subprocess.run([cli, "import", col, "--project", project, "--working-dir", wd], capture_output=True,
                         text=True, timeout=60)
    if imp.returncode != 0:
        return imp.returncode, [], "import: " + imp.stderr.strip()[-300:]
    m = re.search(r'as the collection "([^"]+)"', imp.stdout)
    if not m:
        return 2, [], "import: no collection named in " + imp.stdout.strip()[-200:]
    summary = os.path.join(work, "s.json")
    saved = os.path.join(work, "s.streport")
    cmd = [cli, "run", project + "@" + m.group(1), "-q", "--engines", "1", "--summary-json", summary,
           "--report", saved]
    for flag, f in (("--environment", env), ("--globals", globs), ("--iteration-data", data)):
        if f:
            cmd += [flag, f]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    tests = []
    try:
        s = json.load(open(summary))
        checks = s["total"]["checks"]
        steps = sorted({st["name"] for st in s.get("steps", [])}, key=len, reverse=True)
        for key, c in checks.items():
            # "STEP/TEST", a step's name may hold a "/": the longest step name that starts the key
            step = next((n for n in steps if key.startswith(n + "/")), key.partition("/")[0])
            test = stable(key[len(step) + 1:])
            tests += [(step, test, True)] * c["passed"] + [(step, test, False)] * c["failed"]
    except (OSError, ValueError, KeyError):
        pass
    subprocess.run([cli, "report", "export", saved, "--format", "junit", "-o", os.path.join(work, "stampede.xml")],
                   capture_output=True, timeout=60)
    return r.returncode, tests, r.stderr.strip()[-300:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--newman", required=True)
    ap.add_argument("--fixtures", default=os.path.join(HERE, "..", "..", "..", "shared", "newman-fixtures"))
    ap.add_argument("--own", default=os.path.join(HERE, "collections"),
                    help="Stampede's own collections, run beside the fixtures (chai's messages...)")
    ap.add_argument("--only", help="a substring of the collections to run")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--install-peer", help="a folder to install newman into with npm when --newman is not there")
    ap.add_argument("--min-same", type=int, default=0, help="exit 1 when fewer collections behave the same")
    ap.add_argument("--min-junit-same", type=int, default=0,
                    help="exit 1 when fewer collections' JUnit reports are the same (suites, cases, failures, messages)")
    args = ap.parse_args()
    if not os.path.isdir(args.fixtures):
        print("FAIL: no fixtures at", args.fixtures)
        return 1
    if not os.access(args.newman, os.X_OK) and args.install_peer:
        try:
            subprocess.run(["npm", "install", "--prefix", args.install_peer, "newman@6.2.2", "--no-audit", "--no-fund",
                            "--loglevel=error"], check=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as e:
            print("FAIL: newman could not be installed with npm:", e)
            return 1
    if not os.access(args.newman, os.X_OK):
        print("FAIL: no newman at", args.newman)
        return 1
    echo, port = start_echo()
    base = "http://127.0.0.1:%d" % port
    same = total = junit_same = 0
    try:
        for name, col, env, globs, data in fixtures(os.path.abspath(args.fixtures)) + fixtures(os.path.abspath(args.own)):
            if args.only and args.only not in name:
                continue
            total += 1
            with tempfile.TemporaryDirectory() as work:
                files = []
                for f in (col, env, globs, data):
                    if not f:
                        files.append(None)
                        continue
                    local = os.path.join(work, os.path.basename(f))
                    raw = open(f, "rb").read()
                    try:
                        open(local, "w").write(localize(raw.decode("utf-8-sig"), base))
                    except UnicodeDecodeError:
                        open(local, "wb").write(raw)
                    files.append(local)
                wd = working_dir(work, os.path.abspath(args.fixtures), os.path.abspath(args.own))
                n_code, n_tests = newman_run(args.newman, *files, work, wd)
                s_code, s_tests, why = stampede_run(args.cli, *files, work, wd)
                n_junit = junit_suites(os.path.join(work, "newman.xml"))
                s_junit = junit_suites(os.path.join(work, "stampede.xml"))
            match = (exit_without_racy(n_code, n_tests) == 0) == (exit_without_racy(s_code, s_tests) == 0) and \
                unclocked(n_tests) == unclocked(s_tests)
            same += match
            junit_match = n_junit is not None and n_junit == s_junit
            junit_same += junit_match
            print("%-4s %-62s newman exit %d, %2d tests (%d failed); stampede exit %d, %2d tests (%d failed)%s" % (
                "same" if match else "DIFF", name, n_code, len(n_tests), sum(not t[2] for t in n_tests), s_code,
                len(s_tests), sum(not t[2] for t in s_tests), "" if junit_match else "; JUnit differs"))
            if args.verbose and not junit_match:
                for n, o in zip(n_junit or [], s_junit or []):
                    if n != o:
                        print("       JUnit newman:  ", n)
                        print("       JUnit stampede:", o)
                        break
                if n_junit is None or s_junit is None or len(n_junit) != len(s_junit):
                    print("       JUnit suites: newman %s, stampede %s" % (
                        None if n_junit is None else len(n_junit), None if s_junit is None else len(s_junit)))
            if args.verbose and not match:
                for t in sorted(set(n_tests) ^ set(s_tests)):
                    print("       %s %s" % ("newman only:  " if t in n_tests else "stampede only:", t))
                if why:
                    print("       stampede said:", why.replace("\n", " | ")[:300])
    finally:
        echo.stdin.close()
        echo.wait(5)
    print("%d of %d collections behave the same" % (same, total))
    print("%d of %d collections' JUnit reports are the same" % (junit_same, total))
    if same < args.min_same:
        print("FAIL: at least %d must (docs/collections.md names those that differ and why)" % args.min_same)
        return 1
    if junit_same < args.min_junit_same:
        print("FAIL: at least %d JUnit reports must be the same" % args.min_junit_same)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
