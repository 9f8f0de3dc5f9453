#!/usr/bin/env bash
# The main job. With a display: the workbench opens on the demo project, with
# the demo mock server started for it. Without one: the demo scenario runs
# headless against an embedded mock server, and its summary is printed.
set -euo pipefail
cli=${1:-build/dev/app/cli/stampede-cli}
gui=${2:-$(dirname "$cli")/../gui/stampede}
here=$(cd "$(dirname "$0")/.." && pwd)
demo="$here/resources/demo"

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && -x "$gui" ]]; then
    out=$(mktemp)
    "$cli" mock --listen 127.0.0.1:0 --rules "$demo/mock-rules.json" >"$out" &
    mock=$!
    trap 'kill "$mock" 2>/dev/null; rm -f "$out"' EXIT
    for _ in $(seq 50); do
        grep -q "listening on" "$out" && break
        sleep 0.1
    done
    url=$(sed -n 's/^listening on //p' "$out")
    echo "demo mock server at $url"
    "$gui" --demo --mock-url "$url"
    exit 0
fi
exec "$cli" run "$demo/scenario.json" --mock "$demo/mock-rules.json"
