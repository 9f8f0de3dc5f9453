#!/bin/sh
# Installs the agent's runtime libraries (and nothing else) into a Debian 12
# system: the container image runs it, and so can a debootstrap tree.
set -eu
here=$(dirname "$0")
packages=$(grep -v '^#' "$here/runtime-packages.txt" | tr '\n' ' ')
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086 # the list is meant to split into words
apt-get install -y -qq --no-install-recommends $packages
rm -rf /var/lib/apt/lists/*
