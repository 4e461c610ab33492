#!/usr/bin/env bash
# Builds grove-zookeeper:latest from Debian's zookeeper package on the local base image.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../image/build-base.sh"
docker build -q -t grove-zookeeper:latest "$here" >/dev/null
echo "built grove-zookeeper:latest"
