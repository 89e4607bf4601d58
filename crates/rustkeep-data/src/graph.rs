//! Graph algorithms shared by the validator (loot-table cycles) and the engine (the trigger graph).

/// The cyclic strongly connected components of a directed graph given as adjacency lists: every
/// component of more than one node, and every single node with an edge to itself. Tarjan's
/// algorithm with an explicit stack, so deep graphs (10,000-table chains) cannot overflow the
/// call stack. Components come in no particular order; their members too.
pub fn cyclic_components(adj: &[Vec<usize>]) -> Vec<Vec<usize>> {
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
                    if comp.len() > 1 || adj[v].contains(&v) {
                        out.push(comp);
                    }
                }
            }
        }
    }
    out
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
}
