#!/usr/bin/env node
// Runs as the root package's postinstall. Plain Node, no build step.
//
// better-sqlite3 has no prebuilt binary we can reach here (its install tries a download, which
// fails at once with no network, then compiles SQLite from source with node-gyp). That compile is
// most of a fresh clone's `npm install` on this machine (about 45 s idle, over 100 s under load).
// prebuild-install first looks for the binary in its own cache under the npm cache
// (`<npm cache>/_prebuilds/`), keyed by package version, runtime, ABI, platform and arch. Once this
// machine has compiled a package, we put that binary into that cache, in prebuild-install's own
// tarball format, so the next clone or `npm ci` on this machine unpacks it instead of compiling.
//
// Safe by construction: prebuild-install loads an unpacked binary before it accepts it, and falls
// back to compiling on any failure. This script never fails an install: any problem is one line.
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Installed packages whose install script asks prebuild-install before compiling. */
function prebuildInstallPackages() {
  const modules = join(root, 'node_modules');
  const dirs = readdirSync(modules).flatMap((name) =>
    name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => join(modules, name, sub)) : [join(modules, name)],
  );
  const found = [];
  for (const dir of dirs) {
    let pkg;
    try {
      pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (/^prebuild-install\b/.test(pkg.scripts?.install ?? '')) found.push({ dir, pkg });
  }
  return found;
}

/** Where prebuild-install looks for this package's binary, computed by prebuild-install itself. */
function cachedPrebuildPath(dir, pkg) {
  const requireFromPkg = createRequire(join(dir, 'package.json'));
  const prebuildDir = dirname(requireFromPkg.resolve('prebuild-install/package.json'));
  const rc = requireFromPkg(join(prebuildDir, 'rc.js'))(pkg);
  const util = requireFromPkg(join(prebuildDir, 'util.js'));
  return { path: util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg })), requireFromPrebuild: createRequire(join(prebuildDir, 'package.json')) };
}

async function cache({ dir, pkg }) {
  // What prebuild packs for a package: its main binary under build/Release.
  const name = pkg.binary?.module_name ?? pkg.name.replace(/^@.*\//, '').replace(/-/g, '_');
  const binaries = existsSync(join(dir, 'build', 'Release', `${name}.node`)) ? [`build/Release/${name}.node`] : [];
  if (binaries.length === 0) return `${pkg.name}: no built binary to cache`;
  const { path: target, requireFromPrebuild } = cachedPrebuildPath(dir, pkg);
  if (existsSync(target)) return `${pkg.name}: already cached`;
  // The binary must load in this very runtime before it is offered to a later install.
  createRequire(join(dir, 'package.json'))(join(dir, binaries[0]));
  const tar = requireFromPrebuild('tar-fs');
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await pipeline(tar.pack(dir, { entries: binaries }), createGzip(), createWriteStream(tmp));
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { force: true });
  }
  return `${pkg.name}@${pkg.version}: cached this machine's build for later installs (${target})`;
}

try {
  for (const entry of prebuildInstallPackages()) {
    const line = await cache(entry).catch((error) => `${entry.pkg.name}: not cached (${error.message})`);
    if (process.env.CCCC_NATIVE_CACHE_VERBOSE === '1' || !/already cached|no built binary/.test(line)) process.stdout.write(`cccc native build cache: ${line}\n`);
  }
} catch (error) {
  process.stdout.write(`cccc native build cache: skipped (${error.message})\n`);
}
