#!/usr/bin/env bash
# CI: the npm packages (integrations/npm). The test builds @callgrade/promptfoo
# and the host's platform package with the repository's Go, installs them
# into a temporary project as a user would, beside promptfoo 0.121.x as
# integrations/npm/package-lock.json pins it (npm ci), and runs promptfoo's
# eval with its echo provider. Needs node 20 and npm; the registry, or an npm
# cache that holds the locked packages, for promptfoo. Writes nothing into
# the checkout. Exit status non-zero when a test fails; node's test runner
# prints the counts (# pass N, # fail N).
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in go node npm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "npm.sh: $tool is not installed"; exit 2; }
done
echo "== npm packages: node $(node --version), npm $(npm --version), $(go version)"
node --test --test-reporter=spec integrations/npm/test/
