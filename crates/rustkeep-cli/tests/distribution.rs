//! How rustkeep is distributed, checked against the one place each fact is written:
//!
//! - the crates are ready for crates.io (`cargo install rustkeep-cli`): metadata, versions of the
//!   workspace dependencies, dev-only crates unpublished (`cargo metadata`);
//! - the repository URL, written once in the workspace's `Cargo.toml`, is the one every other
//!   file names (the VS Code manifest, the docs, the install script, the Mason package, …);
//! - the release archives, named by the release configuration (`dist-workspace.toml`; the names
//!   are confirmed by `dist plan` itself when it is installed, as in CI), are the ones the Mason
//!   package, the install script of the GitHub Action and the README point at;
//! - the versions of the VS Code extension and of the Mason package are the workspace's.
//!
//! `.ci/run` goes further where this cannot: `cargo publish --dry-run`, a real `dist build` of
//! this machine's archive with its smoke test, the shell installer run against it, and the VS Code
//! package with the binary inside (scripts/check-release.sh).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use rustkeep_testutil::{cargo_metadata, repo_path, repo_root, require, tools, PRODUCT_CRATES};
use serde_json::Value;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The crates that are published, in dependency order (the order `cargo publish` takes them).
const PUBLISHED: &[&str] = PRODUCT_CRATES;

/// Crates for the workspace's own tests, benchmarks and tasks, never published.
const DEV_ONLY: &[&str] = &["rustkeep-testutil", "rustkeep-bench", "xtask"];

/// The categories of crates.io this workspace uses (a slug crates.io does not know is an error
/// when publishing).
const CATEGORIES: &[&str] = &["command-line-utilities", "development-tools", "game-development", "parser-implementations", "simulation", "text-editors"];

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo_path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// A `key = "value"` line of a TOML file (the files read here keep such keys on one line).
fn toml_string(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// The repository URL, from the only place it is written: `[workspace.package]` of `Cargo.toml`.
fn repository() -> String {
    let manifest = read("Cargo.toml");
    let section = manifest.split("[workspace.package]").nth(1).expect("[workspace.package]");
    let section = section.split("\n[").next().expect("the section");
    toml_string(section, "repository").expect("[workspace.package] repository")
}

/// `owner/name` of the repository.
fn slug() -> String {
    repository().strip_prefix("https://github.com/").expect("a GitHub repository").trim_end_matches('/').to_string()
}

/// The targets of the release, from `dist-workspace.toml`.
fn release_targets() -> Vec<String> {
    let config = read("dist-workspace.toml");
    let line = config.lines().find(|l| l.trim_start().starts_with("targets")).expect("dist-workspace.toml lists its targets");
    let mut targets: Vec<String> = line.split('"').skip(1).step_by(2).map(String::from).collect();
    targets.sort();
    targets
}

/// The release tooling names each archive `APP-TARGET.EXT`: the app is the binary's package,
/// the Windows archive a `.zip` with the binary at its top, the others a `.tar.xz` holding a
/// folder named after the archive.
fn archive_name(target: &str) -> String {
    if target.contains("-windows-") {
        format!("rustkeep-cli-{target}.zip")
    } else {
        format!("rustkeep-cli-{target}.tar.xz")
    }
}

/// The binary's path inside the archive of `target`.
fn binary_in_archive(target: &str) -> String {
    match archive_name(target).strip_suffix(".tar.xz") {
        Some(stem) => format!("{stem}/rustkeep"),
        None => "rustkeep.exe".to_string(),
    }
}

/// The Mason platform of each release target.
fn mason_platform(target: &str) -> &'static str {
    match target {
        "x86_64-unknown-linux-gnu" => "linux_x64_gnu",
        "x86_64-unknown-linux-musl" => "linux_x64_musl",
        "aarch64-unknown-linux-gnu" => "linux_arm64_gnu",
        "aarch64-unknown-linux-musl" => "linux_arm64_musl",
        "x86_64-apple-darwin" => "darwin_x64",
        "aarch64-apple-darwin" => "darwin_arm64",
        "x86_64-pc-windows-msvc" => "win_x64",
        other => panic!("the release builds {other}, which has no Mason platform here: add it to this table and to the Mason package"),
    }
}

fn yaml(rel: &str) -> Value {
    let out = Command::new("python3")
        .args(["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))"])
        .arg(repo_path(rel))
        .output()
        .expect("run python3");
    assert!(out.status.success(), "{rel} is not valid YAML: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON from python")
}

/// The version of cargo-dist the release is made with (`cargo-dist-version` of its config).
fn pinned_dist_version() -> String {
    toml_string(&read("dist-workspace.toml"), "cargo-dist-version").expect("dist-workspace.toml pins cargo-dist-version")
}

/// `dist plan --output-format=json`, when the pinned cargo-dist is installed (CI installs it).
fn dist_plan() -> Option<Value> {
    let pinned = pinned_dist_version();
    let version =
        Command::new("dist").arg("--version").output().ok().filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let present = version.as_deref() == Some(&format!("cargo-dist {pinned}"));
    let what = format!("cargo-dist {pinned} (`dist`; found: {})", version.as_deref().unwrap_or("none"));
    if !require(&what, present, &format!("cargo install --locked cargo-dist --version {pinned}")) {
        return None;
    }
    let out = Command::new("dist").args(["plan", "--output-format=json"]).current_dir(repo_root()).output().expect("run dist plan");
    assert!(
        out.status.success(),
        "dist plan failed (a stale .github/workflows/release.yml is regenerated by `dist generate`):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("dist plan prints JSON"))
}

#[test]
fn publishable_crates_carry_what_crates_io_needs() {
    let meta = cargo_metadata();
    let packages = meta["packages"].as_array().expect("packages");
    let by_name: BTreeMap<&str, &Value> = packages.iter().map(|p| (p["name"].as_str().expect("a name"), p)).collect();
    let published: Vec<&str> = by_name.iter().filter(|(_, p)| p["publish"].is_null()).map(|(n, _)| *n).collect();
    let mut expected: Vec<&str> = PUBLISHED.to_vec();
    expected.sort();
    assert_eq!(
        published, expected,
        "the published crates: a new crate is either published (with the metadata below, a version on its entry in \
         [workspace.dependencies], and its place in PUBLISHED of this test) or marked `publish = false` (and listed in DEV_ONLY)"
    );
    for name in DEV_ONLY {
        assert_eq!(by_name[name]["publish"], serde_json::json!([]), "{name} is dev-only: `publish = false`");
    }
    for (at, name) in PUBLISHED.iter().enumerate() {
        let p = by_name[name];
        assert_eq!(p["version"], VERSION, "{name} has the workspace's version");
        assert!(p["description"].as_str().is_some_and(|d| d.len() > 20), "{name} has a description");
        assert_eq!(p["license"], "MIT OR Apache-2.0", "{name}'s license");
        assert_eq!(p["repository"].as_str(), Some(repository().as_str()), "{name} inherits the repository (`repository.workspace = true`)");
        assert!(p["rust_version"].is_string(), "{name} inherits rust-version");
        let manifest = Path::new(p["manifest_path"].as_str().expect("manifest_path"));
        let readme = p["readme"].as_str().unwrap_or_else(|| panic!("{name} has a readme"));
        let readme_text =
            std::fs::read_to_string(manifest.parent().expect("a folder").join(readme)).unwrap_or_else(|e| panic!("{name}'s readme {readme}: {e}"));
        assert!(readme_text.starts_with(&format!("# {name}\n")), "{name}'s readme is about {name}");
        let keywords = p["keywords"].as_array().expect("keywords");
        assert!((1..=5).contains(&keywords.len()), "{name}: 1 to 5 keywords (crates.io's limit)");
        for k in keywords {
            let k = k.as_str().expect("a keyword");
            assert!(k.len() <= 20 && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{name}: crates.io refuses the keyword `{k}`");
        }
        let categories = p["categories"].as_array().expect("categories");
        assert!(!categories.is_empty() && categories.len() <= 5, "{name}: 1 to 5 categories");
        for c in categories {
            assert!(CATEGORIES.contains(&c.as_str().expect("a category")), "{name}: `{c}` is not one of {CATEGORIES:?}");
        }
        for dep in p["dependencies"].as_array().expect("dependencies") {
            let Some(target) = dep["name"].as_str().filter(|d| by_name.contains_key(d)) else { continue };
            let kind = dep["kind"].as_str().unwrap_or("normal");
            if kind == "dev" {
                // A path dev-dependency without a version is dropped from the published crate;
                // one with a version must be published itself.
                if DEV_ONLY.contains(&target) {
                    assert_eq!(dep["req"], "*", "{name}: the dev-dependency on {target} (unpublished) carries no version");
                }
                continue;
            }
            assert_eq!(dep["req"], format!("^{VERSION}"), "{name} depends on {target} by path and by the workspace's version (in [workspace.dependencies])");
            let target_at = PUBLISHED.iter().position(|n| *n == target).unwrap_or_else(|| panic!("{name} depends on {target}, which is not published"));
            assert!(target_at < at, "{target} comes before {name} in the publishing order");
        }
    }
    // Only `rustkeep` is released as a binary: other published crates with binaries opt out.
    let released: Vec<&str> = PUBLISHED
        .iter()
        .copied()
        .filter(|n| by_name[n]["targets"].as_array().expect("targets").iter().any(|t| t["kind"] == serde_json::json!(["bin"])))
        .filter(|n| by_name[n]["metadata"]["dist"]["dist"] != false)
        .collect();
    assert_eq!(released, ["rustkeep-cli"], "the crates whose binaries the release ships");
}

#[test]
fn the_bundled_core_is_inside_the_data_crate() {
    // `cargo package` takes the files below the crate's folder; the build script embeds `core/`.
    let build = read("crates/rustkeep-data/build.rs");
    assert!(build.contains("env!(\"CARGO_MANIFEST_DIR\")).join(\"core\")"), "the build script reads core/ from the crate's own folder");
    let core: Vec<_> = std::fs::read_dir(repo_path("crates/rustkeep-data/core")).expect("core/").flatten().collect();
    assert!(core.len() >= 10, "the core data files are in crates/rustkeep-data/core");
    let manifest = read("crates/rustkeep-data/Cargo.toml");
    assert!(!manifest.contains("exclude") && !manifest.contains("include"), "nothing keeps core/ out of the package");
}

/// Every `github.com/OWNER/rustkeep-modkit`, `pkg:github/OWNER/rustkeep-modkit` and
/// `OWNER/rustkeep-modkit@` of a text, as `OWNER/rustkeep-modkit`.
fn repository_mentions(text: &str) -> Vec<String> {
    let name = "/rustkeep-modkit";
    let mut found = Vec::new();
    for (at, _) in text.match_indices(name) {
        let before = &text[..at];
        let owner_start = before.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')).map_or(0, |i| i + 1);
        let owner = &before[owner_start..];
        let prefix = &before[..owner_start];
        let after = &text[at + name.len()..];
        let is_reference = prefix.ends_with("github.com/") || prefix.ends_with("pkg:github/") || prefix.ends_with("REPOSITORY=") || after.starts_with('@');
        if is_reference && !owner.is_empty() {
            found.push(format!("{owner}{name}"));
        }
    }
    found
}

/// The files of the repository as git knows them (tracked or new), without generated output.
fn repository_files() -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .current_dir(repo_root())
        .output()
        .ok()
        .filter(|o| o.status.success());
    let Some(out) = out else {
        panic!("this test lists the repository's files with git; run it in a git checkout");
    };
    String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect()
}

#[test]
fn the_repository_url_is_written_once_and_everything_else_agrees() {
    let expected = slug();
    assert_eq!(repository(), format!("https://github.com/{expected}"));
    let mut files_naming_it = Vec::new();
    for file in repository_files() {
        // This file spells other owners on purpose, in its examples.
        if file == "crates/rustkeep-cli/tests/distribution.rs" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(repo_path(&file)) else { continue };
        let mentions = repository_mentions(&text);
        for m in &mentions {
            assert_eq!(m, &expected, "{file} names the repository {m}; Cargo.toml's `repository` says {expected}");
        }
        if !mentions.is_empty() {
            files_naming_it.push(file);
        }
    }
    // The places that must name it (so the check above cannot pass by finding nothing).
    for file in [
        "README.md",
        "docs/ci.md",
        "editors/vscode/package.json",
        "editors/vscode/src/server.ts",
        "editors/neovim/mason/packages/rustkeep/package.yaml",
        "scripts/install-rustkeep.sh",
        "crates/rustkeep-cli/README.md",
    ] {
        assert!(files_naming_it.iter().any(|f| f == file), "{file} names the repository");
    }
    let manifest: Value = serde_json::from_str(&read("editors/vscode/package.json")).expect("package.json");
    assert_eq!(manifest["repository"]["url"], format!("{}.git", repository()));
    assert!(read("scripts/install-rustkeep.sh").contains(&format!("\nDEFAULT_REPOSITORY={expected}\n")));
}

#[test]
fn repository_mentions_are_found_in_every_form() {
    let text = "see https://github.com/a/rustkeep-modkit/releases, pkg:github/b/rustkeep-modkit@v1, uses: c/rustkeep-modkit@v0.1.0, \
                REPOSITORY=d/rustkeep-modkit\n and /path/to/rustkeep-modkit/editors";
    assert_eq!(repository_mentions(text), ["a/rustkeep-modkit", "b/rustkeep-modkit", "c/rustkeep-modkit", "d/rustkeep-modkit"]);
}

#[test]
fn the_vscode_extension_has_the_workspace_version() {
    let manifest: Value = serde_json::from_str(&read("editors/vscode/package.json")).expect("package.json");
    assert_eq!(manifest["version"], VERSION, "editors/vscode/package.json: the extension bundles the binary of the same version");
    let lock: Value = serde_json::from_str(&read("editors/vscode/package-lock.json")).expect("package-lock.json");
    assert_eq!(lock["version"], VERSION, "editors/vscode/package-lock.json follows package.json (`npm install` rewrites it)");
}

#[test]
fn the_mason_package_points_at_the_release_archives() {
    if !tools::pyyaml() {
        return;
    }
    let package = yaml("editors/neovim/mason/packages/rustkeep/package.yaml");
    for key in ["name", "description", "homepage", "licenses", "languages", "categories", "source"] {
        assert!(!package[key].is_null(), "the Mason registry requires `{key}`");
    }
    assert_eq!(package["name"], "rustkeep");
    assert_eq!(package["homepage"].as_str(), Some(repository().as_str()));
    assert_eq!(package["licenses"], serde_json::json!(["MIT", "Apache-2.0"]), "the licenses of `MIT OR Apache-2.0`");
    assert_eq!(package["languages"], serde_json::json!(["TOML"]));
    for category in package["categories"].as_array().expect("categories") {
        assert!(["LSP", "Linter", "Formatter", "DAP", "Runtime", "Compiler"].contains(&category.as_str().unwrap_or("")), "Mason has no category {category}");
    }
    assert_eq!(package["source"]["id"], format!("pkg:github/{}@v{VERSION}", slug()), "the release of the workspace's version");
    assert_eq!(package["bin"]["rustkeep"], "{{source.asset.bin}}");
    let assets = package["source"]["asset"].as_array().expect("source.asset");
    let targets = release_targets();
    assert_eq!(assets.len(), targets.len(), "one asset per target of the release");
    for target in &targets {
        let platform = mason_platform(target);
        let asset = assets.iter().find(|a| a["target"] == platform).unwrap_or_else(|| panic!("no asset for {platform} ({target})"));
        assert_eq!(asset["file"].as_str(), Some(archive_name(target).as_str()), "the archive of {target}");
        assert_eq!(asset["bin"].as_str(), Some(binary_in_archive(target).as_str()), "the binary inside the archive of {target}");
    }
}

#[test]
fn dist_names_the_archives_as_everything_else_expects() {
    let Some(plan) = dist_plan() else { return };
    assert_eq!(plan["announcement_tag"], format!("v{VERSION}"), "the release tag");
    let artifacts = plan["artifacts"].as_object().expect("artifacts");
    let mut archive_targets: Vec<String> = Vec::new();
    for (name, artifact) in artifacts {
        if artifact["kind"] != "executable-zip" {
            continue;
        }
        let target = artifact["target_triples"][0].as_str().expect("a target").to_string();
        assert_eq!(name, &archive_name(&target), "the archive of {target}");
        assert_eq!(artifact["checksum"].as_str(), Some(format!("{name}.sha256").as_str()), "the checksum file of {name}");
        let assets: Vec<&str> = artifact["assets"].as_array().expect("assets").iter().filter_map(|a| a["path"].as_str()).collect();
        let exe = if target.contains("-windows-") { "rustkeep.exe" } else { "rustkeep" };
        for needed in [exe, "completions", "man", "README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
            assert!(assets.contains(&needed), "{name} ships {needed}: {assets:?}");
        }
        archive_targets.push(target);
    }
    archive_targets.sort();
    assert_eq!(archive_targets, release_targets(), "an archive for every target of dist-workspace.toml");
    for installer in ["rustkeep-cli-installer.sh", "rustkeep-cli-installer.ps1"] {
        assert_eq!(artifacts[installer]["kind"], "installer", "{installer}");
    }
    assert!(artifacts.contains_key("sha256.sum"), "the release publishes all checksums in sha256.sum");
    // The README shows the installers as they are published, for the latest release.
    let readme = read("README.md");
    for installer in ["rustkeep-cli-installer.sh", "rustkeep-cli-installer.ps1"] {
        let hint = artifacts[installer]["install_hint"].as_str().expect("an install hint");
        let latest = hint.replace(&format!("/releases/download/v{VERSION}/"), "/releases/latest/download/");
        assert!(readme.contains(&latest), "README.md shows `{latest}`");
    }
}

#[test]
fn the_readme_lists_every_way_to_install() {
    let readme = read("README.md");
    let section = readme.split("\n## Installation\n").nth(1).expect("README.md has an `## Installation` section");
    let section = section.split("\n## ").next().expect("the section");
    let repo = repository();
    for needed in [
        format!("{repo}/releases/latest/download/rustkeep-cli-installer.sh"),
        format!("{repo}/releases/latest/download/rustkeep-cli-installer.ps1"),
        "cargo install rustkeep-cli --locked".to_string(),
        format!("cargo install --locked --git {repo} rustkeep-cli"),
        "rustkeep-VERSION-PLATFORM.vsix".to_string(),
        ":MasonInstall rustkeep".to_string(),
        format!("uses: {}@v{VERSION}", slug()),
        "rustkeep completions".to_string(),
    ] {
        assert!(section.contains(&needed), "README.md's Installation section shows `{needed}`");
    }
    // Each way names the test that covers it, and those tests exist.
    for test in ["scripts/check-release.sh", "install_script.rs", "distribution.rs", "generated_assets.rs", "server.test.ts"] {
        assert!(section.contains(test), "README.md's Installation section names {test}");
    }
    for path in [
        "scripts/check-release.sh",
        "crates/rustkeep-cli/tests/install_script.rs",
        "crates/rustkeep-cli/tests/generated_assets.rs",
        "editors/vscode/src/test/server.test.ts",
    ] {
        assert!(repo_path(path).is_file(), "{path} exists");
    }
}

#[test]
fn the_release_workflow_is_generated_and_builds_the_vscode_packages() {
    let release = read(".github/workflows/release.yml");
    assert!(release.starts_with("# This file was autogenerated by dist"), "release.yml is generated by `dist generate` from dist-workspace.toml");
    assert!(release.contains(&format!("cargo-dist/releases/download/v{}/", pinned_dist_version())), "release.yml installs the pinned cargo-dist");
    assert!(release.contains("uses: $/.github/workflows/build-vscode.yml"), "the release runs the VS Code packaging job");
    let vscode = read(".github/workflows/build-vscode.yml");
    assert!(vscode.contains("workflow_call:") && vscode.contains("plan:"), "build-vscode.yml is a job dist can call");
    assert!(
        vscode.contains("scripts/package-platform.js --dist ../../target/distrib") && vscode.contains("--verify"),
        "it packages every platform from the archives and verifies them"
    );
    assert!(vscode.contains("name: artifacts-vscode"), "its packages are uploaded where the release collects its files");
    if tools::pyyaml() {
        // Both are valid workflows; PyYAML reads the key `on` as true (YAML 1.1).
        let release = yaml(".github/workflows/release.yml");
        let job = &release["jobs"]["custom-build-vscode"];
        assert_eq!(job["uses"], "$/.github/workflows/build-vscode.yml");
        assert_eq!(job["needs"], serde_json::json!(["plan", "build-local-artifacts"]), "it runs once the archives are built");
        let vscode = yaml(".github/workflows/build-vscode.yml");
        assert_eq!(vscode["true"]["workflow_call"]["inputs"]["plan"]["required"], true);
        let steps = vscode["jobs"]["vscode"]["steps"].as_array().expect("steps");
        let download =
            steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/download-artifact@"))).expect("it downloads the archives");
        assert_eq!(download["with"]["pattern"], "artifacts-build-local-*");
        let upload = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/upload-artifact@"))).expect("it uploads the packages");
        assert_eq!(upload["with"]["name"], "artifacts-vscode");
    }
    let config = read("dist-workspace.toml");
    assert!(config.contains("global-artifacts-jobs = [\"./build-vscode\"]"));
    assert!(config.contains("installers = [\"shell\", \"powershell\"]"));
}

#[test]
fn ci_installs_the_pinned_cargo_dist() {
    let ci = read(".ci/run");
    assert!(ci.contains("cargo-dist-version"), ".ci/run reads the pinned version from dist-workspace.toml");
    assert!(ci.contains("scripts/check-release.sh"), ".ci/run runs the release check");
    assert!(ci.contains("cargo publish --dry-run"), ".ci/run packages every crate");
}

#[test]
fn the_ci_docs_show_the_action_with_a_version_pin_and_no_rust_toolchain() {
    if !tools::pyyaml() {
        return;
    }
    let page = read("docs/ci.md");
    let section = page.split("## GitHub Actions\n").nth(1).expect("docs/ci.md has a GitHub Actions section");
    let block = section.split("```yaml\n").nth(1).and_then(|b| b.split("```").next()).expect("the section starts with a workflow");
    let out = Command::new("python3")
        .args(["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(block.as_bytes())?;
            child.wait_with_output()
        })
        .expect("run python3");
    let workflow: Value = serde_json::from_slice(&out.stdout).expect("the workflow is YAML");
    let steps: Vec<&Value> = workflow["jobs"].as_object().expect("jobs").values().flat_map(|j| j["steps"].as_array().expect("steps")).collect();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    for toolchain in ["dtolnay/rust-toolchain", "actions-rs/toolchain", "Swatinem/rust-cache"] {
        assert!(!uses.iter().any(|u| u.starts_with(toolchain)), "the example needs no Rust toolchain: {uses:?}");
    }
    let ours = steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with(&format!("{}@", slug())))).expect("a step uses the action");
    let tag = ours["uses"].as_str().unwrap().split_once('@').unwrap().1;
    assert_eq!(tag, format!("v{VERSION}"), "the example pins the current release");
    assert_eq!(ours["with"]["version"], tag, "and installs that release's binary");
}
