#!/usr/bin/python3
"""Makes the .deb with cpack and checks it as a user's machine would take it:
the files it installs (both programs, the desktop entry, icons of every
hicolor size, the MIME types, man pages, copyright), lintian finds nothing,
the desktop entry is valid, and stampede-cli runs from a scratch root where
the package was unpacked. Usage: check_deb.py BUILD_DIR VERSION"""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import shlex
import shutil
import xml.etree.ElementTree as ET

build, version = sys.argv[1], sys.argv[2]
source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def agent_user_check(tmp, root, ctrl):
    """In a namespace of its own (mounts and network: the machine's /etc, /var and ports untouched): the postinst,
    twice, on a copy of /etc; then the image's entrypoint (packaging/agent/Dockerfile.deb) as user 10001 on a
    read-only root, its token and TLS files where the manifests mount them; it must answer /healthz."""
    etc, varlib, certs = os.path.join(tmp, "etc"), os.path.join(tmp, "varlib"), os.path.join(tmp, "certs")
    os.chmod(tmp, 0o755)  # user 10001 reaches the unpacked program
    subprocess.run(["cp", "-a", "/etc", etc], check=True)
    subprocess.run(["cp", "-a", "/etc", etc + "2"], check=True)
    units = os.path.join(tmp, "units")  # the system's units and the package's, as dpkg would leave them
    subprocess.run(["cp", "-a", "/lib/systemd/system", units], check=True)
    shutil.copy(os.path.join(root, "lib/systemd/system/stampede-agent.service"), units)
    os.makedirs(varlib)
    subprocess.run([os.path.join(source, "scripts", "make-agent-certs.sh"), "default", certs], check=True,
                   capture_output=True)
    dockerfile = open(os.path.join(source, "packaging", "agent", "Dockerfile.deb")).read()
    entry = json.loads(re.search(r"^ENTRYPOINT (\[.*?\])$", dockerfile, re.M | re.S).group(1).replace("\\\n", ""))
    entry[0] = os.path.join(root, "usr/bin/stampede-cli")  # the unpacked program where the image has it
    script = f"""set -e
mount --bind {etc} /etc
mount --bind {varlib} /var/lib/systemd 2>/dev/null || true
mount --bind {units} /lib/systemd/system
export DPKG_MAINTSCRIPT_PACKAGE=stampede DPKG_MAINTSCRIPT_NAME=postinst
sh {ctrl}/postinst configure
sh {ctrl}/postinst configure
getent passwd stampede | cut -d: -f7
stat -c '%G %a' /etc/stampede
test ! -e /etc/systemd/system/multi-user.target.wants/stampede-agent.service  # installed, not enabled
umount /etc
mount --bind {etc}2 /etc
# the image's steps (packaging/agent/Dockerfile.deb): its numeric user first, then the package's postinst
groupadd --system --gid 10001 stampede
useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin stampede
sh {ctrl}/postinst configure
mkdir -p /etc/stampede/token /etc/stampede/tls
cp {certs}/token /etc/stampede/token/token
cp {certs}/agent.crt /etc/stampede/tls/tls.crt
cp {certs}/agent.key /etc/stampede/tls/tls.key
chown -R root:stampede /etc/stampede/token /etc/stampede/tls
chmod -R g+rX /etc/stampede/token /etc/stampede/tls
ip link set lo up
mkdir -p {tmp}/out
mount -t tmpfs -o size=1m tmpfs {tmp}/out
mount -o remount,bind,ro /
mount -o remount,bind,ro /etc
setpriv --reuid=10001 --regid=10001 --clear-groups --no-new-privs {' '.join(shlex.quote(a) for a in entry)} \
    > {tmp}/out/agent.out 2>&1 &
pid=$!
/usr/bin/python3 -c '
import time, urllib.request
for _ in range(100):
    try:
        print(urllib.request.urlopen("http://127.0.0.1:9464/healthz", timeout=1).status); break
    except Exception:
        time.sleep(0.1)
'
ps -o uid= -p $pid || true
kill $pid || true
cat {tmp}/out/agent.out >&2
"""
    # a network namespace of its own keeps the entrypoint's fixed ports (7070, 9464) off the machine's; where one
    # cannot be made, the machine's loopback (no other test listens there)
    own_net = subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0
    if not own_net:
        script = script.replace("ip link set lo up\n", "")
    r = subprocess.run(["unshare", "-m"] + (["-n"] if own_net else []) + ["--propagation", "private", "sh", "-c",
                                                                          script],
                       capture_output=True, text=True, timeout=120)
    lines = r.stdout.split()
    check(r.returncode == 0, f"the postinst and the agent in a namespace: {r.stdout}{r.stderr}")
    check(lines[:1] == ["/usr/sbin/nologin"], f"the postinst made a system user without a shell: {lines}")
    check(lines[1:3] == ["stampede", "750"], f"/etc/stampede is the stampede group's, 0750: {lines}")
    check("200" in lines, f"the entrypoint as 10001 on a read-only root answers /healthz: {lines} {r.stderr}")
    check(lines[-1:] == ["10001"], f"the agent runs as 10001: {lines}")


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
              "/usr/share/doc/stampede/copyright", "/usr/share/doc/stampede/changelog.gz",
              "/lib/systemd/system/stampede-agent.service"]
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
    # dpkg itself takes it into a fresh root (its own database; the scripts are tried below, in a namespace)
    fresh = os.path.join(tmp, "fresh")
    os.makedirs(os.path.join(fresh, "var/lib/dpkg/info"))
    os.makedirs(os.path.join(fresh, "var/lib/dpkg/updates"))
    open(os.path.join(fresh, "var/lib/dpkg/status"), "w").close()
    u = subprocess.run(["dpkg", "--root=" + fresh, "--force-depends", "--force-script-chrootless", "--unpack", deb],
                       capture_output=True, text=True, timeout=300)
    check(u.returncode == 0 and os.path.exists(os.path.join(fresh, "lib/systemd/system/stampede-agent.service")),
          f"dpkg --root --unpack: {u.stdout}{u.stderr}")
    listed = subprocess.run(["dpkg", "--root=" + fresh, "-L", "stampede"], capture_output=True, text=True).stdout
    check("/usr/bin/stampede-cli" in listed and "/lib/systemd/system/stampede-agent.service" in listed,
          "dpkg lists the package's files in the fresh root")
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

    # the agent as a service: the unit verified by systemd, the maintainer scripts make its user
    unit = os.path.join(root, "lib/systemd/system/stampede-agent.service")
    text = open(unit).read()
    local = os.path.join(tmp, "stampede-agent.service")  # its ExecStart pointed at the unpacked program
    with open(local, "w") as f:
        f.write(text.replace("ExecStart=/usr/bin/stampede-cli", "ExecStart=" + os.path.join(root, "usr/bin/stampede-cli")))
    va = subprocess.run(["systemd-analyze", "verify", "--man=no", local], capture_output=True, text=True)
    check(va.returncode == 0 and not va.stderr.strip(), f"systemd-analyze verify: {va.stdout}{va.stderr}")
    check("User=stampede" in text, "the unit runs as the stampede user")
    ctrl = os.path.join(tmp, "control")
    subprocess.run(["dpkg-deb", "-e", deb, ctrl], check=True)
    for script in ("postinst", "prerm", "postrm"):
        path = os.path.join(ctrl, script)
        check(os.path.exists(path) and os.access(path, os.X_OK), f"the package's {script}")
    check("adduser" in info and "init-system-helpers" in info, "Depends names adduser and init-system-helpers")
    # failed, not skipped: a check that cannot run here did not pass
    check(os.geteuid() == 0, "the postinst and the agent as its user need root: run the suite as root, as CI does")
    check(shutil.which("unshare") and shutil.which("setpriv") and shutil.which("ip"),
          "unshare, setpriv and ip are missing (scripts/install-deps.sh installs util-linux and iproute2)")
    if os.geteuid() == 0 and shutil.which("unshare") and shutil.which("setpriv"):
        agent_user_check(tmp, root, ctrl)
    man = gzip.open(os.path.join(root, "usr/share/man/man1/stampede-cli.1.gz"), "rt").read()
    check(".SH NAME" in man and "stampede-cli" in man and "capacity" in man, "the man page is not from --help")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("deb: ok")
