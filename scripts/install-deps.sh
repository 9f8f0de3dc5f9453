#!/usr/bin/env bash
# Installs, with apt, only the Debian packages that Stampede needs and that are
# missing. Safe to run again: when everything is present it does nothing.
set -euo pipefail

PACKAGES=(
    # build
    cmake ninja-build ccache pkg-config g++ clang libclang-rt-14-dev clang-format
    # Qt 6.4 (GUI floors and QtTest, the one test framework)
    qt6-base-dev libqt6opengl6-dev qt6-charts-dev libqt6sql6-sqlite
    qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    # engine
    libnghttp2-dev libssl-dev libprotobuf-dev protobuf-compiler libprotoc-dev libmozjs-102-dev
    libgrpc++-dev protobuf-compiler-grpc libsqlite3-dev libsimdjson-dev libpcre2-dev zlib1g-dev libyaml-cpp-dev nlohmann-json3-dev libsnappy-dev libbrotli-dev
    # the modules a Postman script may require (plain JavaScript under /usr/share/nodejs)
    node-lodash node-moment node-uuid node-ajv node-xml2js node-events node-cheerio node-buffer
    # GUI tests and screenshots
    xvfb xauth fonts-noto-cjk
    # packaging: the man page from --help, the .deb checked
    help2man lintian desktop-file-utils
    # the Kubernetes manifests k8s render writes, linted; the agent's entrypoint tried in a namespace of its own
    yamllint iproute2 util-linux
    # independent peers for integration tests and benchmarks
    nginx-light wrk nghttp2-client curl openssl shellcheck python3-yaml python3-kubernetes
    python3-websockets python3-aiohttp
    # the HTML export read and drawn by a real browser (tests/integration/tst_htmlreport)
    chromium
    python3-grpcio python3-protobuf python3-cryptography
    # Digest authentication's peer (mod_auth)
    lighttpd
    # the JUnit export checked against a schema; schedules' units checked by systemd-analyze
    libxml2-utils systemd
    # real metric sources for the guard-rail tests (started on loopback by the tests)
    prometheus prometheus-node-exporter
)
# --bench: the peers only the benchmarks use (make bench-streams: tsung, Erlang's load tool, and its plotting)
if [[ "${1:-}" == "--bench" ]]; then
    PACKAGES+=(tsung)
fi
# npm installs newman, the parity test's peer (tests/newman), into the build tree; Debian's unless some
# nodejs on the machine already brings its own
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

missing=()
for p in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# The nginx package starts a system-wide server on port 80; the project's tests
# start their own instances, so the system one is not needed.
if [[ " ${missing[*]} " == *" nginx-light "* ]] && command -v systemctl >/dev/null 2>&1; then
    $SUDO systemctl disable --now nginx >/dev/null 2>&1 || true
fi
if [[ " ${missing[*]} " == *" lighttpd "* ]] && command -v systemctl >/dev/null 2>&1; then
    $SUDO systemctl disable --now lighttpd >/dev/null 2>&1 || true
fi
# Likewise prometheus and its node exporter start system services; the tests
# start their own on loopback ports with their own configuration.
if [[ " ${missing[*]} " == *" prometheus"* ]] && command -v systemctl >/dev/null 2>&1; then
    $SUDO systemctl disable --now prometheus prometheus-node-exporter >/dev/null 2>&1 || true
fi
