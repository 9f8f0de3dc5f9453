#!/usr/bin/python3
"""Makes the .deb with cpack and checks it as a user's machine would take it:
the files it installs (both programs, the desktop entry, icons of every
hicolor size, the MIME types, man pages, copyright), lintian finds nothing,
the desktop entry is valid, and stampede-cli runs from a scratch root where
the package was unpacked. Usage: check_deb.py BUILD_DIR VERSION"""
import gzip
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

build, version = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "out")
    r = subprocess.run(["cpack", "--config", os.path.join(build, "CPackConfig.cmake"), "-G", "DEB", "-B", out],
                       cwd=build, capture_output=True, text=True, timeout=600)
    check(r.returncode == 0, "cpack failed:\n" + r.stdout + r.stderr)
    debs = [f for f in os.listdir(out) if f.endswith(".deb")] if os.path.isdir(out) else []
    check(debs == [f"stampede_{version}_amd64.deb"], f"the package's name: {debs}")
    if not debs:
        print("\n".join(failures))
        sys.exit(1)
    deb = os.path.join(out, debs[0])

    listing = subprocess.run(["dpkg-deb", "-c", deb], capture_output=True, text=True, check=True).stdout
    files = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    wanted = ["/usr/bin/stampede", "/usr/bin/stampede-cli", "/usr/share/applications/stampede.desktop",
              "/usr/share/mime/packages/stampede.xml", "/usr/share/icons/hicolor/scalable/apps/stampede.svg",
              "/usr/share/man/man1/stampede-cli.1.gz", "/usr/share/man/man1/stampede.1.gz",
              "/usr/share/doc/stampede/copyright", "/usr/share/doc/stampede/changelog.gz"]
    wanted += [f"/usr/share/icons/hicolor/{s}x{s}/apps/stampede.png" for s in (16, 22, 24, 32, 48, 64, 128, 256)]
    for f in wanted:
        check(f in files, f"the package lacks {f}")

    info = subprocess.run(["dpkg-deb", "-I", deb], capture_output=True, text=True, check=True).stdout
    for dep in ("libqt6widgets6", "libgrpc++", "libnghttp2-14", "libsqlite3-0", "libyaml-cpp"):
        check(dep in info, f"Depends lacks {dep}")

    lint = subprocess.run(["lintian", "--fail-on", "none", deb], capture_output=True, text=True, timeout=600)
    findings = [l for l in (lint.stdout + lint.stderr).splitlines()
                if re.match(r"^[EW]: ", l)]
    check(not findings, "lintian:\n" + "\n".join(findings))

    root = os.path.join(tmp, "root")
    subprocess.run(["dpkg-deb", "-x", deb, root], check=True)
    v = subprocess.run([os.path.join(root, "usr/bin/stampede-cli"), "--version"], capture_output=True, text=True)
    check(v.returncode == 0 and v.stdout.strip() == f"stampede-cli {version}",
          f"stampede-cli --version from the unpacked package: {v.returncode} {v.stdout!r} {v.stderr!r}")
    d = subprocess.run(["desktop-file-validate", os.path.join(root, "usr/share/applications/stampede.desktop")],
                       capture_output=True, text=True)
    check(d.returncode == 0 and "error" not in d.stdout, "desktop-file-validate: " + d.stdout + d.stderr)
    entry = open(os.path.join(root, "usr/share/applications/stampede.desktop")).read()
    mime = ET.parse(os.path.join(root, "usr/share/mime/packages/stampede.xml")).getroot()
    ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
    globs = {t.get("type"): [g.get("pattern") for g in t.iter(ns + "glob")] for t in mime.iter(ns + "mime-type")}
    check(globs == {"application/x-stampede-project": ["*.stampede"],
                    "application/x-stampede-bundle": ["*.stbundle"],
                    "application/x-stampede-report": ["*.streport"]}, f"MIME globs: {globs}")
    for t in globs:
        check(t in entry, f"the desktop entry does not open {t}")
    check("Exec=stampede %f" in entry, "the desktop entry passes the file")
    man = gzip.open(os.path.join(root, "usr/share/man/man1/stampede-cli.1.gz"), "rt").read()
    check(".SH NAME" in man and "stampede-cli" in man and "capacity" in man, "the man page is not from --help")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("deb: ok")
