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
    # the demo project keeps its mock's rules and starts the mock when it opens
    PATH="$(cd "$(dirname "$cli")" && pwd):$PATH" exec "$gui" --demo
fi
exec "$cli" run "$demo/scenario.json" --mock "$demo/mock-rules.json"
