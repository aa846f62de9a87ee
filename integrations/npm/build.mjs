#!/usr/bin/env node
// Builds the npm packages of callgrade into DIR, as esbuild and biome ship
// their binaries: @callgrade/promptfoo (the promptfoo assertion and an npx
// command) names one package per platform as an optional dependency, and
// each platform package holds the binary, with `os` and `cpu` fields so
// that npm installs only the host's. No package has an install script.
//
//   node integrations/npm/build.mjs --out DIR [--platform host|all|linux-x64,...] [--version V]
//
// The binaries are built with the repository's Go into a temporary folder;
// nothing is written into the checkout but DIR. Prints the tarballs' paths.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

// npm's names (process.platform, process.arch) and Go's.
const PLATFORMS = {
  'linux-x64': { os: 'linux', cpu: 'x64', goos: 'linux', goarch: 'amd64' },
  'linux-arm64': { os: 'linux', cpu: 'arm64', goos: 'linux', goarch: 'arm64' },
  'darwin-x64': { os: 'darwin', cpu: 'x64', goos: 'darwin', goarch: 'amd64' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64', goos: 'darwin', goarch: 'arm64' },
  'win32-x64': { os: 'win32', cpu: 'x64', goos: 'windows', goarch: 'amd64' },
  'win32-arm64': { os: 'win32', cpu: 'arm64', goos: 'windows', goarch: 'arm64' },
};

function usage(msg) {
  if (msg) console.error(`build.mjs: ${msg}`);
  console.error('usage: node integrations/npm/build.mjs --out DIR [--platform host|all|NAME,...] [--version V]');
  console.error(`platforms: ${Object.keys(PLATFORMS).join(', ')}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { platform: 'host', version: JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8')).version };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const [key, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) usage(`${key} needs a value`);
      return argv[++i];
    };
    switch (key) {
      case '--out': opts.out = value(); break;
      case '--platform': opts.platform = value(); break;
      case '--version': opts.version = value(); break;
      case '-h': case '--help': usage();
      default: usage(`unknown argument ${a}`);
    }
  }
  if (!opts.out) usage('--out DIR is required');
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(opts.version)) usage(`--version ${opts.version} is not a semver version`);
  return opts;
}

function hostPlatform() {
  const name = `${process.platform}-${process.arch}`;
  if (!PLATFORMS[name]) usage(`this host is ${name}, for which callgrade has no package; name one with --platform`);
  return name;
}

function platforms(spec) {
  if (spec === 'all') return Object.keys(PLATFORMS);
  return spec.split(',').map((s) => {
    const name = s.trim() === 'host' ? hostPlatform() : s.trim();
    if (!PLATFORMS[name]) usage(`unknown platform ${name}`);
    return name;
  });
}

function writeJSON(file, v) {
  fs.writeFileSync(file, `${JSON.stringify(v, null, 2)}\n`);
}

function pack(dir, out) {
  const json = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out, dir],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return path.join(out, JSON.parse(json)[0].filename);
}

const opts = parseArgs(process.argv.slice(2));
const names = platforms(opts.platform);
const out = path.resolve(opts.out);
fs.mkdirSync(out, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'callgrade-npm-'));

try {
  const tarballs = [];

  // The main package: the assertion, the npx shim, the suite serve starts with.
  const main = path.join(tmp, 'promptfoo');
  fs.cpSync(path.join(here, 'promptfoo'), main, { recursive: true });
  writeJSON(path.join(main, 'package.json'), {
    name: '@callgrade/promptfoo',
    version: opts.version,
    description: 'Score an LLM\'s tool calls in promptfoo by their parsed structure, with callgrade',
    keywords: ['promptfoo', 'tool-calls', 'function-calling', 'eval', 'assertion'],
    main: 'index.js',
    bin: { callgrade: 'bin/callgrade.js' },
    files: ['index.js', 'bin/callgrade.js', 'suite.yaml', 'README.md'],
    engines: { node: '>=18' },
    optionalDependencies: Object.fromEntries(Object.keys(PLATFORMS).map((p) => [`@callgrade/${p}`, opts.version])),
  });
  tarballs.push(pack(main, out));

  for (const name of names) {
    const p = PLATFORMS[name];
    const dir = path.join(tmp, name);
    const exe = p.goos === 'windows' ? 'callgrade.exe' : 'callgrade';
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
    execFileSync('go', ['build', '-trimpath', '-buildvcs=false', '-ldflags', `-s -w -X main.version=${opts.version}`, '-o', path.join(dir, 'bin', exe), './cmd/callgrade'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, CGO_ENABLED: '0', GOOS: p.goos, GOARCH: p.goarch },
    });
    fs.chmodSync(path.join(dir, 'bin', exe), 0o755);
    writeJSON(path.join(dir, 'package.json'), {
      name: `@callgrade/${name}`,
      version: opts.version,
      description: `The callgrade binary for ${p.os} ${p.cpu}, used by @callgrade/promptfoo`,
        os: [p.os],
      cpu: [p.cpu],
      files: [`bin/${exe}`, 'README.md'],
      preferUnplugged: true,
    });
    fs.writeFileSync(path.join(dir, 'README.md'),
      `# @callgrade/${name}\n\nThe \`callgrade\` binary for ${p.os} ${p.cpu}. Install [@callgrade/promptfoo](https://www.npmjs.com/package/@callgrade/promptfoo), which depends on it.\n`);
    tarballs.push(pack(dir, out));
  }
  for (const t of tarballs) console.log(t);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
