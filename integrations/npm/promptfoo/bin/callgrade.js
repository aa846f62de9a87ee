#!/usr/bin/env node
'use strict';
// npx callgrade ...: runs this platform's callgrade binary with the arguments given.
const { spawnSync } = require('node:child_process');
const { binaryPath } = require('..');

let bin;
try {
  bin = binaryPath();
} catch (err) {
  console.error(`callgrade: ${err.message}`);
  process.exit(2);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit' });
if (r.error) {
  console.error(`callgrade: could not run ${bin}: ${r.error.message}`);
  process.exit(2);
}
if (r.signal) process.kill(process.pid, r.signal);
process.exit(r.status);
