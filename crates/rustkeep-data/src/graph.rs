//! The one cycle finder of the workspace, shared by the validator (loot-table cycles), the loot
//! engine (tables it refuses to evaluate) and the trigger graph (`rustkeep graph`).

use std::collections::VecDeque;

/// The strongly connected components of a directed graph given as adjacency lists, children
/// first (a component comes after every component it has an edge into), as Tarjan's algorithm
/// emits them. An explicit stack replaces recursion, so deep graphs (10,000-table chains) cannot
/// overflow the call stack. Members of a component come in no particular order.
pub fn strongly_connected_components(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut counter = 0usize;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i < adj[v].len() {
                let w = adj[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(x) = stack.pop() {
                        on_stack[x] = false;
                        comp.push(x);
                        if x == v {
                            break;
                        }
                    }
                    out.push(comp);
                }
            }
        }
    }
    out
}

/// Whether a component is a cycle: more than one node, or one node with an edge to itself.
pub fn is_cycle(adj: &[Vec<usize>], comp: &[usize]) -> bool {
    comp.len() > 1 || comp.first().is_some_and(|&v| adj[v].contains(&v))
}

/// The cyclic strongly connected components (see [`is_cycle`]), in the order of
/// [`strongly_connected_components`].
pub fn cyclic_components(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
    strongly_connected_components(adj).into_iter().filter(|c| is_cycle(adj, c)).collect()
}

/// A shortest cycle through `start` inside one component (`members`), as a path that ends where
/// it began (`[start, start]` when `start` lies on no cycle inside the component).
pub fn cycle_path(adj: &[Vec<usize>], members: &[usize], start: usize) -> Vec<usize> {
    let inside: std::collections::HashSet<usize> = members.iter().copied().collect();
    let mut parent: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &adj[v] {
            if w == start {
                // Walk the breadth-first parents back from `v` to `start`, then turn it around.
                let mut path = vec![v];
                let mut cur = v;
                while cur != start {
                    cur = parent[&cur];
                    path.push(cur);
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if inside.contains(&w) && w != start && !parent.contains_key(&w) {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    vec![start, start]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cycles_and_self_loops_only() {
        // 0 → 1 → 2 → 0, 3 → 3, 4 → 0 (not on a cycle).
        let adj = vec![vec![1], vec![2], vec![0], vec![3], vec![0]];
        let mut comps: Vec<Vec<usize>> = cyclic_components(&adj)
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        comps.sort();
        assert_eq!(comps, vec![vec![0, 1, 2], vec![3]]);
        let chain: Vec<Vec<usize>> = (0..10_000).map(|i| if i + 1 < 10_000 { vec![i + 1] } else { vec![0] }).collect();
        assert_eq!(cyclic_components(&chain)[0].len(), 10_000);
    }

    #[test]
    fn components_come_children_first() {
        // 0 → 1 → 2, 2 → 1, 3 → 0.
        let adj = vec![vec![1], vec![2], vec![1], vec![0]];
        let comps = strongly_connected_components(&adj);
        let pos = |v: usize| comps.iter().position(|c| c.contains(&v)).expect("every node is in a component");
        assert_eq!(comps.len(), 3);
        assert!(pos(1) < pos(0) && pos(0) < pos(3));
        assert_eq!(pos(1), pos(2));
    }

    #[test]
    fn cycle_path_is_a_real_path() {
        // 0 → 1 → 2 → 0, plus 1 → 0.
        let adj = vec![vec![1], vec![2, 0], vec![0]];
        assert_eq!(cycle_path(&adj, &[0, 1, 2], 0), vec![0, 1, 0]);
        let adj = vec![vec![1], vec![2], vec![0]];
        assert_eq!(cycle_path(&adj, &[0, 1, 2], 0), vec![0, 1, 2, 0]);
        let adj = vec![vec![0]];
        assert_eq!(cycle_path(&adj, &[0], 0), vec![0, 0]);
    }
}
