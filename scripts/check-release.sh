#!/usr/bin/env bash
# The release, as far as it can be made and tried on this machine (run by .ci/run):
#
# 1. `dist plan` succeeds (the configuration is valid and .github/workflows/release.yml current);
# 2. `dist build` makes this machine's archive, as the release workflow does, and the installers;
# 3. the archive matches its published checksum, holds the binary, the README, the licenses, the
#    shell completions and the manual pages (the committed ones under assets/), and its binary
#    passes a smoke test: `--version` (version, commit, data language) and `check` of an example;
# 4. the shell installer installs from a local copy of the release (checksum verified), and
#    refuses an archive that does not match;
# 5. the VS Code package of this platform bundles the binary, which runs when extracted from it.
#
# usage: scripts/check-release.sh [TARGET]   (default: x86_64-unknown-linux-gnu)
# Needs: dist (the version pinned in dist-workspace.toml), tar, xz, sha256sum, unzip, node with
# `npm ci` done in editors/vscode.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-x86_64-unknown-linux-gnu}
app=rustkeep-cli
distrib=target/distrib
archive=$app-$target.tar.xz
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)

step() {
  echo "-- $1"
}
fail() {
  echo "check-release: $1" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step "dist plan"
dist plan >/dev/null

step "dist build: the archive of $target, then the installers and checksums"
rm -rf "$distrib"
mkdir -p "$distrib"
# The release workflow hands each build's manifest to the global step, which embeds the
# archives' checksums in the installers; the same here.
dist build --artifacts=local --target "$target" --output-format=json >"$work/local-manifest.json"
cp "$work/local-manifest.json" "$distrib/$target-dist-manifest.json"
dist build --artifacts=global --output-format=json >/dev/null
for file in "$archive" "$archive.sha256" "$app-installer.sh" "$app-installer.ps1" sha256.sum; do
  [ -f "$distrib/$file" ] || fail "dist build made no $file"
done

step "the archive: checksum, contents, smoke test"
(cd "$distrib" && sha256sum --check --strict "$archive.sha256") || fail "$archive does not match $archive.sha256"
grep -q " \*$archive\$" "$distrib/sha256.sum" || fail "sha256.sum does not list $archive"
tar -xJf "$distrib/$archive" -C "$work"
root=$work/${archive%.tar.xz}
for file in rustkeep README.md LICENSE-MIT LICENSE-APACHE; do
  [ -f "$root/$file" ] || fail "$archive holds no $file"
done
diff -r assets/completions "$root/completions" || fail "the archive's completions/ differ from assets/completions"
diff -r assets/man "$root/man" || fail "the archive's man/ differs from assets/man"
said=$("$root/rustkeep" --version)
commit=$(git rev-parse HEAD | cut -c1-9)
[ "$said" = "rustkeep $version (commit $commit, data language v$(sed -n 's/^pub const LANGUAGE_VERSION: &str = "\(.*\)";$/\1/p' crates/rustkeep-data/src/vocab.rs))" ] ||
  fail "\`rustkeep --version\` of the archive says \`$said\`"
echo "$said"
"$root/rustkeep" check examples/fire_and_thorns examples/rat_catcher >"$work/check.txt" || fail "rustkeep check of the examples failed: $(cat "$work/check.txt")"
status=0
"$root/rustkeep" check examples/broken >/dev/null 2>&1 || status=$?
[ "$status" = 1 ] || fail "rustkeep check of examples/broken exited with $status, not 1 (errors found)"
man -l "$root/man/rustkeep.1" >/dev/null || fail "man cannot render the archive's rustkeep.1"

step "the shell installer, from a local copy of the release"
installed=$work/installed
RUSTKEEP_CLI_DOWNLOAD_URL="file://$PWD/$distrib" CARGO_HOME="$installed" HOME="$work/home" RUSTKEEP_CLI_NO_MODIFY_PATH=1 \
  sh "$distrib/$app-installer.sh" >"$work/installer.txt" 2>&1 || fail "the installer failed: $(cat "$work/installer.txt")"
grep -q "no checksums to verify" "$work/installer.txt" && fail "the installer verified no checksum: $(cat "$work/installer.txt")"
[ "$("$installed/bin/rustkeep" --version)" = "$said" ] || fail "the installed rustkeep is not the archive's"
mkdir -p "$work/tampered"
cp "$distrib/$archive" "$distrib/$app-installer.sh" "$work/tampered/"
printf 'x' >>"$work/tampered/$archive"
if RUSTKEEP_CLI_DOWNLOAD_URL="file://$work/tampered" CARGO_HOME="$work/tampered-home" HOME="$work/home" RUSTKEEP_CLI_NO_MODIFY_PATH=1 \
  sh "$work/tampered/$app-installer.sh" >"$work/tampered.txt" 2>&1; then
  fail "the installer installed an archive that does not match its checksum"
fi
grep -qi "checksum" "$work/tampered.txt" || fail "the installer refused the tampered archive without naming the checksum: $(cat "$work/tampered.txt")"
[ ! -e "$work/tampered-home/bin/rustkeep" ] || fail "the installer left a binary from the tampered archive"

step "the VS Code package of $target, with the binary inside"
rm -rf target/vscode
(cd editors/vscode && node scripts/package-platform.js --target "$target" --archive "../../$distrib/$archive" --out-dir ../../target/vscode --verify)
ls target/vscode/rustkeep-"$version"-*.vsix >/dev/null || fail "no package rustkeep-$version-PLATFORM.vsix"

step "the release of $target is complete and works"
