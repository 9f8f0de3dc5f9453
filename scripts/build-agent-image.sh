#!/bin/sh
# Builds the agent's container image from the .deb: the package, and what it
# depends on from Debian's archive, on debian:12-slim (no other download).
#
# Usage: scripts/build-agent-image.sh [DEB] [TAG]
#   DEB  the package (default: made now with `cpack -G DEB` in build/release)
#   TAG  the image's name (default stampede-agent:VERSION, what k8s render uses)
# Then push it where the cluster pulls from, and render with that name:
#   docker tag stampede-agent:VERSION registry.example.com/stampede-agent:VERSION
#   docker push registry.example.com/stampede-agent:VERSION
#   stampede-cli k8s render scenario.stbundle --agents 50 --image registry.example.com/stampede-agent:VERSION
# $DOCKER may name another builder with docker's command line (podman).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(Stampede VERSION \([0-9.]*\).*/\1/p' "$here/CMakeLists.txt")
deb=${1:-}
tag=${2:-stampede-agent:$version}
docker=${DOCKER:-docker}
if [ -z "$deb" ]; then
    (cd "$here" && make build PRESET=release >/dev/null)
    (cd "$here/build/release" && cpack -G DEB >/dev/null)
    deb="$here/build/release/stampede_${version}_amd64.deb"
fi
if [ ! -f "$deb" ]; then
    echo "$0: no package at $deb" >&2
    exit 2
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$deb" "$context/stampede.deb"
cp "$here/packaging/agent/Dockerfile.deb" "$context/Dockerfile"
"$docker" build --build-arg DEB=stampede.deb -t "$tag" "$context"
echo "built $tag from $(basename "$deb")"
