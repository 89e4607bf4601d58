// Builds the VS Code packages of a release: one `.vsix` per platform with the matching `rustkeep`
// binary bundled under `server/` (where the extension looks right after its setting), and the
// universal one without a binary, which finds `rustkeep` on PATH. The packages are named
// rustkeep-VERSION-PLATFORM.vsix and rustkeep-VERSION.vsix.
//
//   node scripts/package-platform.js --target x86_64-unknown-linux-gnu --archive ../../target/distrib/rustkeep-cli-x86_64-unknown-linux-gnu.tar.xz [--out FILE | --out-dir DIR] [--verify]
//   node scripts/package-platform.js --target x86_64-unknown-linux-gnu --binary ../../target/release/rustkeep [--out FILE | --out-dir DIR] [--verify]
//   node scripts/package-platform.js --dist ../../target/distrib --out-dir ../../target/vscode [--verify]
//   node scripts/package-platform.js --universal [--out FILE | --out-dir DIR]
//
// `--archive` takes a release archive (named and laid out as the release workflow builds them,
// see dist-workspace.toml); `--dist` packages every platform from a folder of such archives and
// the universal package. `--verify` opens each package again: the binary must be inside with its
// executable bit, and when the package is for this machine, the binary extracted from it must
// run (`rustkeep --version`). Needs `tar` (and `unzip` for Windows archives and for --verify).
//
// Run `npm ci` first: packaging uses the `vsce` of the lock file.

"use strict";

const childProcess = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const EXTENSION = path.join(__dirname, "..");
const SERVER_DIR = path.join(EXTENSION, "server");

/** The release archives are named `APP-TARGET.EXT`, as the release tooling (cargo-dist) names them. */
const APP = "rustkeep-cli";

/**
 * Every Rust target of the release (dist-workspace.toml, kept equal by a test) and the VS Code
 * platform its package is for (`vsce package --target`). musl builds serve Alpine.
 */
const TARGETS = {
  "x86_64-unknown-linux-gnu": "linux-x64",
  "aarch64-unknown-linux-gnu": "linux-arm64",
  "x86_64-unknown-linux-musl": "alpine-x64",
  "aarch64-unknown-linux-musl": "alpine-arm64",
  "x86_64-apple-darwin": "darwin-x64",
  "aarch64-apple-darwin": "darwin-arm64",
  "x86_64-pc-windows-msvc": "win32-x64",
};

function fail(message) {
  const error = new Error(message);
  error.name = "PackageError";
  throw error;
}

/** The VS Code platform of a Rust target. */
function vscodeTarget(rustTarget) {
  const target = TARGETS[rustTarget];
  if (target === undefined) {
    fail(`no VS Code platform for the Rust target ${rustTarget}; known: ${Object.keys(TARGETS).join(", ")}`);
  }
  return target;
}

function isWindows(rustTarget) {
  return rustTarget.includes("-windows-");
}

/** The name of the release archive of a Rust target. */
function archiveName(rustTarget) {
  return `${APP}-${rustTarget}${isWindows(rustTarget) ? ".zip" : ".tar.xz"}`;
}

/** The binary's name inside the archive and in `server/`. */
function exeName(rustTarget) {
  return isWindows(rustTarget) ? "rustkeep.exe" : "rustkeep";
}

function manifest() {
  return JSON.parse(fs.readFileSync(path.join(EXTENSION, "package.json"), "utf8"));
}

/** The file name of a package: `rustkeep-VERSION-PLATFORM.vsix`, or without a platform for the universal one. */
function vsixName(version, platform) {
  return platform === undefined ? `rustkeep-${version}.vsix` : `rustkeep-${version}-${platform}.vsix`;
}

/** The VS Code platform this machine runs (`process.platform`-`process.arch`), as `vsce` spells it. */
function hostPlatform() {
  return `${process.platform}-${process.arch}`;
}

function run(command, args, options = {}) {
  const result = childProcess.spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.error) {
    fail(`cannot run ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    fail(`${command} ${args.join(" ")} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** Finds a file named `name` below `dir`. */
function findFile(dir, name) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(full, name);
      if (found !== undefined) return found;
    } else if (entry.name === name) {
      return full;
    }
  }
  return undefined;
}

/** Unpacks a release archive into a temporary folder and returns the path of the binary inside. */
function binaryFromArchive(archive, rustTarget) {
  if (path.basename(archive) !== archiveName(rustTarget)) {
    fail(`${archive} is not the archive of ${rustTarget} (expected ${archiveName(rustTarget)})`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rustkeep-vsix-"));
  if (archive.endsWith(".zip")) {
    run("unzip", ["-q", archive, "-d", dir]);
  } else {
    run("tar", ["-xJf", archive, "-C", dir]);
  }
  const binary = findFile(dir, exeName(rustTarget));
  if (binary === undefined) fail(`${archive} holds no ${exeName(rustTarget)}`);
  return binary;
}

function vsce(args) {
  const bin = path.join(EXTENSION, "node_modules", ".bin", process.platform === "win32" ? "vsce.cmd" : "vsce");
  if (!fs.existsSync(bin)) fail(`vsce is not installed: run \`npm ci\` in ${EXTENSION}`);
  run(bin, ["package", "--no-dependencies", ...args], { cwd: EXTENSION, shell: process.platform === "win32" });
}

/** Packages the extension with `binary` bundled for `rustTarget`; returns the package's path. */
function packagePlatform(rustTarget, binary, out) {
  const platform = vscodeTarget(rustTarget);
  const bundled = path.join(SERVER_DIR, exeName(rustTarget));
  fs.rmSync(SERVER_DIR, { recursive: true, force: true });
  fs.mkdirSync(SERVER_DIR, { recursive: true });
  try {
    fs.copyFileSync(binary, bundled);
    // The package keeps the file's mode; VS Code restores it when it installs the extension.
    fs.chmodSync(bundled, 0o755);
    vsce(["--target", platform, "-o", out]);
  } finally {
    // A universal package built later must not carry this binary.
    fs.rmSync(SERVER_DIR, { recursive: true, force: true });
  }
  return out;
}

function packageUniversal(out) {
  if (fs.existsSync(SERVER_DIR)) {
    fail(`${SERVER_DIR} exists: the universal package must not bundle a binary; remove it first`);
  }
  vsce(["-o", out]);
  return out;
}

/**
 * Checks a package: the platform it declares, the binary inside with its executable bit, and —
 * when the package is for this machine — that the binary extracted from it runs. Returns what
 * `rustkeep --version` said (or undefined when it could not run here).
 */
function verify(vsix, rustTarget) {
  const entries = run("unzip", ["-Z1", vsix]).split("\n").filter((l) => l.length > 0);
  const inside = `extension/server/${exeName(rustTarget)}`;
  if (!entries.includes(inside)) fail(`${vsix} holds no ${inside}; it holds:\n${entries.join("\n")}`);
  const vsixManifest = run("unzip", ["-p", vsix, "extension.vsixmanifest"]);
  const platform = vscodeTarget(rustTarget);
  if (!vsixManifest.includes(`TargetPlatform="${platform}"`)) fail(`${vsix} does not declare the platform ${platform}`);
  if (!isWindows(rustTarget)) {
    // `unzip -Z` lists the stored Unix mode first, e.g. `-rwxr-xr-x`.
    const mode = run("unzip", ["-Z", vsix, inside]).trim().split(/\s+/)[0];
    if (!/^-rwx/.test(mode)) fail(`${inside} in ${vsix} is stored as ${mode}, not executable`);
  }
  if (platform !== hostPlatform()) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rustkeep-vsix-check-"));
  try {
    run("unzip", ["-q", vsix, inside, "-d", dir]);
    const said = run(path.join(dir, inside), ["--version"]).trim();
    if (!said.startsWith(`rustkeep ${manifest().version} `)) {
      fail(`the bundled binary says "${said}"; the extension is version ${manifest().version}`);
    }
    return said;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const key = arg.replace(/^--/, "");
    if (["verify", "universal"].includes(key)) {
      options[key] = true;
    } else if (["target", "archive", "binary", "out", "dist", "out-dir"].includes(key) && i + 1 < argv.length) {
      options[key] = argv[++i];
    } else {
      fail(`unknown or incomplete argument ${arg}\n${usage()}`);
    }
  }
  return options;
}

function usage() {
  // The usage lines at the top of this file.
  const lines = fs.readFileSync(__filename, "utf8").split("\n").filter((l) => l.startsWith("//   node "));
  return "usage:\n" + lines.map((l) => l.replace(/^\/\/ +/, "  ")).join("\n");
}

function main(argv) {
  const options = parseArgs(argv);
  const version = manifest().version;
  const made = [];
  if (options.dist !== undefined) {
    const outDir = path.resolve(options["out-dir"] ?? ".");
    fs.mkdirSync(outDir, { recursive: true });
    for (const rustTarget of Object.keys(TARGETS)) {
      const archive = path.join(options.dist, archiveName(rustTarget));
      if (!fs.existsSync(archive)) fail(`${archive} is missing: the release builds every target of ${Object.keys(TARGETS).join(", ")}`);
      const out = path.join(outDir, vsixName(version, vscodeTarget(rustTarget)));
      made.push([packagePlatform(rustTarget, binaryFromArchive(archive, rustTarget), out), rustTarget]);
    }
    made.push([packageUniversal(path.join(outDir, vsixName(version))), undefined]);
  } else if (options.universal) {
    made.push([packageUniversal(path.resolve(options.out ?? path.join(options["out-dir"] ?? ".", vsixName(version)))), undefined]);
  } else {
    const rustTarget = options.target ?? fail(`--target is required\n${usage()}`);
    const platform = vscodeTarget(rustTarget);
    const binary =
      options.archive !== undefined ? binaryFromArchive(path.resolve(options.archive), rustTarget) : options.binary ?? fail(`--archive or --binary is required\n${usage()}`);
    const out = options.out ?? path.join(options["out-dir"] ?? ".", vsixName(version, platform));
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    made.push([packagePlatform(rustTarget, path.resolve(binary), path.resolve(out)), rustTarget]);
  }
  for (const [vsix, rustTarget] of made) {
    let note = "";
    if (options.verify && rustTarget !== undefined) {
      const said = verify(vsix, rustTarget);
      note = said === undefined ? " (binary inside, executable)" : ` (binary inside, runs: ${said})`;
    }
    console.log(`packaged ${vsix}${note}`);
  }
}

module.exports = { TARGETS, archiveName, exeName, vscodeTarget, vsixName, hostPlatform, parseArgs };

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(`package-platform: ${e.name === "PackageError" ? e.message : e.stack}`);
    process.exit(1);
  }
}
