//! What the pages are made of: the mods in load order with the entries each writes, page by
//! page; where every ID is documented; what refers to what; the exact loot analysis and, from it,
//! where every item and affix comes from.

use rayon::prelude::*;
use rustkeep_data::db::TableKind;
use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use rustkeep_data::model::{ActionData, Entry, Value};
use rustkeep_data::resolve::EntryRef;
use rustkeep_data::source::{FileId, FileKind};
use rustkeep_data::vocab::{field, Registry, REGISTRIES};
use rustkeep_engine::arena::{self, Matrix};
use rustkeep_engine::game::World;
use rustkeep_engine::graph::{EdgeKind, Graph};
use rustkeep_engine::loot::LootReport;

use crate::Options;

mod how;

/// At most this many characters of a name, an ID or a path are shown where it is repeated: in
/// links, lists, drawings, breadcrumbs and the search index. The full text stands once, where the
/// thing itself is documented (an entry's heading and its text as written, a mod's overview), so
/// a name a megabyte long is not copied into every page that mentions it. No name or ID of the
/// core or the examples comes near it.
pub const SHOWN: usize = 80;

/// Records per shard of the search index: about 2 MB of script at most for long IDs and names.
const PER_SHARD: usize = 20_000;

/// At most this many creatures of a mod fight in the arena and are shown in its heat map.
pub const ARENA_ROWS: usize = 100;

/// Entries per registry page: a page stays light (a few hundred kilobytes at most) however large
/// the mod.
pub const PER_PAGE: usize = 100;

/// One registry page of one mod.
pub struct Page {
    /// Index into [`Site::mods`].
    pub module: usize,
    pub registry: Registry,
    /// 1-based, of `of`.
    pub number: usize,
    pub of: usize,
    /// The entries, sorted by ID.
    pub entries: Vec<EntryRef>,
}

impl Page {
    /// The page's path in the site.
    pub fn path(&self, site: &Site) -> String {
        registry_page_path(&site.mods[self.module].dir, self.registry, self.number)
    }
}

pub fn registry_page_path(dir: &str, registry: Registry, number: usize) -> String {
    if number <= 1 {
        format!("mods/{dir}/{}.html", registry.key())
    } else {
        format!("mods/{dir}/{}-{number}.html", registry.key())
    }
}

/// A mod as the site shows it.
pub struct Module {
    /// Index into `Project::mods`.
    pub index: usize,
    /// Its folder under `mods/`.
    pub dir: String,
    /// Per registry (by `Registry::index`): its pages, as indices into [`Site::pages`].
    pub pages: Vec<Vec<usize>>,
    /// Per registry: the entries it writes.
    pub counts: Vec<usize>,
}

/// What a mod's overview draws, gathered once for every mod.
#[derive(Default)]
pub struct Parts {
    /// Its quests in force, sorted.
    pub quests: Vec<String>,
    /// Indices into [`Site::starts`] where the starter or the quest is its.
    pub starts: Vec<usize>,
    /// Indices of the trigger graph's nodes that are its entries.
    pub bearers: Vec<usize>,
    /// Indices of the trigger graph's edges at those nodes.
    pub edges: Vec<usize>,
}

/// Something that names an entry: the entry holding the reference, and the field or action.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Referrer {
    pub registry: Registry,
    pub id: String,
    /// The key holding the reference (`loot`, `creature`).
    pub context: &'static str,
    /// How the entry names it, in words with names in backticks: "a `spawn` action of its
    /// `ai`", "its `loot`" ([`how::how`]).
    pub how: String,
}

/// One table's exact chances: the analysis at luck 0, and per drop (aligned with its `drops`)
/// the chance at the chosen luck.
pub struct TableChances {
    pub base: LootReport,
    pub p_luck: Vec<f64>,
}

/// The tables an item or affix comes from: the likeliest [`MAX_SOURCES`], and how many there are.
#[derive(Default)]
pub struct Sources {
    pub top: Vec<Source>,
    pub total: usize,
}

/// How many of the tables an item comes from are kept (the likeliest).
pub const MAX_SOURCES: usize = 8;

/// One table an item or affix can come from.
pub struct Source {
    pub table: String,
    /// The chance of at least one per evaluation at luck 0, and the expected count.
    pub p_any: f64,
    pub expected: f64,
    /// The chance at the chosen luck.
    pub p_luck: f64,
}

pub struct Site<'w> {
    pub w: &'w World,
    pub diagnostics: &'w [Diagnostic],
    pub opts: &'w Options,
    /// In load order.
    pub mods: Vec<Module>,
    pub pages: Vec<Page>,
    /// Per data file (by `FileId`): its mod, as an index into `mods`.
    file_module: Vec<Option<usize>>,
    /// Every loaded mod by its ID: an index into `mods` (the first, should two share an ID).
    mod_by_id: HashMap<String, usize>,
    /// The size of the input: the text of every file of the project (the bundled core, the
    /// manifests and the data files), in bytes.
    pub input: u64,
    /// Where each ID's entry in force is documented: its path in the site with the anchor.
    links: HashMap<(Registry, String), String>,
    /// The page every documented entry is on (index into `pages`).
    page_of: HashMap<EntryRef, usize>,
    /// Per file (by `FileId`): its references' indices, by position (lowering pushes nested
    /// references after their parents').
    pub refs_by_start: Vec<Vec<u32>>,
    /// What names each ID, by the entry naming it.
    pub referrers: HashMap<(Registry, String), Vec<Referrer>>,
    /// The exact analysis of every table in force, at luck 0 and at the chosen luck; the
    /// analysis's refusal for a table it cannot evaluate (data with errors).
    pub loot: HashMap<String, Result<TableChances, String>>,
    /// Per item (for affix tables: affix) ID: the tables it comes from, the likeliest first.
    pub sources: HashMap<String, Sources>,
    /// Who starts which quest (`start_quest` in any action list of an entry in force): the
    /// starter's registry and ID, and the quest.
    pub starts: Vec<(Registry, String, String)>,
    /// Per item: the entries in force whose actions give it (`give_item`).
    pub gives: HashMap<String, Vec<(Registry, String)>>,
    /// The trigger graph of everything loaded (each mod's page draws its part).
    pub graph: Graph,
    /// Per mod (index into `mods`): its quests, the starts that involve it and its entries in the
    /// trigger graph.
    pub parts: Vec<Parts>,
    /// The arena's rows for each mod's creatures (by index into `mods`).
    pub arena: Vec<Option<Matrix>>,
    /// The number of search shards.
    pub shards: usize,
    /// Per registry page (by index into `pages`): whether it lists its entries in brief, the
    /// site's size limit being reached ([`crate::budget`]); none does unless it is.
    pub brief: Vec<bool>,
    /// Per file (by `FileId`): where its entries start, in order of position (a file's entries
    /// are held by registry, and a file may interleave `[[creatures]]` and `[[quests]]`).
    entry_starts: Vec<Vec<usize>>,
}

impl<'w> Site<'w> {
    pub fn new(w: &'w World, diagnostics: &'w [Diagnostic], opts: &'w Options) -> Site<'w> {
        let project = &w.project;
        let mut file_module = vec![None; project.files.len()];
        let mut mods = Vec::new();
        let mut pages = Vec::new();
        let mut used_dirs: HashSet<String> = HashSet::default();
        let mut mod_by_id: HashMap<String, usize> = HashMap::default();
        for &mi in &w.db.resolved.order {
            let m = &project.mods[mi];
            let here = mods.len();
            for f in &m.data_files {
                file_module[f.0 as usize] = Some(here);
            }
            mod_by_id.entry(m.id.clone()).or_insert(here);
            let dir = mod_dir(&m.id, &mut used_dirs);
            let mut by_registry: Vec<Vec<(String, EntryRef)>> = vec![Vec::new(); Registry::ALL.len()];
            for &f in &m.data_files {
                let Some(facts) = w.db.facts.get(f.0 as usize).and_then(|x| x.as_ref()) else { continue };
                if project.file(f).kind != FileKind::Data {
                    continue;
                }
                for (i, e) in facts.entries.iter().enumerate() {
                    if let Some(key) = e.key() {
                        by_registry[e.registry.index()].push((key.value.clone(), EntryRef { file: f, index: i as u32 }));
                    }
                }
            }
            let mut module = Module { index: mi, dir, pages: vec![Vec::new(); Registry::ALL.len()], counts: vec![0; Registry::ALL.len()] };
            for registry in Registry::ALL {
                let mut list = std::mem::take(&mut by_registry[registry.index()]);
                list.sort_by(|a, b| a.0.cmp(&b.0));
                list.dedup_by(|a, b| a.0 == b.0);
                module.counts[registry.index()] = list.len();
                let of = list.len().div_ceil(PER_PAGE);
                for (n, chunk) in list.chunks(PER_PAGE).enumerate() {
                    module.pages[registry.index()].push(pages.len());
                    pages.push(Page { module: here, registry, number: n + 1, of, entries: chunk.iter().map(|x| x.1).collect() });
                }
            }
            mods.push(module);
        }
        let mut site = Site {
            w,
            diagnostics,
            opts,
            mods,
            pages,
            file_module,
            mod_by_id,
            input: project.files.iter().map(|f| f.text.len() as u64).sum(),
            links: HashMap::default(),
            page_of: HashMap::default(),
            refs_by_start: Vec::new(),
            referrers: HashMap::default(),
            loot: HashMap::default(),
            sources: HashMap::default(),
            starts: Vec::new(),
            gives: HashMap::default(),
            graph: Graph::default(),
            parts: Vec::new(),
            arena: Vec::new(),
            shards: 0,
            brief: Vec::new(),
            entry_starts: Vec::new(),
        };
        // The loot analysis is the long part; the maps of links and references are made beside it.
        let ((loot, sources), (links, referrers, refs_by_start, (starts, gives), graph)) = rayon::join(
            || {
                let loot = loot_reports(w, opts.luck);
                let sources = sources(&loot);
                (loot, sources)
            },
            || {
                let refs_by_start =
                    w.db.facts
                        .iter()
                        .map(|f| {
                            let Some(f) = f else { return Vec::new() };
                            let mut order: Vec<u32> = (0..f.refs.len() as u32).collect();
                            order.sort_by_key(|&i| f.refs[i as usize].span.start);
                            order
                        })
                        .collect();
                (site.link_map(), site.referrer_map(), refs_by_start, actions_of(w), Graph::build(w))
            },
        );
        (site.loot, site.sources, site.links, site.referrers, site.refs_by_start, site.starts, site.gives, site.graph) =
            (loot, sources, links, referrers, refs_by_start, starts, gives, graph);
        site.page_of = site.pages.iter().enumerate().flat_map(|(i, p)| p.entries.iter().map(move |&r| (r, i))).collect();
        site.parts = site.parts();
        site.arena = site.arena_rows();
        site.shards = site.entry_count().div_ceil(PER_SHARD).max(1);
        site.brief = vec![false; site.pages.len()];
        site.entry_starts =
            w.db.facts
                .iter()
                .map(|f| {
                    let mut starts: Vec<usize> = f.iter().flat_map(|f| f.entries.iter().map(|e| e.span.start)).collect();
                    starts.sort_unstable();
                    starts
                })
                .collect();
        site
    }

    pub fn entry_count(&self) -> usize {
        self.pages.iter().map(|p| p.entries.len()).sum()
    }

    pub fn entry(&self, r: EntryRef) -> &Entry {
        self.w.db.entry(r)
    }

    /// The mod (index into [`Site::mods`]) a data file belongs to.
    pub fn module_of(&self, file: FileId) -> Option<usize> {
        self.file_module.get(file.0 as usize).copied().flatten()
    }

    /// Where the entry in force for an ID is documented (its path in the site with the anchor).
    pub fn link(&self, registry: Registry, id: &str) -> Option<&str> {
        self.links.get(&(registry, id.to_string())).map(|s| s.as_str())
    }

    /// [`Site::link`] for a link that shows the ID cut ([`crate::html::short`]): an ID too long
    /// to be shown whole is linked to the page of its entry, without the anchor that would repeat
    /// it.
    pub fn short_link(&self, registry: Registry, id: &str) -> Option<&str> {
        let url = self.link(registry, id)?;
        if id.chars().nth(SHOWN).is_none() {
            return Some(url);
        }
        Some(url.split_once('#').map_or(url, |(page, _)| page))
    }

    /// The mod (index into [`Site::mods`]) with this ID, if it is loaded.
    pub fn mod_index(&self, id: &str) -> Option<usize> {
        self.mod_by_id.get(id).copied()
    }

    /// Where one entry (in force or not) is documented: its path in the site with the anchor.
    pub fn entry_url(&self, r: EntryRef) -> Option<String> {
        let page = &self.pages[*self.page_of.get(&r)?];
        Some(format!("{}#{}", page.path(self), self.entry(r).key()?.value))
    }

    fn link_map(&self) -> HashMap<(Registry, String), String> {
        let mut links = HashMap::default();
        for page in &self.pages {
            let path = page.path(self);
            for &r in &page.entries {
                let e = self.entry(r);
                let Some(key) = e.key() else { continue };
                // The entry in force is the one linked; an entry overridden later is documented
                // on its own mod's page, which says what overrides it.
                let in_force = self.w.db.resolved.get(e.registry, &key.value).is_some_and(|d| d.current == r);
                if in_force {
                    links.insert((e.registry, key.value.clone()), format!("{path}#{}", key.value));
                }
            }
        }
        links
    }

    /// For every reference in the mods' data: the entry holding it (the last entry that starts
    /// before it in its file).
    fn referrer_map(&self) -> HashMap<(Registry, String), Vec<Referrer>> {
        let mut map: HashMap<(Registry, String), Vec<Referrer>> = HashMap::default();
        for (fi, facts) in self.w.db.facts.iter().enumerate() {
            let Some(facts) = facts else { continue };
            if self.w.project.files[fi].kind != FileKind::Data || facts.entries.is_empty() {
                continue;
            }
            let starts: Vec<usize> = facts.entries.iter().map(|e| e.span.start).collect();
            for r in &facts.refs {
                let Some(registry) = r.kind.registry() else { continue };
                let at = starts.partition_point(|&s| s <= r.span.start);
                let Some(holder) = at.checked_sub(1).map(|i| &facts.entries[i]) else { continue };
                let Some(key) = holder.key() else { continue };
                let how = how::how(holder, r.span.start, r.context);
                map.entry((registry, r.id.clone())).or_default().push(Referrer { registry: holder.registry, id: key.value.clone(), context: r.context, how });
            }
        }
        for list in map.values_mut() {
            list.sort();
            list.dedup();
        }
        map
    }

    /// The mod whose entry is in force for an ID.
    pub fn owner(&self, registry: Registry, id: &str) -> Option<usize> {
        self.module_of(self.w.db.resolved.get(registry, id)?.current.file)
    }

    fn parts(&self) -> Vec<Parts> {
        let mut parts: Vec<Parts> = self.mods.iter().map(|_| Parts::default()).collect();
        for id in self.w.db.resolved.defs[Registry::Quests.index()].keys() {
            if let Some(m) = self.owner(Registry::Quests, id) {
                parts[m].quests.push(id.clone());
            }
        }
        for p in &mut parts {
            p.quests.sort();
        }
        for (i, (r, who, quest)) in self.starts.iter().enumerate() {
            let a = self.owner(Registry::Quests, quest);
            let b = self.owner(*r, who);
            for m in [a, b].into_iter().flatten() {
                if parts[m].starts.last() != Some(&i) {
                    parts[m].starts.push(i);
                }
            }
        }
        let mut node_module = vec![None; self.graph.nodes.len()];
        for (i, node) in self.graph.nodes.iter().enumerate() {
            if let Some(m) = node_registry(&node.kind).and_then(|r| self.owner(r, &node.id)) {
                parts[m].bearers.push(i);
                node_module[i] = Some(m);
            }
        }
        for (i, e) in self.graph.edges.iter().enumerate() {
            let bearer = if e.kind == EdgeKind::Listens { e.to } else { e.from };
            if let Some(m) = node_module[bearer] {
                parts[m].edges.push(i);
            }
        }
        parts
    }

    /// Errors in the data (the check's).
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
    }

    /// The arena's rows of each mod, with `--arena` and data without errors (creatures with
    /// broken triggers would fight half-read).
    fn arena_rows(&self) -> Vec<Option<Matrix>> {
        let Some(runs) = self.opts.arena_runs.filter(|_| self.errors() == 0) else { return self.mods.iter().map(|_| None).collect() };
        self.mods
            .iter()
            .map(|m| {
                // The page shows at most ARENA_ROWS creatures: the others need not fight.
                let creatures: Vec<String> =
                    self.pages_of(m, Registry::Creatures).flat_map(|p| p.entries.iter()).filter_map(|&r| self.in_force_key(r)).take(ARENA_ROWS).collect();
                if creatures.is_empty() || self.w.ids(Registry::CharacterOptions).is_empty() {
                    return None;
                }
                Some(arena::matrix_of(self.w, creatures, runs, self.opts.arena_seed, arena::DEFAULT_ROUNDS))
            })
            .collect()
    }

    pub fn pages_of<'a>(&'a self, m: &'a Module, registry: Registry) -> impl Iterator<Item = &'a Page> + 'a {
        m.pages[registry.index()].iter().map(|&p| &self.pages[p])
    }

    /// The ID of an entry if it is the one in force.
    pub fn in_force_key(&self, r: EntryRef) -> Option<String> {
        let e = self.entry(r);
        let key = e.key()?;
        (self.w.db.resolved.get(e.registry, &key.value)?.current == r).then(|| key.value.clone())
    }

    /// The bytes of the file from the entry's start to the next entry's (or the end of the
    /// file): the part of the input that is the entry's, whatever lies between entries.
    pub fn written_len(&self, r: EntryRef) -> usize {
        let text_len = self.w.project.file(r.file).text.len();
        let start = self.entry(r).span.start.min(text_len);
        let starts = self.entry_starts.get(r.file.0 as usize).map_or(&[][..], |s| s.as_slice());
        let next = starts.get(starts.partition_point(|&s| s <= start)).copied().unwrap_or(text_len);
        next.min(text_len).saturating_sub(start)
    }

    /// The `file:line` of an entry, as `rustkeep check` prints places.
    pub fn place(&self, r: EntryRef) -> (String, usize) {
        let f = self.w.project.file(r.file);
        let e = self.entry(r);
        (f.path.clone(), f.index.line_of(e.span.start) + 1)
    }
}

/// The longest folder name a mod gets under `mods/`: every link to its pages holds it, so a mod
/// ID thousands of characters long must not make every link that long.
const MAX_DIR: usize = 64;

/// A mod's folder under `mods/`, from its ID: the characters of a file name that need no
/// escaping anywhere, at most [`MAX_DIR`] of them, made unique among `used` (a `_` is added, and
/// after a few a number, so that a thousand mods cut to one name still get short folders).
fn mod_dir(id: &str, used: &mut HashSet<String>) -> String {
    let mut base: String = id.chars().take(MAX_DIR).map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    if base.is_empty() {
        base = "mod".into();
    }
    let mut dir = base.clone();
    let mut n = 0;
    while used.contains(&dir) {
        n += 1;
        dir = if n <= 3 { format!("{base}{}", "_".repeat(n)) } else { format!("{base}_{n}") };
    }
    used.insert(dir.clone());
    dir
}

/// The exact analysis of every table in force at luck 0 and at `luck`, or why it cannot be made
/// (a cycle or a broken reference below the table, in data with errors). Every table at once:
/// the analysis shares the statistics of nested tables, and gives each table the numbers
/// `rustkeep loot` gives it alone.
fn loot_reports(w: &World, luck: f64) -> HashMap<String, Result<TableChances, String>> {
    let (base, lucky) = rayon::join(|| w.loot.analyze_all(0.0), || w.loot.analyze_all(luck));
    base.into_par_iter()
        .zip(lucky.into_par_iter())
        .map(|((id, base), (_, lucky))| {
            let both = match (base, lucky) {
                (Ok(base), Ok(lucky)) => {
                    let mut by_id: Vec<(&str, f64)> = lucky.drops.iter().map(|d| (&*d.id, d.p_any)).collect();
                    by_id.sort_unstable_by(|a, b| a.0.cmp(b.0));
                    let p_luck = base.drops.iter().map(|d| by_id.binary_search_by(|x| x.0.cmp(&d.id)).map_or(0.0, |i| by_id[i].1)).collect();
                    Ok(TableChances { base, p_luck })
                }
                (Err(e), _) | (_, Err(e)) => Err(e.to_string()),
            };
            (id, both)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

/// Where every item and affix comes from: per outcome, the tables giving it, the likeliest
/// [`MAX_SOURCES`] kept (a pack of long chains has millions of table × item pairs).
fn sources(loot: &HashMap<String, Result<TableChances, String>>) -> HashMap<String, Sources> {
    let mut index: HashMap<&str, usize> = HashMap::default();
    // Per outcome: its ID, its likeliest (table, chance, expected, chance at luck), its count.
    type Found<'a> = (&'a str, f64, f64, f64);
    let mut lists: Vec<(&str, Vec<Found>, usize)> = Vec::new();
    let better = |a: &Found, b: &Found| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0));
    for (table, chances) in loot.iter().filter_map(|(t, r)| Some((t.as_str(), r.as_ref().ok()?))) {
        for (d, p_luck) in chances.base.drops.iter().zip(&chances.p_luck) {
            let i = *index.entry(&*d.id).or_insert_with(|| {
                lists.push((&*d.id, Vec::new(), 0));
                lists.len() - 1
            });
            let (_, list, total) = &mut lists[i];
            *total += 1;
            list.push((table, d.p_any, d.expected, *p_luck));
            if list.len() >= 4 * MAX_SOURCES {
                list.sort_by(better);
                list.truncate(MAX_SOURCES);
            }
        }
    }
    lists
        .into_iter()
        .map(|(item, mut list, total)| {
            list.sort_by(better);
            list.truncate(MAX_SOURCES);
            let top = list.into_iter().map(|(table, p_any, expected, p_luck)| Source { table: table.to_string(), p_any, expected, p_luck }).collect();
            (item.to_string(), Sources { top, total })
        })
        .collect()
}

/// The registry of a trigger graph's node, by its kind (the registry's noun); `None` for events.
pub fn node_registry(kind: &str) -> Option<Registry> {
    REGISTRIES.iter().find(|d| d.noun == kind).map(|d| d.registry)
}

/// Every action of an entry: its own action lists, its triggers' (a quest's reward included)
/// and its `ai` rules'.
fn each_action(e: &Entry, mut f: impl FnMut(&ActionData)) {
    for t in e.triggers() {
        t.actions.iter().for_each(|a| f(&a.data));
    }
    for fl in &e.fields {
        match &fl.value {
            Value::Actions(list) => list.iter().for_each(|a| f(&a.data)),
            Value::Ai(rules) => rules.iter().for_each(|r| r.actions.iter().for_each(|a| f(&a.data))),
            _ => {}
        }
    }
}

type Starts = Vec<(Registry, String, String)>;

fn actions_of(w: &World) -> (Starts, HashMap<String, Vec<(Registry, String)>>) {
    let mut starts = Vec::new();
    let mut gives: HashMap<String, Vec<(Registry, String)>> = HashMap::default();
    for registry in Registry::ALL {
        for (id, def) in &w.db.resolved.defs[registry.index()] {
            each_action(w.db.entry(def.current), |a| match a {
                ActionData::StartQuest { quest } => starts.push((registry, id.clone(), quest.value.clone())),
                ActionData::GiveItem { item, .. } => gives.entry(item.value.clone()).or_default().push((registry, id.clone())),
                _ => {}
            });
        }
    }
    starts.sort();
    starts.dedup();
    for list in gives.values_mut() {
        list.sort();
        list.dedup();
    }
    (starts, gives)
}

/// Whether a table gives items or affixes.
pub fn table_kind(site: &Site, id: &str) -> Option<TableKind> {
    site.w.db.table_kinds.get(id).copied()
}

/// The fields that roll a table: `loot` of creatures, floors and prefabs, `stock` of shops,
/// nested `table` entries, and the `affixes` table of an item entry.
pub fn rolls(context: &str) -> bool {
    context == field::LOOT || context == field::STOCK || context == field::TABLE || context == field::AFFIXES
}
