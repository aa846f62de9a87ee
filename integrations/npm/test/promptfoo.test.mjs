// Builds the packages, installs them into a temporary project as a user
// would, with promptfoo, and runs promptfoo's eval with its echo provider
// on a config that asserts with package:@callgrade/promptfoo:assert.
//
//   node --test integrations/npm/test/
//
// Needs Go (the repository's), npm and the registry or a warm npm cache for
// promptfoo (integrations/npm/package-lock.json pins it and its tree).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const harness = path.resolve(here, '..');
const root = path.resolve(harness, '..', '..');
const harnessPkg = JSON.parse(fs.readFileSync(path.join(harness, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(harness, 'package-lock.json'), 'utf8'));
const version = harnessPkg.version;
const promptfooVersion = harnessPkg.dependencies.promptfoo;
const host = `${process.platform}-${process.arch}`;
const exe = process.platform === 'win32' ? 'callgrade.exe' : 'callgrade';

// promptfoo 0.121.20 loads libsql when it starts, whose native binding is an
// optional dependency: --omit=optional leaves it out, so the project names
// the host's binding as it names callgrade's platform package.
const LIBSQL = {
  'linux-x64': 'linux-x64-gnu', 'linux-arm64': 'linux-arm64-gnu', 'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64', 'win32-x64': 'win32-x64-msvc',
};
const libsql = `@libsql/${LIBSQL[host]}@${lock.packages['node_modules/libsql'].version}`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'callgrade-npm-test-'));
const dist = path.join(work, 'dist');
const project = path.join(work, 'project');
const bare = path.join(work, 'bare');
let tarballs;
let statusBefore;
let statusAfter;
const gitStatus = () => mustRun('git', ['status', '--porcelain', '--untracked-files=all', '--ignored'], { cwd: root }).stdout;

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.error) throw r.error;
  return r;
}

function mustRun(cmd, args, opts) {
  const r = run(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r;
}

// The environment of the user's commands: no callgrade on PATH, no
// CALLGRADE_ or PROMPTFOO_ variable.
function userEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('CALLGRADE_') && !k.startsWith('PROMPTFOO_')) env[k] = v;
  }
  env.PATH = [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter);
  env.npm_config_update_notifier = 'false';
  return env;
}

before(() => {
  fs.mkdirSync(path.join(work, 'home'));
  statusBefore = gitStatus();
  // The build, as a user of the repository runs it.
  const out = mustRun(process.execPath, [path.join(harness, 'build.mjs'), '--out', dist], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  tarballs = out.stdout.trim().split('\n');
  statusAfter = gitStatus();
  // The project: promptfoo and its tree as the harness's lockfile pins them
  // (npm ci), then the install a user runs, naming both tarballs.
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ ...harnessPkg, scripts: undefined }, null, 2));
  fs.copyFileSync(path.join(harness, 'package-lock.json'), path.join(project, 'package-lock.json'));
  mustRun('npm', ['ci', '--ignore-scripts', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund'],
    { cwd: project, env: userEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  mustRun('npm', ['install', '--ignore-scripts', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund',
    ...tarballs, `promptfoo@${promptfooVersion}`, libsql], { cwd: project, env: userEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
});

after(() => {
  if (process.env.CALLGRADE_NPM_KEEP) console.log(`kept ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
});

test('build writes the main package and the host package, with no install script', () => {
  assert.deepEqual(tarballs.map((t) => path.basename(t)), [`callgrade-promptfoo-${version}.tgz`, `callgrade-${host}-${version}.tgz`]);
  const main = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/@callgrade/promptfoo/package.json'), 'utf8'));
  const plat = JSON.parse(fs.readFileSync(path.join(project, `node_modules/@callgrade/${host}/package.json`), 'utf8'));
  assert.equal(main.optionalDependencies[`@callgrade/${host}`], version);
  assert.equal(Object.keys(main.optionalDependencies).length, 6);
  assert.deepEqual([plat.os, plat.cpu], [[process.platform], [process.arch]]);
  for (const p of [main, plat]) assert.equal(p.scripts, undefined);
  const st = fs.statSync(path.join(project, `node_modules/@callgrade/${host}/bin/${exe}`));
  assert.ok(st.mode & 0o100, 'the binary is executable');
  // Nothing but DIR: the build leaves the checkout as it was.
  assert.equal(statusAfter, statusBefore);
});

test('no callgrade on the user\'s PATH; npx callgrade runs the packaged binary', () => {
  const env = userEnv();
  assert.notEqual(run('sh', ['-c', 'command -v callgrade'], { env, cwd: work }).status, 0);
  const r = mustRun('npx', ['--no-install', 'callgrade', 'check', '--help'], { cwd: project, env });
  assert.match(r.stdout + r.stderr, /check/);
});

const CONFIG = `description: callgrade in promptfoo
prompts:
  - '{{output}}'
providers:
  - echo
defaultTest:
  assert:
    - type: javascript
      value: package:@callgrade/promptfoo:assert
      config:
        expected:
          - name: get_weather
            arguments: {city: Berlin, unit: celsius, days: 3}
          - name: get_time
            arguments: {tz: Europe/Berlin}
        rules:
          city: case_insensitive
          days: numeric
tests:
  - description: openai tool_calls as JSON text
    vars:
      output: '[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"berlin\\",\\"unit\\":\\"celsius\\",\\"days\\":\\"3\\"}"}},{"id":"c2","type":"function","function":{"name":"get_time","arguments":"{\\"tz\\":\\"Europe/Berlin\\"}"}}]'
  - description: wrong city and no get_time
    vars:
      output: '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\",\\"unit\\":\\"celsius\\",\\"days\\":3}"}}]}'
  - description: hermes text
    vars:
      output: |-
        <tool_call>
        {"name": "get_weather", "arguments": {"city": "BERLIN", "unit": "celsius", "days": 3}}
        </tool_call>
        <tool_call>
        {"name": "get_time", "arguments": {"tz": "Europe/Berlin"}}
        </tool_call>
  - description: an anthropic message, one argument missing
    vars:
      output: '{"type":"message","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Berlin","days":3}},{"type":"tool_use","id":"t2","name":"get_time","input":{"tz":"Europe/Berlin"}}]}'
  - description: a config with a key callgrade does not know
    vars:
      output: '[]'
    options:
      disableDefaultAsserts: true
    assert:
      - type: javascript
        value: package:@callgrade/promptfoo:assert
        config: {expected: [], rule: {}}
`;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('promptfoo eval with the echo provider scores by structure, with one scorer process', async () => {
  const dir = path.join(project, 'eval');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'promptfooconfig.yaml'), CONFIG);
  // The test's own settings: no telemetry, no update check. The config needs none.
  // promptfoo keeps its database under ~/.promptfoo: a HOME of the test's own.
  const env = { ...userEnv(), HOME: path.join(work, 'home'), PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1' };
  const r = run('npx', ['--no-install', 'promptfoo', 'eval', '-c', 'promptfooconfig.yaml', '--no-cache', '-o', 'out.json'], { cwd: dir, env });
  // promptfoo exits 100 when a test fails, as three of these do.
  assert.equal(r.status, 100, `promptfoo eval: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  const out = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8'));
  const by = Object.fromEntries(out.results.results.map((x) => [x.testCase.description, x]));
  // The assertion's own result comes first, then its calls' (promptfoo flattens them).
  const ours = (x) => x.gradingResult.componentResults[0];

  const ok = by['openai tool_calls as JSON text'];
  assert.equal(ok.success, true);
  assert.equal(ok.score, 1);
  assert.equal(ours(ok).reason, 'callgrade: all 2 calls match');
  assert.equal(ours(ok).componentResults.length, 2);
  assert.ok(ours(ok).componentResults.every((c) => c.pass && c.score === 1));

  const bad = by['wrong city and no get_time'];
  assert.equal(bad.success, false);
  assert.ok(Math.abs(bad.score - 1 / 3) < 1e-9, `score ${bad.score}`);
  assert.equal(bad.gradingResult.reason,
    'callgrade: score 0.333: get_weather city: expected "Berlin", got "Paris" (case_insensitive); get_time: expected a call to get_time, got none');
  const [w, t] = ours(bad).componentResults;
  assert.deepEqual([w.pass, t.pass], [false, false]);
  assert.ok(Math.abs(w.score - 2 / 3) < 1e-9);
  assert.equal(t.score, 0);
  assert.match(w.reason, /^get_weather \(expected call 0, actual call 0\): city: expected "Berlin", got "Paris"/);
  // promptfoo lists the per-call results beside the assertion's own.
  assert.equal(bad.gradingResult.componentResults.length, 3);

  assert.equal(by['hermes text'].success, true);
  const anth = by['an anthropic message, one argument missing'];
  assert.equal(anth.success, false);
  assert.match(anth.gradingResult.reason, /get_weather unit: /);
  assert.equal(ours(anth).componentResults[1].pass, true);

  const cfg = by['a config with a key callgrade does not know'];
  assert.equal(cfg.success, false);
  assert.match(cfg.gradingResult.reason, /^callgrade: config: unknown key "rule"/);

  // One scorer for the whole eval: every result names the same pid, and it
  // is gone once promptfoo has exited.
  const pids = new Set(out.results.results.filter((x) => ours(x)?.metadata).map((x) => ours(x).metadata.callgradePid));
  assert.equal(pids.size, 1, `scorer pids: ${[...pids]}`);
  const [pid] = pids;
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((res) => setTimeout(res, 100));
  assert.equal(alive(pid), false, `callgrade serve (pid ${pid}) outlived promptfoo`);
});

test('without the platform package the assertion fails naming the package to install', () => {
  fs.mkdirSync(path.join(bare, 'node_modules/@callgrade'), { recursive: true });
  fs.cpSync(path.join(project, 'node_modules/@callgrade/promptfoo'), path.join(bare, 'node_modules/@callgrade/promptfoo'), { recursive: true });
  const script = `require('@callgrade/promptfoo').assert('[]', {config: {expected: []}}).then((r) => console.log(JSON.stringify(r)))`;
  const r = mustRun(process.execPath, ['-e', script], { cwd: bare, env: userEnv() });
  const g = JSON.parse(r.stdout);
  assert.equal(g.pass, false);
  assert.ok(g.reason.includes(`npm install @callgrade/${host}@${version}`), g.reason);
});

test('the assertion called directly: objects as they are, JSON text, and one scorer for many', async () => {
  const script = `
    const { assert } = require('@callgrade/promptfoo');
    const config = { expected: { name: 'f', arguments: { x: 1 } } };
    const outputs = [
      [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
      { content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
      '{"name":"f","arguments":{"x":1}}',
      { name: 'f', arguments: '{"x":1}' },
      '{"name":"f","arguments":{"x":2}}',
      'no call at all',
    ];
    Promise.all(outputs.map((o) => assert(o, { config }))).then((rs) => console.log(JSON.stringify(rs)));`;
  const r = mustRun(process.execPath, ['-e', script], { cwd: project, env: userEnv() });
  const rs = JSON.parse(r.stdout);
  assert.deepEqual(rs.map((x) => x.pass), [true, true, true, true, false, false]);
  assert.match(rs[4].reason, /^callgrade: score 0: f x: expected 1, got 2/);
  assert.match(rs[5].reason, /f: expected a call to f, got none/);
  assert.equal(new Set(rs.map((x) => x.metadata.callgradePid)).size, 1);
});

test('docs/promptfoo.md: its config gives the results and the reason it shows', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/promptfoo.md'), 'utf8');
  const blocks = [...doc.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
  const config = blocks.find((b) => b.lang === 'yaml' && b.text.startsWith('# promptfooconfig.yaml')).text;
  const reason = blocks.find((b) => b.lang === 'text' && b.text.startsWith('callgrade: score')).text.trim();
  const missing = blocks.find((b) => b.lang === 'text' && b.text.includes('is not installed')).text.trim();
  // The install command names the tarballs the build writes on this host.
  const install = blocks.find((b) => b.lang === 'sh' && b.text.startsWith('npm install')).text;
  for (const t of tarballs) assert.ok(install.includes(`/tmp/callgrade-npm/${path.basename(t)}`) || host !== 'linux-x64', `${path.basename(t)} in ${install}`);
  assert.ok(install.includes(libsql) || host !== 'linux-x64', `${libsql} in ${install}`);
  if (host === 'linux-x64') assert.equal(missing, `callgrade: the callgrade binary for linux x64 is in the package @callgrade/linux-x64, which is not installed (npm omits optional dependencies with --omit=optional or --no-optional); install it beside @callgrade/promptfoo: npm install @callgrade/linux-x64@${version}`);

  const dir = path.join(project, 'docs-eval');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'promptfooconfig.yaml'), config);
  const env = { ...userEnv(), HOME: path.join(work, 'home'), PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1' };
  const r = run('npx', ['--no-install', 'promptfoo', 'eval', '-c', 'promptfooconfig.yaml', '--no-cache', '-o', 'out.json'], { cwd: dir, env });
  assert.equal(r.status, 100, `promptfoo eval: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  const results = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')).results.results;
  const [first, second] = [0, 1].map((i) => results.find((x) => x.testIdx === i));
  assert.equal(first.success, true);
  assert.equal(second.success, false);
  assert.equal(second.gradingResult.reason, reason);
  assert.equal(Math.round(second.score * 1000) / 1000, 0.333);
});

test('a scorer that is killed is replaced: one assertion fails saying so, the next starts another', () => {
  const script = `
    const { assert } = require('@callgrade/promptfoo');
    const config = { expected: [] };
    (async () => {
      const a = await assert('[]', { config });
      process.kill(a.metadata.callgradePid, 'SIGKILL');
      await new Promise((res) => setTimeout(res, 300));
      const b = await assert('[]', { config });
      const c = await assert('[]', { config });
      console.log(JSON.stringify([a, b, c]));
    })();`;
  const r = mustRun(process.execPath, ['-e', script], { cwd: project, env: userEnv() });
  const [a, b, c] = JSON.parse(r.stdout);
  assert.equal(a.pass, true);
  assert.equal(b.pass, false);
  assert.match(b.reason, /^callgrade: the scorer, callgrade serve \(pid \d+\), stopped answering \(.*\); the next assertion starts another$/);
  assert.equal(c.pass, true);
  assert.notEqual(c.metadata.callgradePid, a.metadata.callgradePid);
});
