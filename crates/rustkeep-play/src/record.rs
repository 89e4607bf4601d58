//! Recordings of played games (docs/play.md, "Recordings and replays").
//!
//! A recording is a JSON Lines file: the first line is the header — the format and its version,
//! the version of the engine's rules it was played under, the seed, the character options, the
//! floor the run started on, and every loaded mod with its ID, version and a hash of its data —
//! and every further line is one input, the canonical
//! spelling of a command that changed the game (`{"input": "move e"}`). Lines are appended and
//! flushed as the game goes, so a recording survives a crash up to its last input.
//!
//! The data hash of a mod is FNV-1a (64 bits) over its manifest and data files, sorted by their
//! path inside the mod, each fed as its path, a zero byte, its text and a zero byte. Moving a mod
//! folder keeps its hash; changing a byte of its data changes it.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use rustkeep_data::project::Project;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// The `format` of a recording's header.
pub const FORMAT: &str = "rustkeep-recording";
/// The version of the recording format this crate reads and writes.
pub const VERSION: u32 = 1;
/// The largest recording read (256 MiB): far beyond any played game, and a bound on memory.
const MAX_BYTES: u64 = 256 << 20;

/// A loaded mod as a recording names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ModStamp {
    /// The mod's ID (`core` for the bundled game).
    pub id: String,
    /// The version its `mod.toml` gives.
    pub version: String,
    /// `fnv1a64:` and 16 hexadecimal digits: the hash of the mod's files (paths and texts).
    #[schemars(regex(pattern = r"^fnv1a64:[0-9a-f]{16}$"))]
    pub hash: String,
}

/// The first line of a recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always `rustkeep-recording`.
    #[schemars(extend("const" = "rustkeep-recording"))]
    pub format: String,
    /// The recording format's version.
    pub version: u32,
    /// The version of the engine's rules the game was played under (`rustkeep_engine::RULES`);
    /// a recording without it was made under rules 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<u32>,
    /// The seed of the game.
    pub seed: u64,
    /// The character options chosen.
    pub options: Vec<String>,
    /// The floor the run started on, when not the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor: Option<String>,
    /// Every loaded mod, in load order.
    pub mods: Vec<ModStamp>,
}

/// Every further line of a recording: one input.
#[derive(Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Input<'a> {
    /// A command in its canonical spelling (`move e`, `pickup`, `buy core:potion`).
    pub input: &'a str,
}

/// One line of a recording (a file of JSON Lines): the header first, then inputs.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
// Doc comments on the variants would become descriptions in the published schema.
#[allow(missing_docs)]
pub enum Line<'a> {
    Header(&'a Header),
    Input(Input<'a>),
}

/// A recording read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// The first line.
    pub header: Header,
    /// Every further line's command, in order.
    pub inputs: Vec<String>,
}

fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// Every loaded mod, in load order, with its data hash.
pub fn stamps(project: &Project) -> Vec<ModStamp> {
    project
        .mods
        .iter()
        .map(|m| {
            let mut files: Vec<(String, &str)> = m
                .manifest_file
                .iter()
                .chain(m.data_files.iter())
                .map(|id| {
                    let f = project.file(*id);
                    let inside = match (&m.root, &f.disk_path) {
                        (Some(root), Some(disk)) => disk.strip_prefix(root).map(|p| p.to_string_lossy().replace('\\', "/")).unwrap_or_else(|_| f.path.clone()),
                        // The bundled core's files read `<core>/name.toml`.
                        _ => f.path.rsplit_once('/').map(|(_, name)| name.to_string()).unwrap_or_else(|| f.path.clone()),
                    };
                    (inside, &*f.text)
                })
                .collect();
            files.sort();
            let mut hash = 0xcbf2_9ce4_8422_2325u64;
            for (path, text) in files {
                fnv1a(&mut hash, path.as_bytes());
                fnv1a(&mut hash, &[0]);
                fnv1a(&mut hash, text.as_bytes());
                fnv1a(&mut hash, &[0]);
            }
            // The bundled core has no manifest: its version is the toolkit's that carries it.
            let version = m.manifest.version.clone().unwrap_or_else(|| if m.root.is_none() { env!("CARGO_PKG_VERSION").to_string() } else { String::new() });
            ModStamp { id: m.id.clone(), version, hash: format!("fnv1a64:{hash:016x}") }
        })
        .collect()
}

/// Why a recording made under the rules `recorded` cannot be replayed by this engine; `None`
/// when the rules are the same.
pub fn rules_mismatch(recorded: Option<u32>) -> Option<String> {
    let rules = recorded.unwrap_or(rustkeep_engine::RULES_BEFORE_NAMED);
    (rules != rustkeep_engine::RULES).then(|| {
        let named = if recorded.is_some() { "" } else { " (it names none: it is older than rules versions)" };
        format!("it was played under the engine's rules version {rules}{named}; this rustkeep plays by rules version {}", rustkeep_engine::RULES)
    })
}

/// Why a recording does not fit the loaded mods, one sentence per difference; empty when it fits.
pub fn mismatches(recorded: &[ModStamp], loaded: &[ModStamp]) -> Vec<String> {
    let mut out = Vec::new();
    for r in recorded {
        match loaded.iter().find(|l| l.id == r.id) {
            None => out.push(format!("mod `{}` {} is not loaded", r.id, r.version)),
            Some(l) if l.version != r.version => out.push(format!("mod `{}` was version {} when recorded; version {} is loaded", r.id, r.version, l.version)),
            Some(l) if l.hash != r.hash => {
                out.push(format!("the data of mod `{}` {} changed since the recording (data hash {} then, {} now)", r.id, r.version, r.hash, l.hash))
            }
            Some(_) => {}
        }
    }
    for l in loaded {
        if !recorded.iter().any(|r| r.id == l.id) {
            out.push(format!("mod `{}` {} is loaded but was not when recorded", l.id, l.version));
        }
    }
    out
}

/// Appends the inputs of a game being played to its recording.
pub struct Recorder {
    file: File,
    path: String,
}

impl Recorder {
    /// Creates (or truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &Header) -> Result<Recorder, String> {
        let shown = path.display().to_string();
        let mut file = rustkeep_data::files::create_file(path).map_err(|e| format!("cannot write the recording {shown}: {e}"))?;
        let line = serde_json::to_string(&Line::Header(header)).map_err(|e| e.to_string())?;
        writeln!(file, "{line}").and_then(|()| file.flush()).map_err(|e| format!("cannot write the recording {shown}: {e}"))?;
        Ok(Recorder { file, path: shown })
    }

    /// Appends one input and flushes it.
    pub fn push(&mut self, input: &str) -> Result<(), String> {
        let line = serde_json::to_string(&Line::Input(Input { input })).map_err(|e| e.to_string())?;
        writeln!(self.file, "{line}").and_then(|()| self.file.flush()).map_err(|e| format!("cannot write the recording {}: {e}", self.path))
    }

    /// Flushes the recording to the disk (at the end of a game).
    pub fn finish(self) -> Result<(), String> {
        self.file.sync_all().map_err(|e| format!("cannot write the recording {}: {e}", self.path))
    }
}

/// Reads a recording; every malformed part is an error naming its line.
pub fn read(path: &Path) -> Result<Recording, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read the recording {shown}: {e}"))?;
    if meta.len() > MAX_BYTES {
        return Err(format!("{shown}: {} bytes is more than a recording may hold ({MAX_BYTES})", meta.len()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read the recording {shown}: {e}"))?;
    from_bytes(&bytes).map_err(|e| format!("{shown}: {e}"))
}

/// Reads a recording from the bytes of its file.
pub fn from_bytes(bytes: &[u8]) -> Result<Recording, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not a recording: invalid UTF-8 at byte {}", e.valid_up_to()))?;
    parse(text)
}

/// Reads a recording from its text.
pub fn parse(text: &str) -> Result<Recording, String> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (_, first) = lines.next().ok_or("not a recording: the file is empty")?;
    let value: Json = serde_json::from_str(first).map_err(|e| format!("line 1: not a recording: {e}"))?;
    match value.get("format").and_then(Json::as_str) {
        Some(FORMAT) => {}
        Some(other) => return Err(format!("line 1: not a recording: its format is `{other}`, not `{FORMAT}`")),
        None => return Err(format!("line 1: not a recording: the header has no \"format\": \"{FORMAT}\"")),
    }
    match value.get("version").and_then(Json::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => return Err(format!("line 1: recording version {v} is not supported (this rustkeep reads version {VERSION})")),
        None => return Err("line 1: the header has no version".into()),
    }
    let header: Header = serde_json::from_value(value).map_err(|e| format!("line 1: {e}"))?;
    let mut inputs = Vec::new();
    for (i, line) in lines {
        let v: Json = serde_json::from_str(line).map_err(|e| format!("line {}: not an input: {e}", i + 1))?;
        let input = v
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.get("input"))
            .and_then(Json::as_str)
            .ok_or_else(|| format!("line {}: an input line is {{\"input\": \"COMMAND\"}}", i + 1))?;
        inputs.push(input.to_string());
    }
    Ok(Recording { header, inputs })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            rules: Some(rustkeep_engine::RULES),
            seed: 7,
            options: vec!["core:warrior".into()],
            floor: None,
            mods: vec![ModStamp { id: "core".into(), version: "1.1.0".into(), hash: "fnv1a64:0000000000000001".into() }],
        }
    }

    #[test]
    fn a_written_recording_reads_back() {
        let dir = rustkeep_testutil::TempDir::new("record");
        let path = dir.join("run.rkrec");
        let mut r = Recorder::create(&path, &header()).unwrap();
        r.push("move e").unwrap();
        r.push("use core:health_potion").unwrap();
        r.finish().unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back, Recording { header: header(), inputs: vec!["move e".into(), "use core:health_potion".into()] });
    }

    #[test]
    fn malformed_recordings_name_the_line() {
        assert!(parse("").unwrap_err().contains("empty"));
        assert!(parse("{\"format\":\"rustkeep-save\",\"version\":1}").unwrap_err().contains("`rustkeep-save`"));
        assert!(parse("[1,2]").unwrap_err().contains("no \"format\""));
        let h = serde_json::to_string(&header()).unwrap();
        assert!(parse(&format!("{h}\n{{\"input\":3}}")).unwrap_err().starts_with("line 2:"));
        assert!(parse(&format!("{h}\nmove e")).unwrap_err().starts_with("line 2:"));
        let v2 = h.replace("\"version\":1", "\"version\":2");
        assert!(parse(&v2).unwrap_err().contains("version 2 is not supported"));
        let extra = h.replace("\"seed\"", "\"cheat\":true,\"seed\"");
        assert!(parse(&extra).unwrap_err().contains("cheat"));
    }

    #[test]
    fn the_rules_version_is_named_and_compared() {
        let h = serde_json::to_string(&header()).unwrap();
        assert!(h.contains(&format!("\"rules\":{}", rustkeep_engine::RULES)), "{h}");
        assert_eq!(rules_mismatch(Some(rustkeep_engine::RULES)), None);
        let older = rules_mismatch(None).expect("a recording without rules is older");
        assert!(older.contains("rules version 2") && older.contains("names none"), "{older}");
        let other = rules_mismatch(Some(99)).expect("other rules");
        assert!(other.contains("rules version 99") && other.contains(&format!("plays by rules version {}", rustkeep_engine::RULES)), "{other}");
    }

    #[test]
    fn the_hash_follows_the_data_not_the_folder() {
        let make = |text: &str| {
            let mut p = Project::with_bundled_core();
            p.add_memory_mod("m", &[("mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"1.0.0\"\n"), ("items.toml", text)]);
            stamps(&p)
        };
        let a = make("[[items]]\nid = \"m:a\"\nname = \"A\"\n");
        let b = make("[[items]]\nid = \"m:a\"\nname = \"B\"\n");
        assert_eq!(a.len(), 2);
        assert_eq!(a[0], b[0], "the core is the same");
        assert_ne!(a[1].hash, b[1].hash, "one changed byte changes the hash");
        assert_eq!(a, make("[[items]]\nid = \"m:a\"\nname = \"A\"\n"), "the same data, the same hash");
        let diff = mismatches(&a, &b);
        assert_eq!(diff.len(), 1);
        assert!(diff[0].contains("the data of mod `m` 1.0.0 changed"), "{diff:?}");
        assert!(mismatches(&a[..1], &a).iter().any(|m| m.contains("is loaded but was not when recorded")));
        assert!(mismatches(&a, &a[..1]).iter().any(|m| m.contains("is not loaded")));
    }
}
