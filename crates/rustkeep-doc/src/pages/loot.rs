//! Loot on the pages: a table's exact chances (a chart and a table, the numbers of
//! `rustkeep loot --format json`, each row carrying the exact value in `data-p-any` and
//! `data-expected`), and for an item or affix every table it comes from, with who rolls it.

use rustkeep_data::db::TableKind;
use rustkeep_data::number::{fixed, percent as pct};
use rustkeep_data::vocab::{field, Registry};
use rustkeep_engine::loot::one_in_text;

use crate::html::{esc, id_link, short};
use crate::site::{rolls, table_kind, Site};

/// At most this many drops are listed per table, the likeliest first (a table at the top of a
/// long chain can give thousands of items; `rustkeep loot` lists them all).
const MAX_ROWS: usize = 20;
/// At most this many entries are named as rolling one table.
const MAX_ROLLERS: usize = 3;
/// At most this many entries are named as giving an item (the rest are counted), as many as
/// the referrers of an entry.
const MAX_GIVERS: usize = super::MAX_REFERRERS;

/// The exact chances of one table in force.
pub fn table_section(site: &Site, id: &str, root: &str) -> String {
    let chances = match site.loot.get(id) {
        Some(Ok(c)) => c,
        Some(Err(why)) => {
            return format!("<div class=\"loot\">\n<h3>Drop chances</h3>\n<p class=\"broken\">Its chances cannot be computed: {}.</p>\n</div>\n", esc(why))
        }
        None => return String::new(),
    };
    let kind = table_kind(site, id).unwrap_or(TableKind::Items);
    let target = if kind == TableKind::Affixes { Registry::Affixes } else { Registry::Items };
    let luck = site.opts.luck;
    let mut out = String::from("<div class=\"loot\">\n<h3>Drop chances</h3>\n");
    out.push_str(&format!(
        "<p>What one evaluation of {} gives: the exact chance of at least one, at luck 0 and at luck {} (a {} chance of one extra draw).</p>\n",
        esc(kind.noun()),
        fmt_num(luck),
        pct(site.w.loot.p_extra(luck))
    ));
    let base = &chances.base;
    if base.drops.is_empty() {
        out.push_str("<p>This table never gives anything.</p>\n</div>\n");
        return out;
    }
    out.push_str(&crate::draw::drop_chart(id, base));
    out.push_str(&format!(
        "<div class=\"wide\"><table class=\"drops\" data-table=\"{}\" data-luck=\"{}\">\n<caption>Exact chances per evaluation of <code>{}</code></caption>\n",
        esc(id),
        luck,
        esc(id)
    ));
    out.push_str(&format!(
        "<thead><tr><th scope=\"col\">{}</th><th scope=\"col\">Chance</th><th scope=\"col\">1 in N</th><th scope=\"col\">Expected count</th><th scope=\"col\">Chance at luck {}</th></tr></thead>\n<tbody>\n",
        if kind == TableKind::Affixes { "Affix" } else { "Item" },
        fmt_num(luck)
    ));
    for (d, p_luck) in base.drops.iter().zip(&chances.p_luck).take(MAX_ROWS) {
        out.push_str(&format!(
            "<tr data-id=\"{}\" data-p-any=\"{}\" data-expected=\"{}\"><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            esc(&short(&d.id)),
            d.p_any,
            d.expected,
            id_link(site, root, target, &d.id),
            pct(d.p_any),
            one_in_text(d.p_any),
            fixed(d.expected, 4),
            pct(*p_luck)
        ));
    }
    out.push_str("</tbody></table></div>\n");
    if base.drops.len() > MAX_ROWS {
        let rest = &base.drops[MAX_ROWS..];
        out.push_str(&format!(
            "<p>And {} more, each at most {}: <code>rustkeep loot {}</code> lists every one.</p>\n",
            rest.len(),
            pct(rest[0].p_any),
            esc(id)
        ));
    }
    out.push_str(&rolled_by(site, id, root, "Rolled by"));
    out.push_str("</div>\n");
    out
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// The entries that roll a table: creatures, floors and prefabs (`loot`), shops (`stock`), and
/// the tables it is nested in (`table`); at most [`MAX_ROLLERS`], the rest counted.
fn rollers(site: &Site, table: &str, root: &str) -> Vec<String> {
    let Some(list) = site.referrers.get(&(Registry::LootTables, table.to_string())) else { return Vec::new() };
    let all: Vec<String> = list
        .iter()
        .filter(|x| rolls(x.context) && !(x.registry == Registry::LootTables && x.id == table))
        .map(|x| {
            format!(
                "{} <span class=\"noun\">({})</span>",
                id_link(site, root, x.registry, &x.id),
                esc(match x.context {
                    field::TABLE => "nested in",
                    field::AFFIXES => "affixes of its items",
                    _ => x.registry.noun(),
                })
            )
        })
        .collect();
    let mut shown: Vec<String> = all.iter().take(MAX_ROLLERS).cloned().collect();
    if all.len() > MAX_ROLLERS {
        shown.push(format!("and {} more", all.len() - MAX_ROLLERS));
    }
    shown
}

fn rolled_by(site: &Site, table: &str, root: &str, label: &str) -> String {
    let list = rollers(site, table, root);
    if list.is_empty() {
        format!("<p class=\"rolled\">{label}: nothing in the loaded mods.</p>\n")
    } else {
        format!("<p class=\"rolled\">{label}: {}.</p>\n", list.join(", "))
    }
}

/// Where an item or affix comes from: every table that can give it (nesting included), with
/// the exact chance and who rolls the table; and the entries whose actions give it.
pub fn sources_section(site: &Site, id: &str, registry: Registry, root: &str) -> String {
    let mut out = String::from("<div class=\"sources\">\n");
    let noun = if registry == Registry::Affixes { "Comes from" } else { "Drops from" };
    match site.sources.get(id) {
        None => out.push_str(&format!("<h3>{noun}</h3>\n<p>No loot table gives it.</p>\n")),
        Some(found) => {
            let list = &found.top;
            out.push_str(&format!("<h3>{noun} ({} table{})</h3>\n", found.total, if found.total == 1 { "" } else { "s" }));
            out.push_str(&format!(
                "<div class=\"wide\"><table class=\"drops-from\" data-item=\"{}\">\n<thead><tr><th scope=\"col\">Table</th><th scope=\"col\">Chance</th><th scope=\"col\">Chance at luck {}</th><th scope=\"col\">Expected count</th><th scope=\"col\">Rolled by</th></tr></thead>\n<tbody>\n",
                esc(id),
                fmt_num(site.opts.luck)
            ));
            for s in list {
                let by = match rollers(site, &s.table, root) {
                    list if list.is_empty() => "nothing".to_string(),
                    list => list.join(", "),
                };
                out.push_str(&format!(
                    "<tr data-table=\"{}\" data-p-any=\"{}\"><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{:.4}</td><td>{by}</td></tr>\n",
                    esc(&short(&s.table)),
                    s.p_any,
                    id_link(site, root, Registry::LootTables, &s.table),
                    pct(s.p_any),
                    pct(s.p_luck),
                    s.expected
                ));
            }
            out.push_str("</tbody></table></div>\n");
            if found.total > list.len() {
                out.push_str(&format!("<p>And {} more tables, each less likely.</p>\n", found.total - list.len()));
            }
        }
    }
    if let Some(givers) = site.gives.get(id) {
        let mut links: Vec<String> =
            givers.iter().take(MAX_GIVERS).map(|(r, g)| format!("{} <span class=\"noun\">({})</span>", id_link(site, root, *r, g), esc(r.noun()))).collect();
        if givers.len() > MAX_GIVERS {
            links.push(format!("and {} more", givers.len() - MAX_GIVERS));
        }
        out.push_str(&format!("<p>Given by: {}.</p>\n", links.join(", ")));
    }
    out.push_str("</div>\n");
    out
}
