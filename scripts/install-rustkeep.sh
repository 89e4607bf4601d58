#!/usr/bin/env bash
# Installs `rustkeep` for the GitHub Action (action.yml) or any CI job: the release archive of a
# version (downloaded, its SHA-256 checked against the published checksum, unpacked), or a build
# from source for a branch, a commit, or when asked.
#
# usage: install-rustkeep.sh plan      say what `install` would do, as key=value lines on stdout
#                                      (and in $GITHUB_OUTPUT when set); changes nothing
#        install-rustkeep.sh install   install it, put its folder on PATH ($GITHUB_PATH when set)
#
# Environment (all optional):
#   RUSTKEEP_VERSION           a release tag (v0.1.0 or 0.1.0), a branch, a 40-hex commit,
#                              `installed` (use the rustkeep on PATH), or empty: the ref the action
#                              was taken from (RUSTKEEP_ACTION_REF) when it is a release tag, else a
#                              build of the action's own checkout (RUSTKEEP_ACTION_PATH)
#   RUSTKEEP_INSTALL           auto (default: release for a tag, source otherwise), release or source
#   RUSTKEEP_ACTION_REF        the ref the action was used at (`github.action_ref`)
#   RUSTKEEP_ACTION_PATH       the action's checkout (`github.action_path`)
#   RUSTKEEP_REPOSITORY        owner/name to download from or build from (`github.action_repository`);
#                              default: the project's repository
#   RUSTKEEP_SERVER_URL        default https://github.com
#   RUSTKEEP_RELEASE_BASE_URL  where the assets of the release are; default
#                              SERVER/REPOSITORY/releases/download/TAG. An http(s):// or file:// URL,
#                              or a folder
#   RUSTKEEP_TARGET            the Rust target of the archive; default: this machine's
#   RUSTKEEP_INSTALL_DIR       where the binary goes; default: a folder per version and target in
#                              the runner's tool cache (which the action caches), else in ~/.rustkeep
set -euo pipefail

# The project's repository. A test (crates/rustkeep-cli/tests/distribution.rs) keeps it equal to
# `repository` in the workspace's Cargo.toml.
DEFAULT_REPOSITORY=rustkeep/rustkeep-modkit
# The archives are named as the release tooling (cargo-dist, dist-workspace.toml) names them:
# APP-TARGET.tar.xz, and .zip on Windows, each with APP-TARGET.EXT.sha256 beside it.
APP=rustkeep-cli

fail() {
  # `::error::` makes GitHub show the message as an annotation; elsewhere it is a plain line.
  if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::error::$1" >&2; else echo "install-rustkeep: error: $1" >&2; fi
  exit 1
}

say() {
  echo "install-rustkeep: $1" >&2
}

# A release tag: v1.2.3 or 1.2.3, optionally with a pre-release suffix (v1.2.3-rc.1).
is_release_tag() {
  [[ "$1" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]
}

# The Rust target of this machine, named as the release archives name it.
host_target() {
  local os arch
  os=${RUNNER_OS:-$(uname -s)}
  arch=${RUNNER_ARCH:-$(uname -m)}
  case "$arch" in
    X64 | x86_64 | amd64) arch=x86_64 ;;
    ARM64 | aarch64 | arm64) arch=aarch64 ;;
    *) fail "no release archive for the processor $arch; use install: source" ;;
  esac
  case "$os" in
    Linux)
      # Alpine and other musl systems cannot run the glibc build. (musl's ldd exits with 1.)
      local libc
      libc=$(ldd --version 2>&1 || true)
      if [[ "$libc" == *musl* ]]; then echo "$arch-unknown-linux-musl"; else echo "$arch-unknown-linux-gnu"; fi
      ;;
    macOS | Darwin) echo "$arch-apple-darwin" ;;
    Windows | MINGW* | MSYS* | CYGWIN*)
      [ "$arch" = x86_64 ] || fail "no release archive for Windows on $arch; use install: source"
      echo "x86_64-pc-windows-msvc"
      ;;
    *) fail "no release archive for the system $os; use install: source" ;;
  esac
}

archive_name() {
  case "$1" in
    *-windows-*) echo "$APP-$1.zip" ;;
    *) echo "$APP-$1.tar.xz" ;;
  esac
}

exe_name() {
  case "$1" in
    *-windows-*) echo "rustkeep.exe" ;;
    *) echo "rustkeep" ;;
  esac
}

# Decides what to install; sets mode (installed, release, source), tag, source_kind and
# source_ref (for a source build), target, archive, dir and cache_key.
decide() {
  version=${RUSTKEEP_VERSION:-}
  install=${RUSTKEEP_INSTALL:-auto}
  repository=${RUSTKEEP_REPOSITORY:-$DEFAULT_REPOSITORY}
  tag="" source_kind="" source_ref="" target="" archive="" dir="" cache_key=""
  case "$install" in
    auto | release | source) ;;
    *) fail "install is \`$install\`; use auto, release or source" ;;
  esac
  if [ "$version" = installed ]; then
    mode=installed
    return
  fi
  local wanted=$version
  # Empty: the action's own ref. GitHub does not always tell a composite action its ref; then
  # the action's checkout is built, which is always the right code.
  if [ -z "$wanted" ] && is_release_tag "${RUSTKEEP_ACTION_REF:-}"; then wanted=$RUSTKEEP_ACTION_REF; fi
  if is_release_tag "$wanted" && [ "$install" != source ]; then
    mode=release
    tag=v${wanted#v}
    target=${RUSTKEEP_TARGET:-$(host_target)}
    archive=$(archive_name "$target")
    local cache_root=${RUNNER_TOOL_CACHE:-${HOME:-.}/.rustkeep}
    dir=${RUSTKEEP_INSTALL_DIR:-$cache_root/rustkeep/$tag/$target}
    cache_key="rustkeep-$tag-$target"
    return
  fi
  if [ "$install" = release ]; then
    local asked="\`$wanted\`"
    [ -n "$wanted" ] || asked="the action's own ref"
    fail "install: release needs a release tag as version (such as v0.1.0), not $asked"
  fi
  mode=source
  if [ -z "$wanted" ]; then
    source_kind=path
    source_ref=${RUSTKEEP_ACTION_PATH:-}
    [ -n "$source_ref" ] || fail "no version given and no action checkout to build (RUSTKEEP_ACTION_PATH)"
  elif [[ "$wanted" =~ ^[0-9a-f]{40}$ ]]; then
    source_kind=rev source_ref=$wanted
  elif is_release_tag "$wanted"; then
    source_kind=tag source_ref=v${wanted#v}
  else
    source_kind=branch source_ref=$wanted
  fi
  dir=${RUSTKEEP_INSTALL_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/rustkeep/bin}
}

plan() {
  decide
  local lines="mode=$mode
tag=$tag
target=$target
archive=$archive
dir=$dir
cache-key=$cache_key
source-kind=$source_kind
source-ref=$source_ref"
  echo "$lines"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$lines" >>"$GITHUB_OUTPUT"; fi
}

# Fetches URL (http(s)://, file:// or a plain path) into FILE.
fetch() {
  local url=$1 file=$2
  case "$url" in
    http://* | https://*)
      curl --fail --silent --show-error --location --retry 3 --proto '=https,http' --output "$file" "$url" ||
        fail "cannot download $url (is there a release $tag with an archive for $target?)"
      ;;
    file://*)
      cp "${url#file://}" "$file" 2>/dev/null || fail "cannot read ${url#file://}"
      ;;
    *)
      cp "$url" "$file" 2>/dev/null || fail "cannot read $url"
      ;;
  esac
}

sha256_of() {
  if command -v sha256sum >/dev/null; then
    sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null; then
    shasum -a 256 "$1" | cut -d' ' -f1
  else
    fail "neither sha256sum nor shasum is installed, so the download cannot be verified"
  fi
}

unpack() {
  local file=$1 into=$2
  case "$file" in
    *.tar.xz) tar -xJf "$file" -C "$into" ;;
    *.zip)
      if command -v unzip >/dev/null; then
        unzip -q "$file" -d "$into"
      elif command -v 7z >/dev/null; then
        7z x -y -o"$into" "$file" >/dev/null
      else
        powershell -NoProfile -Command "Expand-Archive -LiteralPath '$file' -DestinationPath '$into'"
      fi
      ;;
  esac
}

# Puts DIR on PATH for the following steps of the job, and says which rustkeep it is.
publish() {
  local dir=$1
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >>"$GITHUB_PATH"; fi
  "$dir/$(exe_name "${target:-}")" --version
}

install_release() {
  local exe installed
  exe=$(exe_name "$target")
  installed=$dir/$exe
  # A binary restored from the cache (or left by an earlier run) is used when it is the version
  # asked for.
  if [ -x "$installed" ] && "$installed" --version 2>/dev/null | grep -q "^rustkeep ${tag#v} "; then
    say "using $installed (cached)"
    publish "$dir"
    return
  fi
  local base=${RUSTKEEP_RELEASE_BASE_URL:-${RUSTKEEP_SERVER_URL:-https://github.com}/$repository/releases/download/$tag}
  local work
  work=$(mktemp -d)
  # shellcheck disable=SC2064 # the folder is known now
  trap "rm -rf '$work'" EXIT
  say "downloading $base/$archive"
  fetch "$base/$archive" "$work/$archive"
  fetch "$base/$archive.sha256" "$work/$archive.sha256"
  # The checksum file holds `HEX *NAME` (as sha256sum writes it).
  local expected actual
  expected=$(awk 'NF { print tolower($1); exit }' "$work/$archive.sha256")
  [[ "$expected" =~ ^[0-9a-f]{64}$ ]] || fail "$archive.sha256 holds no SHA-256 checksum"
  actual=$(sha256_of "$work/$archive")
  if [ "$actual" != "$expected" ]; then
    fail "checksum mismatch for $archive: the release publishes SHA-256 $expected, the download has $actual. Nothing was installed."
  fi
  say "SHA-256 of $archive verified: $actual"
  mkdir -p "$work/unpacked"
  unpack "$work/$archive" "$work/unpacked" || fail "cannot unpack $archive"
  local found
  found=$(find "$work/unpacked" -type f -name "$exe" | head -n 1)
  [ -n "$found" ] || fail "$archive holds no $exe"
  chmod +x "$found"
  local says
  says=$("$found" --version 2>&1) || fail "the $exe of $archive does not run on this machine: $says"
  [[ "$says" == "rustkeep ${tag#v} "* ]] || fail "the $exe of $archive says \`$says\`, not version ${tag#v}"
  mkdir -p "$dir"
  cp "$found" "$installed.partial"
  mv -f "$installed.partial" "$installed"
  say "installed $installed"
  publish "$dir"
}

install_source() {
  command -v cargo >/dev/null || fail "building rustkeep from source needs cargo (add dtolnay/rust-toolchain before this step), or use a release tag as version"
  local root=${dir%/bin}
  local server=${RUSTKEEP_SERVER_URL:-https://github.com}
  case "$source_kind" in
    path) cargo install --locked --quiet --root "$root" --path "$source_ref/crates/rustkeep-cli" ;;
    *) cargo install --locked --quiet --root "$root" --git "$server/$repository" "--$source_kind" "$source_ref" rustkeep-cli ;;
  esac
  dir=$root/bin
  publish "$dir"
}

main() {
  case "${1:-}" in
    plan) plan ;;
    install)
      decide
      case "$mode" in
        installed)
          command -v rustkeep >/dev/null || fail "version: installed, but there is no rustkeep on PATH"
          rustkeep --version
          ;;
        release) install_release ;;
        source) install_source ;;
      esac
      ;;
    *)
      echo "usage: install-rustkeep.sh plan|install (settings in the environment, see the top of this script)" >&2
      exit 2
      ;;
  esac
}

main "$@"
