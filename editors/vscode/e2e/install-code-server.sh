#!/usr/bin/env bash
# Installs code-server (VS Code in a browser, the window the end-to-end test drives) from the npm
# registry, without reaching GitHub, into PREFIX; does nothing when PREFIX already holds that
# version, complete. About 60 s with a warm npm cache, several minutes on two loaded cores.
#
# usage: editors/vscode/e2e/install-code-server.sh VERSION PREFIX
# Needs (Debian): nodejs npm build-essential python3 pkg-config libkrb5-dev libsecret-1-dev
# libx11-dev libxkbfile-dev ripgrep (.ci/run installs them).
#
# Why each step:
# - code-server's own postinstall and those of several VS Code modules download from GitHub, so
#   packages are installed with `--ignore-scripts` and the native modules rebuilt from source
#   against Node's headers (`npm_config_nodedir=/usr`, Debian's /usr/include/node).
# - VS Code's lockfile may point packages at `git+ssh://github.com/…`; the same version is on the
#   npm registry, and the registry's tarball is used instead.
# - node-pty's postinstall runs `npx node-gyp` to write a compile_commands.json; npx must be
#   allowed to fetch node-gyp (`npm_config_yes`), or it refuses and the rebuild fails.
# - @vscode/ripgrep downloads its binary from GitHub: Debian's `rg` is copied in instead.
set -euo pipefail

version=${1:?usage: install-code-server.sh VERSION PREFIX}
prefix=${2:?usage: install-code-server.sh VERSION PREFIX}
bin=$prefix/node_modules/.bin/code-server
marker=$prefix/.installed-$version

if [ -f "$marker" ] && [ -x "$bin" ]; then
  exit 0
fi
# A half-finished install (interrupted, failed) is started over, never reused.
rm -rf "$prefix"
mkdir -p "$prefix"

export npm_config_nodedir=/usr npm_config_yes=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

npm install --prefix "$prefix" --ignore-scripts "code-server@$version"
cs=$prefix/node_modules/code-server
# argon2 (code-server's own native module): its prebuilt download fails, then it builds from source.
(cd "$prefix" && npm rebuild --foreground-scripts argon2)

cd "$cs/lib/vscode"
node - <<'JS'
const fs = require("fs");
const { execFileSync } = require("child_process");
const file = "npm-shrinkwrap.json";
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
for (const [key, entry] of Object.entries(lock.packages)) {
  if (!entry.resolved || !/^git/.test(entry.resolved)) continue;
  const name = key.replace(/^.*node_modules\//, "");
  const dist = JSON.parse(execFileSync("npm", ["view", `${name}@${entry.version}`, "dist", "--json"], { encoding: "utf8" }));
  console.log(`${name}@${entry.version}: ${entry.resolved} -> ${dist.tarball}`);
  entry.resolved = dist.tarball;
  entry.integrity = dist.integrity;
}
fs.writeFileSync(file, JSON.stringify(lock, null, 2));
JS
npm install --ignore-scripts --omit=dev
npm rebuild --foreground-scripts node-pty @parcel/watcher @vscode/spdlog native-watchdog kerberos @vscode/deviceid
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# The rest of code-server's postinstall: links, and the built-in extensions' shared modules.
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
(cd extensions && npm install --omit=dev)

"$bin" --version
touch "$marker"
