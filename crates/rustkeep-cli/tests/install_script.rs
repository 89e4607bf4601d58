//! `scripts/install-rustkeep.sh`, the install step of the GitHub Action (`action.yml`), run
//! against a local fake release: a folder holding the archive of the real binary and its checksum
//! file, named as the release workflow names them. With the right checksum the binary is
//! installed, runs and is put on `PATH`; with a wrong one the step fails with a clear message and
//! installs nothing. The decisions (release binary or build from source) are checked through the
//! script's `plan`, which changes nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

use rustkeep_testutil::{file_uri, repo_path, require, tools, TempDir};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Environment variables for the script, or `key=value` lines it should say.
type Env<'a> = &'a [(&'a str, &'a str)];

/// The script with `env` and nothing of the surrounding CI (a run of these tests inside GitHub
/// Actions must not write to the job's real PATH or outputs).
fn script(command: &str, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(repo_path("scripts/install-rustkeep.sh")).arg(command);
    for var in ["GITHUB_ACTIONS", "GITHUB_PATH", "GITHUB_OUTPUT", "RUNNER_OS", "RUNNER_ARCH", "RUNNER_TOOL_CACHE", "RUNNER_TEMP"] {
        c.env_remove(var);
    }
    for (key, _) in std::env::vars() {
        if key.starts_with("RUSTKEEP_") {
            c.env_remove(key);
        }
    }
    c.envs(env.iter().copied());
    c.output().expect("run bash")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `key=value` lines of `plan`.
fn plan(env: &[(&str, &str)]) -> BTreeMap<String, String> {
    let out = script("plan", env);
    assert!(out.status.success(), "plan failed with {env:?}: {}", text(&out.stderr));
    text(&out.stdout).lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn tools_present() -> bool {
    let tar_xz = tools::runs("xz", &["--version"]) && tools::runs("tar", &["--version"]);
    require("tar and xz (`xz-utils`)", tar_xz, "apt-get install xz-utils")
        && require("sha256sum (coreutils)", tools::runs("sha256sum", &["--version"]), "apt-get install coreutils")
}

fn sha256(file: &Path) -> String {
    let out = Command::new("sha256sum").arg(file).output().expect("run sha256sum");
    text(&out.stdout).split_whitespace().next().expect("a checksum").to_string()
}

/// The archive `name` as the release holds it: the real binary (stripped of its debug information
/// when `strip` is there: the debug build is over 100 MB, which xz takes long to pack) in a
/// folder named after the archive. Built once per test run; every fake release gets a copy.
fn archive(name: &str) -> PathBuf {
    static BUILT: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, path)) = built.iter().find(|(n, _)| n == name) {
        return path.clone();
    }
    if built.is_empty() {
        remove_archives_of_finished_runs();
    }
    let root = std::env::temp_dir().join(format!("rustkeep-install-archive-{}-{}", std::process::id(), built.len()));
    let _ = std::fs::remove_dir_all(&root);
    let stem = name.strip_suffix(".tar.xz").expect("a .tar.xz archive");
    let staging = root.join(stem);
    std::fs::create_dir_all(&staging).expect("create the staging folder");
    std::fs::copy(env!("CARGO_BIN_EXE_rustkeep"), staging.join("rustkeep")).expect("copy the binary");
    // Without `strip` the test is slower, not wrong.
    let _ = Command::new("strip").arg(staging.join("rustkeep")).status();
    std::fs::write(staging.join("README.md"), "# rustkeep\n").expect("write a README");
    let path = root.join(name);
    let status = Command::new("tar").arg("-cJf").arg(&path).arg("-C").arg(&root).arg(stem).env("XZ_OPT", "-1").status().expect("run tar");
    assert!(status.success(), "tar -cJf failed");
    built.push((name.to_string(), path.clone()));
    path
}

/// The archives outlive the tests of a run (no test knows it is the last to use them): those of
/// runs whose process is gone are removed by the next run.
fn remove_archives_of_finished_runs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix("rustkeep-install-archive-").and_then(|rest| rest.split('-').next()) else { continue };
        if pid != std::process::id().to_string() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Builds `dir/ARCHIVE` (see [`archive`]) and `dir/ARCHIVE.sha256` holding `checksum` (the
/// archive's real one when `None`).
fn fake_release(dir: &Path, name: &str, checksum: Option<&str>) {
    std::fs::copy(archive(name), dir.join(name)).expect("copy the archive");
    let sum = checksum.map(String::from).unwrap_or_else(|| sha256(&dir.join(name)));
    // The checksum files of the release hold `HEX *NAME` and an empty line.
    std::fs::write(dir.join(format!("{name}.sha256")), format!("{sum} *{name}\n\n")).expect("write the checksum file");
}

/// A fresh folder with a fake release of this version in `release/` (its checksum file holding
/// `checksum`, the archive's real one when `None`), and where an install from it goes.
struct Release {
    tmp: TempDir,
    /// What `plan` decided for this version's tag.
    decided: BTreeMap<String, String>,
    tag: String,
    release: PathBuf,
    archive: String,
    bin: PathBuf,
    github_path: PathBuf,
    /// The `file://` URL of `release`.
    base: String,
}

impl Release {
    fn new(name: &str, checksum: Option<&str>) -> Release {
        let tmp = TempDir::new(name);
        let tag = format!("v{VERSION}");
        let release = tmp.0.join("release");
        std::fs::create_dir_all(&release).unwrap();
        let decided = plan(&[("RUSTKEEP_VERSION", &tag)]);
        let archive = decided["archive"].clone();
        fake_release(&release, &archive, checksum);
        let (bin, github_path, base) = (tmp.0.join("tools/bin"), tmp.0.join("github_path"), file_uri(&release));
        Release { tmp, decided, tag, release, archive, bin, github_path, base }
    }

    /// The environment of an install from the release into `bin` that puts it on `github_path`.
    fn env(&self) -> Vec<(&str, &str)> {
        vec![
            ("RUSTKEEP_VERSION", self.tag.as_str()),
            ("RUSTKEEP_RELEASE_BASE_URL", self.base.as_str()),
            ("RUSTKEEP_INSTALL_DIR", self.bin.to_str().unwrap()),
            ("GITHUB_PATH", self.github_path.to_str().unwrap()),
        ]
    }
}

#[test]
fn installs_a_verified_release_binary_and_reuses_it() {
    if !tools_present() {
        return;
    }
    let r = Release::new("ok", None);
    let Release { tmp, decided, release, archive, bin, github_path, .. } = &r;
    assert_eq!(decided["mode"], "release");
    assert_eq!(archive, &format!("rustkeep-cli-{}.tar.xz", decided["target"]), "archives are named as the release names them");

    let env = r.env();
    let out = script("install", &env);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "install failed: {stderr}");
    assert!(stderr.contains(&format!("SHA-256 of {archive} verified")), "{stderr}");
    let installed = bin.join("rustkeep");
    let version = Command::new(&installed).arg("--version").output().expect("the installed binary runs");
    assert!(text(&version.stdout).starts_with(&format!("rustkeep {VERSION} (")), "{}", text(&version.stdout));
    assert_eq!(text(&out.stdout), text(&version.stdout), "the step ends by showing the installed version");
    assert_eq!(std::fs::read_to_string(github_path).unwrap(), format!("{}\n", bin.display()), "the folder is put on PATH");

    // A second run (as after the cache step restored the folder) downloads nothing: the release
    // may even be gone.
    std::fs::remove_dir_all(release).unwrap();
    let again = script("install", &env);
    assert!(again.status.success(), "the cached binary is used: {}", text(&again.stderr));
    assert!(text(&again.stderr).contains("(cached)"), "{}", text(&again.stderr));

    // A folder path works as the base as well as a file:// URL.
    std::fs::create_dir_all(release).unwrap();
    fake_release(release, archive, None);
    let other = tmp.0.join("other");
    let out = script(
        "install",
        &[("RUSTKEEP_VERSION", VERSION), ("RUSTKEEP_RELEASE_BASE_URL", release.to_str().unwrap()), ("RUSTKEEP_INSTALL_DIR", other.to_str().unwrap())],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(other.join("rustkeep").is_file());
}

#[test]
fn a_wrong_checksum_fails_clearly_and_installs_nothing() {
    if !tools_present() {
        return;
    }
    let wrong = "0".repeat(64);
    let r = Release::new("bad", Some(&wrong));
    let Release { release, archive, bin, github_path, .. } = &r;
    let actual = sha256(&release.join(archive));

    let mut env = r.env();
    let out = script("install", &env);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("install-rustkeep: error: checksum mismatch for {archive}: the release publishes SHA-256 {wrong}, the download has {actual}. Nothing was installed.")),
        "{stderr}"
    );
    assert!(!bin.join("rustkeep").exists(), "nothing is installed");
    assert!(!github_path.exists(), "nothing is put on PATH");

    // Inside GitHub Actions the message is an annotation.
    env.push(("GITHUB_ACTIONS", "true"));
    let out = script("install", &env);
    assert!(text(&out.stderr).contains(&format!("::error::checksum mismatch for {archive}")), "{}", text(&out.stderr));

    // A missing archive and a checksum file without a checksum are clear failures too.
    std::fs::write(release.join(format!("{archive}.sha256")), "not a checksum\n").unwrap();
    let out = script("install", &env[..4]);
    assert!(text(&out.stderr).contains(&format!("{archive}.sha256 holds no SHA-256 checksum")), "{}", text(&out.stderr));
    std::fs::remove_file(release.join(archive)).unwrap();
    let out = script("install", &env[..4]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("install-rustkeep: error: cannot read"), "{}", text(&out.stderr));
    assert!(!bin.join("rustkeep").exists());
}

#[test]
fn a_release_of_another_version_is_refused() {
    if !tools_present() {
        return;
    }
    let tmp = TempDir::new("other-version");
    let archive = plan(&[("RUSTKEEP_VERSION", "v99.0.0")])["archive"].clone();
    fake_release(&tmp.0, &archive, None);
    let bin = tmp.0.join("bin");
    let out = script(
        "install",
        &[("RUSTKEEP_VERSION", "v99.0.0"), ("RUSTKEEP_RELEASE_BASE_URL", tmp.0.to_str().unwrap()), ("RUSTKEEP_INSTALL_DIR", bin.to_str().unwrap())],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not version 99.0.0"), "{}", text(&out.stderr));
    assert!(!bin.join("rustkeep").exists());
}

#[test]
fn release_for_tags_source_for_branches_commits_and_on_request() {
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let cases: &[(Env, Env)] = &[
        (&[("RUSTKEEP_VERSION", "v1.2.3")], &[("mode", "release"), ("tag", "v1.2.3")]),
        (&[("RUSTKEEP_VERSION", "1.2.3")], &[("mode", "release"), ("tag", "v1.2.3")]),
        (&[("RUSTKEEP_VERSION", "v1.3.0-rc.1")], &[("mode", "release"), ("tag", "v1.3.0-rc.1")]),
        // Empty: the action's own ref when it is a release tag, else the action's checkout.
        (&[("RUSTKEEP_ACTION_REF", "v1.2.3"), ("RUSTKEEP_ACTION_PATH", "/a")], &[("mode", "release"), ("tag", "v1.2.3")]),
        (&[("RUSTKEEP_ACTION_REF", "main"), ("RUSTKEEP_ACTION_PATH", "/a")], &[("mode", "source"), ("source-kind", "path"), ("source-ref", "/a")]),
        (&[("RUSTKEEP_ACTION_PATH", "/a")], &[("mode", "source"), ("source-kind", "path"), ("source-ref", "/a")]),
        (&[("RUSTKEEP_VERSION", "main")], &[("mode", "source"), ("source-kind", "branch"), ("source-ref", "main")]),
        (&[("RUSTKEEP_VERSION", sha)], &[("mode", "source"), ("source-kind", "rev"), ("source-ref", sha)]),
        (&[("RUSTKEEP_VERSION", "v1.2.3"), ("RUSTKEEP_INSTALL", "source")], &[("mode", "source"), ("source-kind", "tag"), ("source-ref", "v1.2.3")]),
        (&[("RUSTKEEP_VERSION", "installed")], &[("mode", "installed")]),
    ];
    for (env, expected) in cases {
        let decided = plan(env);
        for (key, value) in *expected {
            assert_eq!(decided.get(*key).map(String::as_str), Some(*value), "{key} for {env:?}: {decided:?}");
        }
        if decided["mode"] == "release" {
            let target = &decided["target"];
            assert_eq!(decided["cache-key"], format!("rustkeep-{}-{target}", decided["tag"]), "the cache is keyed by version and target");
            assert!(decided["dir"].ends_with(&format!("rustkeep/{}/{target}", decided["tag"])), "{decided:?}");
        }
    }

    // The runner's system and processor pick the archive.
    for (os, arch, target) in [
        ("Linux", "X64", None),
        ("Linux", "ARM64", None),
        ("macOS", "X64", Some("x86_64-apple-darwin")),
        ("macOS", "ARM64", Some("aarch64-apple-darwin")),
        ("Windows", "X64", Some("x86_64-pc-windows-msvc")),
    ] {
        let decided = plan(&[("RUSTKEEP_VERSION", "v1.2.3"), ("RUNNER_OS", os), ("RUNNER_ARCH", arch)]);
        let expected_arch = if arch == "X64" { "x86_64" } else { "aarch64" };
        match target {
            Some(t) => assert_eq!(decided["target"], t),
            // Linux: glibc or musl, whichever this machine has.
            None => assert!(decided["target"].starts_with(&format!("{expected_arch}-unknown-linux-")), "{decided:?}"),
        }
        let ext = if os == "Windows" { "zip" } else { "tar.xz" };
        assert_eq!(decided["archive"], format!("rustkeep-cli-{}.{ext}", decided["target"]));
    }

    // `plan` writes the step outputs the cache step reads.
    let tmp = TempDir::new("plan");
    let output = tmp.0.join("github_output");
    let lines = plan(&[("RUSTKEEP_VERSION", "v1.2.3"), ("GITHUB_OUTPUT", output.to_str().unwrap())]);
    let written = std::fs::read_to_string(&output).unwrap();
    for (key, value) in &lines {
        assert!(written.lines().any(|l| l == format!("{key}={value}")), "{key} in GITHUB_OUTPUT:\n{written}");
    }
}

#[test]
fn impossible_requests_fail_with_what_to_do() {
    for (env, message) in [
        (&[("RUSTKEEP_VERSION", "main"), ("RUSTKEEP_INSTALL", "release")][..], "install: release needs a release tag as version (such as v0.1.0), not `main`"),
        (&[("RUSTKEEP_VERSION", "v1.0.0"), ("RUSTKEEP_INSTALL", "binary")][..], "install is `binary`; use auto, release or source"),
        (
            &[("RUSTKEEP_VERSION", "v1.0.0"), ("RUNNER_OS", "Windows"), ("RUNNER_ARCH", "ARM64")][..],
            "no release archive for Windows on aarch64; use install: source",
        ),
        (&[][..], "no version given and no action checkout to build (RUSTKEEP_ACTION_PATH)"),
    ] {
        let out = script("plan", env);
        assert_eq!(out.status.code(), Some(1), "{env:?}");
        assert_eq!(text(&out.stderr), format!("install-rustkeep: error: {message}\n"), "{env:?}");
    }
    // `installed` with nothing on PATH.
    let bash = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).map(|d| d.join("bash")).find(|p| p.is_file()).expect("bash on PATH");
    let out = Command::new(bash)
        .arg(repo_path("scripts/install-rustkeep.sh"))
        .arg("install")
        .env("RUSTKEEP_VERSION", "installed")
        .env("PATH", "/nonexistent")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run bash");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("version: installed, but there is no rustkeep on PATH"), "{}", text(&out.stderr));
    let usage = script("frobnicate", &[]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn the_action_plans_caches_and_installs_through_the_script() {
    if !tools::pyyaml() {
        return;
    }
    let out = Command::new("python3")
        .args(["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))"])
        .arg(repo_path("action.yml"))
        .output()
        .expect("run python3");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let action: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let find = |pred: &dyn Fn(&serde_json::Value) -> bool| steps.iter().position(pred);
    let plan = find(&|s| s["run"].as_str().is_some_and(|r| r.contains("scripts/install-rustkeep.sh\" plan"))).expect("a step runs the script's plan");
    let cache = find(&|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/cache@"))).expect("a step caches the binary");
    let install = find(&|s| s["run"].as_str().is_some_and(|r| r.contains("scripts/install-rustkeep.sh\" install"))).expect("a step runs the script's install");
    let check = find(&|s| s["run"].as_str().is_some_and(|r| r.contains("--format github"))).expect("the check step");
    assert!(plan < cache && cache < install && install < check, "plan, cache, install, then check");
    let id = steps[plan]["id"].as_str().expect("the plan step has an id");
    assert_eq!(steps[cache]["if"], format!("${{{{ steps.{id}.outputs.mode == 'release' }}}}"), "only release binaries are cached");
    assert_eq!(steps[cache]["with"]["path"], format!("${{{{ steps.{id}.outputs.dir }}}}"));
    assert_eq!(steps[cache]["with"]["key"], format!("${{{{ steps.{id}.outputs.cache-key }}}}"));
    // Both script steps get the same settings, every input that matters among them.
    assert_eq!(steps[plan]["env"], steps[install]["env"]);
    let env = steps[install]["env"].as_object().expect("env");
    for (var, value) in [
        ("RUSTKEEP_VERSION", "${{ inputs.version }}"),
        ("RUSTKEEP_INSTALL", "${{ inputs.install }}"),
        ("RUSTKEEP_ACTION_REF", "${{ github.action_ref }}"),
        ("RUSTKEEP_ACTION_PATH", "${{ github.action_path }}"),
        ("RUSTKEEP_REPOSITORY", "${{ github.action_repository }}"),
    ] {
        assert_eq!(env.get(var).and_then(|v| v.as_str()), Some(value), "{var}");
    }
    assert_eq!(action["inputs"]["install"]["default"], "auto");
}
