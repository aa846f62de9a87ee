'use strict';
// @callgrade/promptfoo: a promptfoo javascript assertion that scores a
// model's tool calls with callgrade (docs/promptfoo.md).
//
//   assert:
//     - type: javascript
//       value: package:@callgrade/promptfoo:assert
//       config: {expected: [...], rules: {...}}
//
// The binary comes from the platform package (@callgrade/linux-x64, ...),
// an optional dependency of this one, found with require.resolve as esbuild
// finds its own. One `callgrade serve` per process scores every assertion:
// it listens on 127.0.0.1 on a port of its own choosing, takes a random
// token, and stops when this process ends (on POSIX a /bin/sh watchdog
// reading this process's pipe kills it when the pipe closes, so that it
// does not outlive a promptfoo killed by a signal).

const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const http = require('node:http');
const path = require('node:path');

const VERSION = require('./package.json').version;

// process.platform and process.arch to the package that holds the binary.
const PLATFORMS = {
  'linux x64': '@callgrade/linux-x64',
  'linux arm64': '@callgrade/linux-arm64',
  'darwin x64': '@callgrade/darwin-x64',
  'darwin arm64': '@callgrade/darwin-arm64',
  'win32 x64': '@callgrade/win32-x64',
  'win32 arm64': '@callgrade/win32-arm64',
};

// The keys of an inline case (docs/suite.md) that a config may give, and
// `rules`, which applies to every expected call (a call's own rule for the
// same path wins), as defaults.rules does in a suite.
const CASE_KEYS = ['expected', 'rules', 'alternatives', 'steps', 'never', 'max_calls', 'final',
  'tools', 'calls', 'extra_fields', 'null_is_missing', 'format'];

function platformPackage() {
  return PLATFORMS[`${process.platform} ${process.arch}`];
}

// binaryPath returns the path of the callgrade binary of this platform's
// package, or throws an error that names the package to install.
function binaryPath() {
  const pkg = platformPackage();
  if (!pkg) {
    throw new Error(`@callgrade/promptfoo has no callgrade binary for ${process.platform} ${process.arch}; ` +
      `the platforms are ${Object.keys(PLATFORMS).join(', ')}`);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`the callgrade binary for ${process.platform} ${process.arch} is in the package ${pkg}, ` +
      `which is not installed (npm omits optional dependencies with --omit=optional or --no-optional); ` +
      `install it beside @callgrade/promptfoo: npm install ${pkg}@${VERSION}`);
  }
  return path.join(dir, 'bin', process.platform === 'win32' ? 'callgrade.exe' : 'callgrade');
}

// The watchdog: runs "$@" (callgrade serve ...) in the background, prints
// its pid, reads standard input (this process's pipe) to its end and then
// stops callgrade. SIGINT is ignored so that a Ctrl-C that promptfoo
// handles does not take the scorer away from assertions still running;
// when promptfoo does exit, the pipe closes.
const WATCHDOG = 'trap "" INT; "$@" & pid=$!; echo "callgrade-pid=$pid" >&2; ' +
  'while read -r _; do :; done; kill "$pid" 2>/dev/null; wait "$pid"';

const START_TIMEOUT_MS = 20000;
const REQUEST_TIMEOUT_MS = 120000;

function startScorer(onExit) {
  return new Promise((resolve, reject) => {
    const bin = binaryPath();
    const token = crypto.randomBytes(24).toString('hex');
    const args = ['serve', '--suite', path.join(__dirname, 'suite.yaml'), '--addr', '127.0.0.1:0'];
    // The token goes in the environment: a command line is visible to every user.
    const env = { ...process.env, CALLGRADE_TOKEN: token };
    const child = process.platform === 'win32'
      ? spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], env, windowsHide: true })
      : spawn('/bin/sh', ['-c', WATCHDOG, 'callgrade-watchdog', bin, ...args], { stdio: ['pipe', 'ignore', 'pipe'], env });
    let stderr = '';
    let pid = process.platform === 'win32' ? child.pid : undefined;
    let started = false;
    const timer = setTimeout(() => fail(`callgrade serve did not start within ${START_TIMEOUT_MS / 1000}s`), START_TIMEOUT_MS);
    timer.unref();
    function fail(msg) {
      if (started) return;
      started = true;
      clearTimeout(timer);
      // Closing the pipe has the watchdog stop callgrade; killing the
      // watchdog would leave callgrade running.
      if (child.stdin) child.stdin.destroy();
      else child.kill();
      reject(new Error(`${msg}${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
    }
    child.on('error', (err) => fail(`could not run ${bin}: ${err.message}`));
    child.on('exit', (code, signal) => {
      onExit(); // the next assertion starts another
      fail(`callgrade serve exited (${signal || `status ${code}`})`);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      // Keep reading, so that callgrade never blocks on a full pipe; keep the end for errors.
      stderr = (stderr + chunk).slice(-8192);
      if (started) return;
      const p = /callgrade-pid=(\d+)/.exec(stderr);
      if (p) pid = Number(p[1]);
      const m = /msg=serving addr=(http:\/\/\S+)/.exec(stderr);
      if (m && pid) {
        started = true;
        clearTimeout(timer);
        // From now on none of the child's handles keep promptfoo's event
        // loop alive: a request in flight does, and the eval's own work.
        child.unref();
        child.stderr.unref();
        if (child.stdin) child.stdin.unref();
        // retire forgets this scorer when it stops answering (callgrade
        // gone while the watchdog still waits on the pipe): the watchdog
        // is told to end, and the next assertion starts another scorer.
        resolve(new Scorer(m[1], token, pid, () => {
          onExit();
          if (child.stdin) child.stdin.destroy();
          else child.kill();
        }));
      }
    });
  });
}

class Scorer {
  constructor(addr, token, pid, retire) {
    this.retire = retire;
    this.url = new URL('/v1/score', addr);
    this.token = token;
    this.pid = pid;
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  }

  // score posts one request to /v1/score; it resolves to {status, body}.
  score(request) {
    const data = Buffer.from(JSON.stringify(request));
    return new Promise((resolve, reject) => {
      const req = http.request(this.url, {
        method: 'POST',
        agent: this.agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': data.length,
          Authorization: `Bearer ${this.token}`,
        },
      }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode, body: JSON.parse(text) });
          } catch {
            reject(new Error(`callgrade answered ${res.statusCode}: ${text.slice(0, 500)}`));
          }
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`callgrade did not answer within ${REQUEST_TIMEOUT_MS / 1000}s`)));
      req.on('error', reject);
      req.end(data);
    });
  }
}

// One scorer per process, even when promptfoo loads this module more than
// once (import and require, or a fresh module cache).
const KEY = Symbol.for('@callgrade/promptfoo.scorer');

function scorer() {
  if (!globalThis[KEY]) {
    const p = startScorer(() => {
      if (globalThis[KEY] === p) delete globalThis[KEY];
    });
    globalThis[KEY] = p;
  }
  return globalThis[KEY];
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// withRules gives a call the config's rules under its own.
function withRules(call, rules) {
  if (!isObject(call)) return call;
  return { ...call, rules: { ...rules, ...(isObject(call.rules) ? call.rules : {}) } };
}

// inlineCase turns an assertion's config into an inline case of /v1/score.
function inlineCase(config) {
  if (!isObject(config)) {
    throw new Error('the assertion needs a config with expected (the expected calls), e.g. ' +
      'config: {expected: [{name: get_weather, arguments: {city: Berlin}}]}');
  }
  const unknown = Object.keys(config).filter((k) => !CASE_KEYS.includes(k));
  if (unknown.length) {
    throw new Error(`config: unknown key ${unknown.map((k) => JSON.stringify(k)).join(', ')}; the keys are ${CASE_KEYS.join(', ')}`);
  }
  if (!('expected' in config) && !('steps' in config)) {
    throw new Error('config: expected is missing (write expected: [] for an output that should call no tool)');
  }
  const { rules, ...rest } = config;
  const c = { id: 'promptfoo', ...rest };
  if (rules !== undefined && rules !== null) {
    if (!isObject(rules)) throw new Error('config: rules must be a map of PATH: RULE');
    const apply = (calls) => (Array.isArray(calls) ? calls.map((x) => withRules(x, rules)) : withRules(calls, rules));
    if (c.expected !== undefined) c.expected = apply(c.expected);
    if (Array.isArray(c.alternatives)) c.alternatives = c.alternatives.map(apply);
    if (Array.isArray(c.steps)) c.steps = apply(c.steps);
  }
  return c;
}

// responseOf turns promptfoo's output into a callgrade response: parsed
// tool calls (an object or a list) as they are, text that is JSON as what
// it holds, and any other text as text (a model's raw text, an SSE
// transcript), which callgrade reads by its shape.
function responseOf(output) {
  if (output === undefined) return null;
  if (typeof output !== 'string') return output;
  try {
    return JSON.parse(output);
  } catch {
    return output;
  }
}

function expectedNames(c) {
  const list = c.steps !== undefined ? c.steps : c.expected;
  const calls = Array.isArray(list) ? list : list === undefined || list === null ? [] : [list];
  return calls.map((x) => (isObject(x) && typeof x.name === 'string' ? x.name : undefined));
}

function describeDiff(d, label) {
  const where = [label, d.path].filter((s) => s !== undefined && s !== '').join(' ');
  return where ? `${where}: ${d.message}` : d.message;
}

// gradingResult turns a callgrade result line into promptfoo's GradingResult,
// with one component result per call (a pair of an expected and an actual call).
function gradingResult(result, c, pid) {
  const names = expectedNames(c);
  const calls = Array.isArray(result.calls) ? result.calls : [];
  const diffs = Array.isArray(result.diffs) ? result.diffs : [];
  const labels = calls.map((p, i) => {
    const name = p.expected !== null && p.expected !== undefined ? names[p.expected] : undefined;
    if (name) return name;
    const d = diffs.find((x) => x.call === i && x.actual !== undefined && typeof x.actual === 'string' && x.path === '');
    return d ? d.actual : `call ${i}`;
  });
  const componentResults = calls.map((p, i) => {
    const own = diffs.filter((d) => d.call === i);
    const pairing = `expected call ${p.expected ?? 'none'}, actual call ${p.actual ?? 'none'}`;
    return {
      pass: !!p.pass,
      score: typeof p.score === 'number' ? p.score : 0,
      reason: own.length
        ? `${labels[i]} (${pairing}): ${own.map((d) => describeDiff(d, '')).join('; ')}`
        : `${labels[i]} (${pairing}): matches`,
    };
  });
  let reason;
  if (result.pass) {
    reason = calls.length
      ? `callgrade: ${calls.length === 1 ? 'the call matches' : `all ${calls.length} calls match`}`
      : 'callgrade: no call expected and none made';
  } else {
    const shown = diffs.slice(0, 20).map((d) => describeDiff(d, d.call === null || d.call === undefined ? '' : labels[d.call]));
    const more = diffs.length > shown.length ? `; and ${diffs.length - shown.length} more` : '';
    reason = `callgrade: score ${round(result.score)}: ${shown.join('; ')}${more}`;
  }
  return {
    pass: !!result.pass,
    score: typeof result.score === 'number' ? result.score : 0,
    reason,
    componentResults,
    metadata: { callgrade: result, callgradePid: pid },
  };
}

function round(x) {
  return typeof x === 'number' ? Math.round(x * 1000) / 1000 : x;
}

function failure(message) {
  return { pass: false, score: 0, reason: `callgrade: ${message}` };
}

// assert is the promptfoo assertion: package:@callgrade/promptfoo:assert.
// It never throws: a config or a scorer that fails is a failed assertion
// saying why.
async function assert(output, context) {
  let c;
  try {
    c = inlineCase(context && context.config);
  } catch (err) {
    return failure(err.message);
  }
  let s;
  try {
    s = await scorer();
    const { status, body } = await s.score({ case: c, response: responseOf(output) });
    if (status !== 200) return failure(body && body.error ? body.error : `status ${status}`);
    return gradingResult(body, c, s.pid);
  } catch (err) {
    if (s && (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET')) {
      s.retire();
      return failure(`the scorer, callgrade serve (pid ${s.pid}), stopped answering (${err.message}); the next assertion starts another`);
    }
    return failure(err.message);
  }
}

module.exports = { assert, binaryPath, platformPackage };
