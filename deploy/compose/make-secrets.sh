#!/usr/bin/env bash
# Makes the secrets the compose files mount: a random node token, a tokens file with one admin
# user ("admin", group ops) whose token is printed, the accounting database's password, and the
# schedulers' ZooKeeper identity (zookeeper-auth, 0600). Run once before `docker compose up`.
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)/secrets"
mkdir -p "$dir"
chmod 700 "$dir"
random() { head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
if [ ! -f "$dir/node-token" ]; then
  random > "$dir/node-token"
fi
if [ ! -f "$dir/tokens.yaml" ]; then
  token="$(random)"
  printf 'tokens:\n  - {token: %s, user: admin, groups: [ops]}\n' "$token" > "$dir/tokens.yaml"
  echo "admin token: $token   (export GROVE_TOKEN=$token)"
fi
if [ ! -f "$dir/accounting-password" ]; then
  random > "$dir/accounting-password"
fi
if [ ! -f "$dir/zookeeper-auth" ]; then
  printf 'grove:%s\n' "$(random)" > "$dir/zookeeper-auth"
fi
chmod 644 "$dir/node-token" "$dir/tokens.yaml" "$dir/accounting-password"
# the group's ZooKeeper password: the scheduler refuses a file others may read
chmod 600 "$dir/zookeeper-auth"
echo "secrets in $dir"
