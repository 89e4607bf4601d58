//! The trigger graph as Graphviz DOT (`rustkeep graph --format dot`): events as ellipses, the
//! entries bearing triggers as boxes, `listens` edges dashed, `raises` edges solid, cycles red.

use rustkeep_engine::graph::{EdgeKind, Graph};

/// The DOT text of `g`.
pub fn dot(g: &Graph) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let mut out = String::from("digraph triggers {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
    for (i, n) in g.nodes.iter().enumerate() {
        let shape = if n.is_event() { "ellipse" } else { "box" };
        let label = if n.is_event() { n.id.trim_start_matches("event:").to_string() } else { format!("{}\\n({})", n.id, n.kind) };
        let color = if g.in_cycle[i] { ", color=red, fontcolor=red" } else { "" };
        out.push_str(&format!("  {} [shape={shape}, label={}{color}];\n", q(&n.id), q(&label).replace("\\\\n", "\\n")));
    }
    for e in &g.edges {
        let style = if e.kind == EdgeKind::Listens { "style=dashed" } else { "style=solid" };
        let color = if g.edge_in_cycle(e) { ", color=red, penwidth=2" } else { "" };
        out.push_str(&format!("  {} -> {} [label={}, {style}{color}];\n", q(&g.nodes[e.from].id), q(&g.nodes[e.to].id), q(e.kind.as_str())));
    }
    out.push_str("}\n");
    out
}
