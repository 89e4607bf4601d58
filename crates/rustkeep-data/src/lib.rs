//! Vocabulary, data model and loading for rustkeep mods.
//!
//! It must never run a rule that spans files or judge what data means beyond its grammar and
//! schema (that is `rustkeep-check`; what resolving meets between two places it notes as
//! [`resolve::Finding`]s for the validator to report), never play anything (`rustkeep-engine`), and never panic or
//! hang on any input: every malformed file, value or manifest becomes diagnostics.
//!
//! - [`vocab`]: the engine vocabulary and registry schemas, as data (the single source of truth).
//! - [`text`]: byte spans and the line index that converts them at the edges.
//! - [`source`], [`project`]: sources and mod discovery (workspaces, manifests, the bundled core).
//! - [`echo`]: what is echoed of a stranger's files, with its control characters escaped.
//! - [`files`]: the one file layer: writes that never follow a link, output folders without
//!   links, reads that stay inside the workspace.
//! - [`tree`]: one TOML file read into the tree lowering walks (a single-pass reader for mod
//!   data, the `toml` crate's reader for the rest).
//! - [`lower`]: one data file → typed [`model`] entries plus structural diagnostics; one
//!   scenario file → its [`scenario`] model, with the same diagnostics.
//! - [`resolve`]: load order and the resolved registries (overrides, namespaces, duplicates), and
//!   what is wrong between two places, as findings.
//! - [`db`]: the model of a loaded project (facts, resolved registries, loot-table kinds), which
//!   the validator and the engine both read; [`graph`]: the one cycle finder.
//! - [`diag`]: diagnostics as values; [`suggest`]: "did you mean".
//! - [`copy`]: one entry's TOML as written, and as an override a mod can start from.
//! - [`number`]: numbers as every output writes them (a chance as a percentage, a value beside
//!   the bound it was checked against), rounded in decimal.
//! - [`reference`]: the modders' data reference (`docs/reference.md`), generated from [`vocab`].
//! - [`threads`]: the one thread setting (`RUSTKEEP_THREADS`), which sizes rayon's global pool
//!   that all parallel work runs on; [`hash`]: the hasher of the ID maps (`rustc-hash`).

#![forbid(unsafe_code)]

pub mod copy;
pub mod db;
pub mod diag;
pub mod echo;
pub mod files;
pub mod graph;
pub mod grid;
pub mod hash;
pub mod lower;
pub mod manifest;
pub mod model;
pub mod number;
pub mod project;
pub mod reference;
pub mod resolve;
pub mod scenario;
pub mod schema;
pub mod source;
pub mod suggest;
pub mod syntax;
pub mod text;
pub mod threads;
pub mod tree;
pub mod vocab;
