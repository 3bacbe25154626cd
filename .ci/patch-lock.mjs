// The registry this project installs from lacks some other-platform builds of optional native
// packages (msgpackr-extract, unrs-resolver). `npm install` skips them silently, but then `npm ci`
// refuses the lock file as out of sync. This adds a platform-tagged stub entry for each such
// package, so `npm ci` skips it as not-for-this-platform. Run after regenerating package-lock.json:
//   node .ci/patch-lock.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { URL } from 'node:url';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const families = ['@msgpackr-extract/msgpackr-extract-', '@unrs/resolver-binding-'];
const cpus = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];

function platformOf(name) {
  const suffix = name.split('/')[1].replace(/^msgpackr-extract-|^resolver-binding-/, '');
  const [os] = suffix.split('-');
  const cpu = cpus.find((c) => suffix.split('-').includes(c) || suffix.includes(`-${c}`)) ?? suffix.split('-')[1];
  const libc = /musl/.test(suffix) ? 'musl' : /gnu/.test(suffix) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (!families.some((f) => name.startsWith(f)) || lock.packages[key] !== undefined) continue;
    const { os, cpu, libc } = platformOf(name);
    lock.packages[key] = { version, optional: true, os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
    added++;
  }
}
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`patched package-lock.json: ${added} platform stub entries added`);
