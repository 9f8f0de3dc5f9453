#!/usr/bin/env bash
# The main job. With a display the GUI opens on the demo project (once the
# workbench has landed); without one, the demo scenario runs headless against
# an embedded mock server started for it, and its summary is printed.
set -euo pipefail
cli=${1:-build/dev/app/cli/stampede-cli}
here=$(cd "$(dirname "$0")/.." && pwd)
demo="$here/resources/demo"
exec "$cli" run "$demo/scenario.json" --mock "$demo/mock-rules.json"
