#!/usr/bin/env bash
# Builds grove:VERSION (and grove:latest) from the distribution tarball, on the local base image.
#
#   mvn -q -B -DskipTests package && deploy/image/build.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tarball="$(ls "$root"/dist/target/grove-*.tar.gz 2>/dev/null | head -n 1 || true)"
if [ -z "$tarball" ]; then
  echo "build.sh: no dist/target/grove-*.tar.gz; build it first: mvn -q -B -DskipTests package" >&2
  exit 2
fi
version="$(basename "$tarball" .tar.gz)"
version="${version#grove-}"
"$here/build-base.sh"
context="$(mktemp -d /tmp/grove-image.XXXXXX)"
trap 'rm -rf "$context"' EXIT
cp "$here/Dockerfile" "$tarball" "$context/"
docker build -q --build-arg VERSION="$version" -t "grove:$version" -t grove:latest "$context" >/dev/null
echo "built grove:$version"
