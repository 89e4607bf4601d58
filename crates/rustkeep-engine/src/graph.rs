//! The trigger graph for `rustkeep graph` (docs/cli.md): nodes are the twelve events and every entry
//! that bears triggers; an edge "listens to" runs from an event to a bearer whose trigger is `on`
//! it, an edge "raises" from a bearer to each event its triggers' actions emit (the `emits` column
//! of the vocabulary; a quest also raises `quest_completed`). Strongly connected components with
//! more than one node, or a node with an edge to itself, are cycles: chains of triggers that can
//! feed each other until the event cap stops them.

use std::collections::{BTreeMap, BTreeSet};

use rustkeep_data::vocab::{EventKind, Registry};
use serde_json::{json, Value as Json};

use crate::game::World;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Node {
    /// `event:damage_taken`, or the bearer's entry ID.
    pub id: String,
    /// `event`, or the bearer's registry noun (`item`, `quest`, …).
    pub kind: String,
    /// `file:line` of the bearer's first trigger.
    pub at: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// `listens` or `raises`.
    pub kind: &'static str,
}

#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Per node: on a cycle.
    pub in_cycle: Vec<bool>,
    /// Each cycle as its node indices (sorted by node ID).
    pub cycles: Vec<Vec<usize>>,
}

fn event_id(e: EventKind) -> String {
    format!("event:{}", e.name())
}

impl Graph {
    pub fn build(w: &World) -> Graph {
        let mut g = Graph::default();
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for e in EventKind::all() {
            index.insert(event_id(e), g.nodes.len());
            g.nodes.push(Node { id: event_id(e), kind: "event".into(), at: None });
        }
        let mut edges: BTreeSet<Edge> = BTreeSet::new();
        for reg in Registry::ALL {
            for id in w.ids(reg) {
                let Some(entry) = w.entry(reg, &id) else { continue };
                let triggers = entry.triggers();
                if triggers.is_empty() {
                    continue;
                }
                let key = if index.contains_key(&id) { format!("{}:{id}", reg.key()) } else { id.clone() };
                let n = g.nodes.len();
                index.insert(key.clone(), n);
                g.nodes.push(Node { id: key, kind: reg.noun().into(), at: Some(w.at(entry, triggers[0].span.start)) });
                for t in triggers {
                    let Some(on) = &t.on else { continue };
                    edges.insert(Edge { from: index[&event_id(on.value)], to: n, kind: "listens" });
                    for a in &t.actions {
                        for e in a.kind.def().emits {
                            edges.insert(Edge { from: n, to: index[&event_id(*e)], kind: "raises" });
                        }
                    }
                    if reg == Registry::Quests {
                        edges.insert(Edge { from: n, to: index[&event_id(EventKind::QuestCompleted)], kind: "raises" });
                    }
                }
            }
        }
        g.edges = edges.into_iter().collect();
        g.find_cycles();
        g
    }

    /// The cycles of the graph (cyclic strongly connected components), sorted by node ID.
    fn find_cycles(&mut self) {
        let n = self.nodes.len();
        let mut adj = vec![Vec::new(); n];
        for e in &self.edges {
            adj[e.from].push(e.to);
        }
        let comps = rustkeep_data::graph::cyclic_components(&adj);
        self.in_cycle = vec![false; n];
        for mut c in comps {
            for &x in &c {
                self.in_cycle[x] = true;
            }
            c.sort_by(|a, b| self.nodes[*a].id.cmp(&self.nodes[*b].id));
            self.cycles.push(c);
        }
        self.cycles.sort_by(|a, b| self.nodes[a[0]].id.cmp(&self.nodes[b[0]].id));
    }

    /// Whether an edge lies on a cycle (both ends in the same cyclic component).
    pub fn edge_in_cycle(&self, e: &Edge) -> bool {
        self.cycles.iter().any(|c| c.contains(&e.from) && c.contains(&e.to))
    }

    pub fn json(&self) -> Json {
        json!({
            "nodes": self.nodes.iter().enumerate().map(|(i, n)| json!({
                "id": n.id, "kind": n.kind, "at": n.at, "cycle": self.in_cycle[i],
            })).collect::<Vec<_>>(),
            "edges": self.edges.iter().map(|e| json!({
                "from": self.nodes[e.from].id, "to": self.nodes[e.to].id, "kind": e.kind, "cycle": self.edge_in_cycle(e),
            })).collect::<Vec<_>>(),
            "cycles": self.cycles.iter().map(|c| c.iter().map(|i| self.nodes[*i].id.clone()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        })
    }

    pub fn dot(&self) -> String {
        let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let mut out = String::from("digraph triggers {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n");
        for (i, n) in self.nodes.iter().enumerate() {
            let shape = if n.kind == "event" { "ellipse" } else { "box" };
            let label = if n.kind == "event" { n.id.trim_start_matches("event:").to_string() } else { format!("{}\\n({})", n.id, n.kind) };
            let color = if self.in_cycle[i] { ", color=red, fontcolor=red" } else { "" };
            out.push_str(&format!("  {} [shape={shape}, label={}{color}];\n", q(&n.id), q(&label).replace("\\\\n", "\\n")));
        }
        for e in &self.edges {
            let style = if e.kind == "listens" { "style=dashed" } else { "style=solid" };
            let color = if self.edge_in_cycle(e) { ", color=red, penwidth=2" } else { "" };
            out.push_str(&format!("  {} -> {} [label={}, {style}{color}];\n", q(&self.nodes[e.from].id), q(&self.nodes[e.to].id), q(e.kind)));
        }
        out.push_str("}\n");
        out
    }
}
