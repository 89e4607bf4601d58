//! The drawings, as SVG in the page: a table's drop chart, and layered graphs (quest chains, a
//! mod's trigger graph). Colours come from the page's style sheet (classes), so a drawing follows
//! light and dark mode; each has a title and a description for screen readers, and the page
//! puts the same facts beside it as a table or a list.

use rustkeep_engine::loot::LootReport;

use rustkeep_data::number::percent as pct;

use crate::html::{esc, short};

/// At most this many bars per chart: the likeliest drops.
const MAX_BARS: usize = 12;

/// A horizontal bar per drop (the likeliest [`MAX_BARS`]), on one scale from 0 to 100 %,
/// labelled with its exact chance.
pub fn drop_chart(table: &str, r: &LootReport) -> String {
    let drops = &r.drops[..r.drops.len().min(MAX_BARS)];
    let label_w = (drops.iter().map(|d| short(&d.id).chars().count()).max().unwrap_or(4) as f64 * 7.2 + 16.0).min(320.0).round();
    let bar_w = 360.0;
    let row_h = 22.0;
    let top = 8.0;
    let width = label_w + bar_w + 90.0;
    let height = top + row_h * drops.len() as f64 + 8.0;
    let slug: String = table.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let mut s = format!(
        "<figure class=\"chart\"><svg role=\"img\" aria-labelledby=\"chart-t-{slug} chart-d-{slug}\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\">\n"
    );
    s.push_str(&format!("<title id=\"chart-t-{slug}\">Drop chances of {}</title>\n", esc(table)));
    // The table after the chart reads every value out; the description says what is drawn.
    let first = drops.first().map(|d| format!(", the likeliest {} at {}", short(&d.id), pct(d.p_any))).unwrap_or_default();
    s.push_str(&format!(
        "<desc id=\"chart-d-{slug}\">A bar per drop, {} of {}{}; the table below gives every value.</desc>\n",
        drops.len(),
        r.drops.len(),
        esc(&first)
    ));
    s.push_str(&format!("<rect class=\"track\" x=\"{label_w:.0}\" y=\"{top:.0}\" width=\"{bar_w:.0}\" height=\"{:.0}\"/>\n", row_h * drops.len() as f64));
    for (i, d) in drops.iter().enumerate() {
        let y = top + row_h * i as f64;
        let w = (d.p_any.clamp(0.0, 1.0) * bar_w).max(if d.p_any > 0.0 { 1.0 } else { 0.0 });
        s.push_str(&format!("<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>", label_w - 6.0, y + 15.0, esc(&short(&d.id))));
        s.push_str(&format!("<rect class=\"bar\" x=\"{label_w:.0}\" y=\"{:.0}\" width=\"{w:.1}\" height=\"14\"/>", y + 4.0));
        s.push_str(&format!("<text x=\"{:.0}\" y=\"{:.0}\">{}</text>\n", label_w + bar_w + 6.0, y + 15.0, esc(&pct(d.p_any))));
    }
    let more = if r.drops.len() > drops.len() { format!("; the likeliest {} of {}", drops.len(), r.drops.len()) } else { String::new() };
    s.push_str(&format!(
        "</svg><figcaption>Chance of at least one per evaluation, luck 0 (the bars share one scale, 0 to 100 %{more}).</figcaption></figure>\n"
    ));
    s
}

/// A node of a layered graph.
pub struct Node {
    pub label: String,
    /// Its link, relative to the page.
    pub href: Option<String>,
    /// A style class (`event`, `quest`, `cycle`, …).
    pub class: &'static str,
}

/// An edge between two nodes (column, row), with a style class.
pub struct Edge {
    pub from: (usize, usize),
    pub to: (usize, usize),
    pub class: &'static str,
}

/// Columns of nodes left to right, edges as curves from the right side of one node to the left
/// side of another. `id` makes the title's and description's element IDs unique in the page.
pub fn layered(id: &str, title: &str, desc: &str, columns: &[Vec<Node>], edges: &[Edge]) -> String {
    let col_w = 250.0;
    let node_w = 200.0;
    let row_h = 30.0;
    let rows = columns.iter().map(|c| c.len()).max().unwrap_or(0);
    let width = col_w * columns.len() as f64 + 10.0;
    let height = row_h * rows as f64 + 12.0;
    let pos = |(c, r): (usize, usize)| (10.0 + col_w * c as f64, 6.0 + row_h * r as f64);
    // A group, not an image: its nodes are links a screen reader must reach.
    let mut s = format!(
        "<figure class=\"graph\"><svg role=\"group\" aria-labelledby=\"{id}-t {id}-d\" viewBox=\"0 0 {width:.0} {height:.0}\" width=\"{width:.0}\" height=\"{height:.0}\">\n<title id=\"{id}-t\">{}</title>\n<desc id=\"{id}-d\">{}</desc>\n",
        esc(title),
        esc(desc)
    );
    s.push_str(&format!(
        "<defs><marker id=\"{id}-arrow\" class=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\"/></marker></defs>\n"
    ));
    for e in edges {
        let (x1, y1) = pos(e.from);
        let (x2, y2) = pos(e.to);
        let (x1, y1, x2, y2) = (x1 + node_w, y1 + 11.0, x2, y2 + 11.0);
        let (x1, x2) = if e.to.0 <= e.from.0 { (x1 - node_w / 2.0, x2 + node_w / 2.0) } else { (x1, x2) };
        let mid = (x1 + x2) / 2.0;
        s.push_str(&format!(
            "<path class=\"edge {}\" d=\"M {x1:.1} {y1:.1} C {mid:.1} {y1:.1}, {mid:.1} {y2:.1}, {x2:.1} {y2:.1}\" marker-end=\"url(#{id}-arrow)\"/>\n",
            e.class
        ));
    }
    for (c, col) in columns.iter().enumerate() {
        for (r, n) in col.iter().enumerate() {
            let (x, y) = pos((c, r));
            let label: String = if n.label.chars().count() > 28 { n.label.chars().take(27).chain(['…']).collect() } else { n.label.clone() };
            let body = format!(
                "<rect class=\"node {}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{node_w:.0}\" height=\"22\" rx=\"4\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
                n.class,
                x + 8.0,
                y + 15.0,
                esc(&label)
            );
            match &n.href {
                Some(h) => s.push_str(&format!("<a href=\"{}\"><title>{}</title>{body}</a>\n", esc(h), esc(&short(&n.label)))),
                None => s.push_str(&format!("<g><title>{}</title>{body}</g>\n", esc(&short(&n.label)))),
            }
        }
    }
    s.push_str("</svg></figure>\n");
    s
}
