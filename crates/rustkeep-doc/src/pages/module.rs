//! A mod's overview: what it is (version, dependencies, place in the load order), how many
//! entries of each registry it writes, its quest chains (who starts what), its part of the
//! trigger graph, and on request the arena's matrix of its creatures against every character
//! option as a heat map.

use std::collections::BTreeMap;

use rustkeep_data::number::{fixed, percent};
use rustkeep_data::vocab::Registry;
use rustkeep_engine::graph::EdgeKind;

use crate::draw::{self, Edge, Node};
use crate::html::{self, esc, id_link, short, Frame};
use crate::site::{node_registry, Site};

/// At most this many quests of a loop are named in its note (the rest are counted).
const MAX_NAMED: usize = 8;

/// At most this many bearers are drawn in a mod's trigger graph, and this many nodes in each
/// column of its quest chains.
const MAX_DRAWN: usize = 120;
/// At most this many rows are listed in a mod's trigger table and quest chains (the rest are
/// counted, with the command that lists them all).
const MAX_LISTED: usize = 2000;
/// At most this many mods are linked as what a mod depends on or loads after (the rest are
/// counted).
pub const MAX_DEPENDS: usize = 40;
/// The arena's heat map shows at most this many creatures (rows) and character options
/// (columns): it grows with their product.
const MAX_ARENA_ROWS: usize = crate::site::ARENA_ROWS;
const MAX_ARENA_COLUMNS: usize = 40;

pub fn page(site: &Site, module: usize) -> (String, String) {
    let m = &site.mods[module];
    let info = &site.w.project.mods[m.index];
    let path = format!("mods/{}/index.html", m.dir);
    let root = html::root_of(&path);
    let name = info.manifest.name.clone().unwrap_or_else(|| info.id.clone());
    let mut main = format!("<h1>{}</h1>\n", esc(&name));
    main.push_str(&about(site, module, &root));
    main.push_str(&counts(site, module, &root));
    main.push_str(&quest_chains(site, module, &root));
    main.push_str(&trigger_graph(site, module, &root));
    main.push_str(&arena(site, module, &root));
    let crumbs = vec![("All mods".to_string(), Some("index.html".to_string())), (name.clone(), None)];
    let nav = super::mod_nav(site, module, &root, None);
    let html = html::page(site, Frame { path: &path, title: &name, crumbs, nav, main });
    (path, html)
}

/// A manifest's `depends` for [`mod_links`]: each mod with its requirement and kind
/// (`sewers` `>= 1.2`, `bestiary` `^2 (optional)`, `old_rats` `(incompatible)`).
pub fn dependency_links(m: &rustkeep_data::manifest::Manifest) -> Vec<(&str, String)> {
    use rustkeep_data::manifest::DependencyKind;
    m.depends
        .iter()
        .map(|d| {
            let kind = match d.kind {
                DependencyKind::Required => "",
                DependencyKind::Optional => "(optional)",
                DependencyKind::Incompatible => "(incompatible)",
            };
            let note = [d.req_text.as_deref().unwrap_or(""), kind].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
            (d.id.value.as_str(), note)
        })
        .collect()
}

/// A link to a mod's overview by its ID (cut to [`html::SHOWN`] characters), or its ID alone
/// when it is not loaded.
pub fn mod_link(site: &Site, id: &str, root: &str) -> String {
    match site.mod_index(id).map(|m| &site.mods[m]) {
        Some(m) => format!("<a href=\"{root}mods/{}/index.html\"><code>{}</code></a>", esc(&m.dir), esc(&short(id))),
        None => format!("<code>{}</code>", esc(&short(id))),
    }
}

/// Mods a manifest names (`depends`, `load_after`), linked, each with what the entry says of it
/// (a version requirement, optional, incompatible), at most [`MAX_DEPENDS`] of them and the rest
/// counted; `None` for none.
pub fn mod_links(site: &Site, ids: &[(&str, String)], root: &str) -> Option<String> {
    if ids.is_empty() {
        return None;
    }
    let mut links: Vec<String> = ids
        .iter()
        .take(MAX_DEPENDS)
        .map(|(id, note)| if note.is_empty() { mod_link(site, id, root) } else { format!("{} {}", mod_link(site, id, root), esc(note)) })
        .collect();
    if ids.len() > MAX_DEPENDS {
        links.push(format!("and {} more", ids.len() - MAX_DEPENDS));
    }
    Some(links.join(", "))
}

fn about(site: &Site, module: usize, root: &str) -> String {
    let info = &site.w.project.mods[site.mods[module].index];
    let mut rows = vec![("ID", format!("<code>{}</code>", esc(&info.id)))];
    if info.is_core {
        rows.push(("Kind", "the base game, bundled with rustkeep; every mod builds on it".into()));
    }
    let version = match (&info.manifest.version, info.is_core) {
        (Some(v), _) => esc(v),
        (None, true) => format!("that of rustkeep, {}", env!("CARGO_PKG_VERSION")),
        (None, false) => "not given".into(),
    };
    rows.push(("Version", version));
    let list = |ids: &[(&str, String)]| mod_links(site, ids, root).unwrap_or_else(|| "none".to_string());
    rows.push(("Depends on", list(&dependency_links(&info.manifest))));
    if !info.manifest.load_after.is_empty() {
        rows.push(("Loads after", list(&info.manifest.load_after.iter().map(|d| (d.value.as_str(), String::new())).collect::<Vec<_>>())));
    }
    if !info.manifest.renamed.is_empty() {
        let shown: Vec<String> = info
            .manifest
            .renamed
            .iter()
            .take(MAX_DEPENDS)
            .map(|(old, new)| format!("<code>{}</code> → <code>{}</code>", esc(&short(&old.value)), esc(&short(&new.value))))
            .collect();
        let more = info.manifest.renamed.len().saturating_sub(MAX_DEPENDS);
        let rest = if more > 0 { format!(", and {more} more") } else { String::new() };
        rows.push(("Renamed", format!("{}{rest} (references and saves that name an old ID use the new one)", shown.join(", "))));
    }
    rows.push(("Load order", format!("{} of {}", module + 1, site.mods.len())));
    let mut out = String::from("<table class=\"about\">\n");
    for (k, v) in rows {
        out.push_str(&format!("<tr><th scope=\"row\">{k}</th><td>{v}</td></tr>\n"));
    }
    out.push_str("</table>\n");
    out
}

fn counts(site: &Site, module: usize, root: &str) -> String {
    let m = &site.mods[module];
    let mut out = String::from("<h2>Entries</h2>\n<ul class=\"counts\">\n");
    let mut any = false;
    for r in Registry::ALL {
        let n = m.counts[r.index()];
        if n == 0 {
            continue;
        }
        any = true;
        let path = crate::site::registry_page_path(&m.dir, r, 1);
        out.push_str(&format!("<li><a href=\"{root}{}\">{}</a>: {n}</li>\n", esc(&path), esc(&super::registry_title(r))));
    }
    if !any {
        out.push_str("<li>none</li>\n");
    }
    out.push_str("</ul>\n");
    out
}

fn quest_chains(site: &Site, module: usize, root: &str) -> String {
    let mut out = String::from("<h2 id=\"quests\">Quest chains</h2>\n");
    let starts: Vec<&(Registry, String, String)> = site.parts[module].starts.iter().map(|&i| &site.starts[i]).collect();
    let quests = &site.parts[module].quests;
    if quests.is_empty() && starts.is_empty() {
        out.push_str("<p>This mod has no quests and starts none.</p>\n");
        return out;
    }
    // Depth: a starter that is no quest is 0; a quest is one more than the deepest quest or
    // starter that starts it (bounded: a chain that starts itself again stops growing).
    let mut depth: BTreeMap<(Registry, String), usize> = BTreeMap::new();
    for q in quests {
        depth.insert((Registry::Quests, q.clone()), 1);
    }
    for (r, who, q) in &starts {
        depth.entry((*r, who.clone())).or_insert(if *r == Registry::Quests { 1 } else { 0 });
        depth.entry((Registry::Quests, q.clone())).or_insert(1);
    }
    for _ in 0..8 {
        let mut changed = false;
        for (r, who, q) in &starts {
            let d = depth[&(*r, who.clone())] + 1;
            let slot = depth.get_mut(&(Registry::Quests, q.clone())).expect("every started quest has a depth");
            if *slot < d && d <= 8 {
                *slot = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let cols = depth.values().max().copied().unwrap_or(0) + 1;
    let mut columns: Vec<Vec<Node>> = (0..cols).map(|_| Vec::new()).collect();
    // Every node's place (column, row); only the first MAX_DRAWN rows of a column are drawn.
    let mut rows = vec![0; cols];
    let mut at: BTreeMap<(Registry, String), (usize, usize)> = BTreeMap::new();
    for ((r, id), d) in &depth {
        at.insert((*r, id.clone()), (*d, rows[*d]));
        rows[*d] += 1;
        if columns[*d].len() < MAX_DRAWN {
            let href = site.short_link(*r, id).map(|u| format!("{root}{u}"));
            let label = format!("{} ({})", rustkeep_present::words::entry_name(site.w, *r, id), r.noun());
            columns[*d].push(Node { label, href, class: if *r == Registry::Quests { "quest" } else { "starter" } });
        }
    }
    let edges: Vec<Edge> = starts
        .iter()
        .map(|(r, who, q)| Edge { from: at[&(*r, who.clone())], to: at[&(Registry::Quests, q.clone())], class: "starts" })
        .filter(|e| e.from.1 < MAX_DRAWN && e.to.1 < MAX_DRAWN)
        .collect();
    let mut list = String::from("<ul class=\"chains\">\n");
    let mut listed = 0;
    for (r, who, q) in starts.iter().take(MAX_LISTED) {
        listed += 1;
        list.push_str(&format!(
            "<li>{} <span class=\"noun\">({})</span> starts {}</li>\n",
            id_link(site, root, *r, who),
            esc(r.noun()),
            id_link(site, root, Registry::Quests, q)
        ));
    }
    let started: std::collections::BTreeSet<&str> = starts.iter().map(|s| s.2.as_str()).collect();
    let unstarted: Vec<&String> = quests.iter().filter(|q| !started.contains(q.as_str())).collect();
    for q in unstarted.iter().take(MAX_LISTED - listed) {
        listed += 1;
        list.push_str(&format!("<li>{}: nothing starts it (it counts from the start of a game)</li>\n", id_link(site, root, Registry::Quests, q)));
    }
    let all = starts.len() + unstarted.len();
    if all > listed {
        list.push_str(&format!("<li>And {} more: the entry of each quest says what starts it.</li>\n", all - listed));
    }
    list.push_str("</ul>\n");
    let desc = format!("{} quests; {} starts, listed below.", quests.len(), starts.len());
    out.push_str(&draw::layered("quest-chains", "Quest chains: who starts what", &desc, &columns, &edges));
    if rows.iter().any(|&n| n > MAX_DRAWN) {
        out.push_str(&format!("<p>The drawing shows the first {MAX_DRAWN} entries of each column.</p>\n"));
    }
    out.push_str(&list);
    out.push_str(&chain_loops(site, &starts, root));
    out
}

/// A note on each loop of the quest chains (a quest whose reward starts a quest that, through
/// others, starts it again): legitimate, since each quest completes once, so the chain ends.
fn chain_loops(site: &Site, starts: &[&(Registry, String, String)], root: &str) -> String {
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (r, who, q) in starts {
        if *r == Registry::Quests {
            for id in [who.as_str(), q.as_str()] {
                let n = index.len();
                index.entry(id).or_insert(n);
            }
        }
    }
    let mut adj = vec![Vec::new(); index.len()];
    for (_, who, q) in starts.iter().filter(|s| s.0 == Registry::Quests) {
        adj[index[who.as_str()]].push(index[q.as_str()]);
    }
    let ids: BTreeMap<usize, &str> = index.iter().map(|(&id, &n)| (n, id)).collect();
    let mut out = String::new();
    for mut cycle in rustkeep_data::graph::cyclic_components(&adj).into_iter().take(MAX_LISTED) {
        cycle.sort_by_key(|n| ids[n]);
        let mut names: Vec<String> = cycle.iter().take(MAX_NAMED).map(|n| id_link(site, root, Registry::Quests, ids[n])).collect();
        if cycle.len() > MAX_NAMED {
            names.push(format!("{} more", cycle.len() - MAX_NAMED));
        }
        let how = if cycle.len() == 1 { "starts itself again" } else { "start each other in a loop" };
        out.push_str(&format!("<p class=\"loop-note\">{} {how}. A quest loop is fine: each quest completes once, so the chain ends.</p>\n", names.join(", ")));
    }
    out
}

fn trigger_graph(site: &Site, module: usize, root: &str) -> String {
    let g = &site.graph;
    let mut out = String::from("<h2 id=\"triggers\">Trigger graph</h2>\n");
    let bearers = &site.parts[module].bearers;
    if bearers.is_empty() {
        out.push_str("<p>No entry of this mod bears triggers.</p>\n");
        return out;
    }
    out.push_str("<p>Left, the events its entries listen to; middle, the entries; right, the events their actions raise. A cycle (triggers that can feed each other until the event cap stops them) is drawn in red. A loop through a quest is not: a quest's actions run once, when it completes, so the loop ends by itself; it is drawn in green as a quest loop.</p>\n");
    let loops = loops(g);
    let drawn: Vec<usize> = bearers.iter().copied().take(MAX_DRAWN).collect();
    let mid_rows: BTreeMap<usize, usize> = drawn.iter().enumerate().map(|(row, &n)| (n, row)).collect();
    let edges_here: Vec<&rustkeep_engine::graph::Edge> = site.parts[module].edges.iter().map(|&i| &g.edges[i]).collect();
    let mut listened: BTreeMap<usize, usize> = BTreeMap::new();
    let mut raised: BTreeMap<usize, usize> = BTreeMap::new();
    for e in &edges_here {
        if e.kind == EdgeKind::Listens && mid_rows.contains_key(&e.to) {
            let n = listened.len();
            listened.entry(e.from).or_insert(n);
        }
        if e.kind == EdgeKind::Raises && mid_rows.contains_key(&e.from) {
            let n = raised.len();
            raised.entry(e.to).or_insert(n);
        }
    }
    let event_label = |i: usize| g.nodes[i].id.trim_start_matches("event:").to_string();
    let node = |i: usize| -> Node {
        let kind = &g.nodes[i].kind;
        let class = if loops.endless[i].is_some() {
            "cycle"
        } else if loops.quest_loop[i] {
            "quest-loop"
        } else if kind == "event" {
            "event"
        } else {
            "bearer"
        };
        let href = node_registry(kind).and_then(|r| site.short_link(r, &g.nodes[i].id)).map(|u| format!("{root}{u}"));
        let label = if kind == "event" { event_label(i) } else { g.nodes[i].id.clone() };
        Node { label, href, class }
    };
    let mut left: Vec<(usize, usize)> = listened.iter().map(|(&n, &o)| (o, n)).collect();
    left.sort();
    let mut right: Vec<(usize, usize)> = raised.iter().map(|(&n, &o)| (o, n)).collect();
    right.sort();
    let left_rows: BTreeMap<usize, usize> = left.iter().enumerate().map(|(row, &(_, n))| (n, row)).collect();
    let right_rows: BTreeMap<usize, usize> = right.iter().enumerate().map(|(row, &(_, n))| (n, row)).collect();
    let columns = vec![left.iter().map(|&(_, n)| node(n)).collect(), drawn.iter().map(|&n| node(n)).collect(), right.iter().map(|&(_, n)| node(n)).collect()];
    let mut edges = Vec::new();
    for e in &edges_here {
        let (listens, raises) = if loops.endless_edge(e) {
            ("listens cycle", "raises cycle")
        } else if g.edge_in_cycle(e) {
            ("listens quest-loop", "raises quest-loop")
        } else {
            ("listens", "raises")
        };
        match e.kind {
            EdgeKind::Listens if mid_rows.contains_key(&e.to) => edges.push(Edge { from: (0, left_rows[&e.from]), to: (1, mid_rows[&e.to]), class: listens }),
            EdgeKind::Raises if mid_rows.contains_key(&e.from) => edges.push(Edge { from: (1, mid_rows[&e.from]), to: (2, right_rows[&e.to]), class: raises }),
            _ => {}
        }
    }
    let desc = format!("{} entries with triggers; the table below lists what each listens to and raises.", bearers.len());
    out.push_str(&draw::layered("trigger-graph", "Trigger graph of this mod", &desc, &columns, &edges));
    if bearers.len() > MAX_LISTED {
        out.push_str(&format!("<p>The drawing shows the first {MAX_DRAWN} of {} entries; the table the first {MAX_LISTED}.</p>\n", bearers.len()));
    } else if bearers.len() > MAX_DRAWN {
        out.push_str(&format!("<p>The drawing shows the first {MAX_DRAWN} of {} entries; the table lists all.</p>\n", bearers.len()));
    }
    out.push_str("<div class=\"wide\"><table class=\"triggers\">\n<thead><tr><th scope=\"col\">Entry</th><th scope=\"col\">Listens to</th><th scope=\"col\">Raises</th></tr></thead>\n<tbody>\n");
    let mut by_bearer: BTreeMap<usize, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for e in &edges_here {
        match e.kind {
            EdgeKind::Listens => by_bearer.entry(e.to).or_default().0.push(format!("<code>{}</code>", esc(&event_label(e.from)))),
            EdgeKind::Raises => by_bearer.entry(e.from).or_default().1.push(format!("<code>{}</code>", esc(&event_label(e.to)))),
        }
    }
    for &b in bearers.iter().take(MAX_LISTED) {
        let (listens, raises) = by_bearer.remove(&b).unwrap_or_default();
        let r = node_registry(&g.nodes[b].kind).unwrap_or(Registry::Items);
        let cycle = if loops.endless[b].is_some() {
            " <strong class=\"cycle-note\">on a cycle</strong>"
        } else if loops.quest_loop[b] {
            " <span class=\"loop-note\">on a quest loop (harmless: each quest completes once)</span>"
        } else {
            ""
        };
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}{cycle}</th><td>{}</td><td>{}</td></tr>\n",
            id_link(site, root, r, &g.nodes[b].id),
            if listens.is_empty() { "nothing".into() } else { listens.join(", ") },
            if raises.is_empty() { "nothing".into() } else { raises.join(", ") }
        ));
    }
    out.push_str("</tbody></table></div>\n");
    if bearers.len() > MAX_LISTED {
        out.push_str(&format!("<p>And {} more: <code>rustkeep graph</code> lists them all.</p>\n", bearers.len() - MAX_LISTED));
    }
    out
}

/// The cycles of the trigger graph the event cap has to stop, apart from the loops that end by
/// themselves: a quest's actions run once, when it completes, so a cycle through a quest is
/// passed a bounded number of times. Per node: its component among the cycles that avoid every
/// quest (`Some`: a cycle of triggers that can feed each other without end), and whether it lies
/// on a cycle of the graph only through quests (a quest loop, harmless).
struct Loops {
    endless: Vec<Option<usize>>,
    quest_loop: Vec<bool>,
}

fn loops(g: &rustkeep_engine::graph::Graph) -> Loops {
    let quest = |n: usize| node_registry(&g.nodes[n].kind) == Some(Registry::Quests);
    let mut adj = vec![Vec::new(); g.nodes.len()];
    for e in g.edges.iter().filter(|e| !quest(e.from) && !quest(e.to)) {
        adj[e.from].push(e.to);
    }
    let mut endless = vec![None; g.nodes.len()];
    for (c, comp) in rustkeep_data::graph::cyclic_components(&adj).into_iter().enumerate() {
        for n in comp {
            endless[n] = Some(c);
        }
    }
    let quest_loop = (0..g.nodes.len()).map(|n| g.in_cycle[n] && endless[n].is_none()).collect();
    Loops { endless, quest_loop }
}

impl Loops {
    /// Whether an edge lies on a cycle without end.
    fn endless_edge(&self, e: &rustkeep_engine::graph::Edge) -> bool {
        self.endless[e.from].is_some() && self.endless[e.from] == self.endless[e.to]
    }
}

fn arena(site: &Site, module: usize, root: &str) -> String {
    if site.opts.arena_runs.is_some() && site.errors() > 0 {
        return "<h2 id=\"arena\">Arena</h2>\n<p class=\"broken\">No fights: the mods have errors (<a href=\"../../diagnostics.html\">the check</a>), and creatures with broken data would fight half-read.</p>\n".into();
    }
    let Some(m) = &site.arena[module] else { return String::new() };
    let mut out = String::from("<h2 id=\"arena\">Arena</h2>\n");
    out.push_str(&format!(
        "<p>Each character option, as a new character with its starting kit, against one of each creature of this mod: the option's win rate over {} fights per cell (seed {}, at most {} rounds), as <code>rustkeep arena --matrix</code> computes it.</p>\n",
        m.runs, m.seed, m.max_rounds
    ));
    out.push_str("<div class=\"wide\"><table class=\"heat\">\n<caption>Win rate of each option (columns) against each creature (rows)</caption>\n<thead><tr><th scope=\"col\">Creature</th>");
    for o in m.options.iter().take(MAX_ARENA_COLUMNS) {
        out.push_str(&format!("<th scope=\"col\">{}</th>", id_link(site, root, Registry::CharacterOptions, o)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (ci, c) in m.creatures.iter().enumerate().take(MAX_ARENA_ROWS) {
        out.push_str(&format!("<tr><th scope=\"row\">{}</th>", id_link(site, root, Registry::Creatures, c)));
        for (wr, rounds) in m.cells[ci].iter().take(MAX_ARENA_COLUMNS) {
            // Red (the option loses) through yellow to green (it wins), light enough for dark text.
            let hue = (wr * 120.0).round();
            out.push_str(&format!(
                "<td class=\"cell\" style=\"background: hsl({hue} 70% 78%)\" data-win-rate=\"{wr}\" title=\"{} rounds on average\">{}</td>",
                fixed(*rounds, 1),
                percent(*wr)
            ));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    let creatures = site.mods[module].counts[Registry::Creatures.index()];
    if creatures > MAX_ARENA_ROWS || m.options.len() > MAX_ARENA_COLUMNS {
        out.push_str(&format!(
            "<p>The heat map shows at most {MAX_ARENA_ROWS} of the {creatures} creatures and {MAX_ARENA_COLUMNS} of the {} character options: <code>rustkeep arena --matrix</code> fights them all.</p>\n",
            m.options.len()
        ));
    }
    out
}
