//! Routes one corridor: the cheapest path of straight steps from the tile outside a door to the
//! nearest corridor dug so far, never through a room nor on the map's outermost ring.
//!
//! A step costs [`STEP`], [`BESIDE_ROOM`] more onto a tile next to a room (so corridors keep off
//! walls they do not lead through) and [`TURN`] more when it changes direction (so corridors run
//! straight, turning few times). Dijkstra's search over (tile, direction of the last step), with
//! ties broken by the lower state number, so the same map always gives the same corridor.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustkeep_data::grid::Pos;

use super::{NO_ROOM, STRAIGHT};

const STEP: u32 = 2;
const BESIDE_ROOM: u32 = 3;
const TURN: u32 = 3;
/// Not a state: the start of a path, and unvisited states.
const NONE: u32 = u32::MAX;

/// The search, with its tables kept between corridors.
pub(super) struct Router {
    width: i32,
    height: i32,
    /// What stepping onto each tile costs; 0: never (a room's tile, the outermost ring).
    cost: Vec<u32>,
    /// Per state (`tile * 4 + direction`): the cheapest cost found, and the state before it.
    dist: Vec<u32>,
    prev: Vec<u32>,
    /// The states given a cost by the last search, to reset.
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Router {
    /// A router over a map whose tiles belong to the rooms in `owners` (row by row).
    pub(super) fn new(width: i32, height: i32, owners: &[u32]) -> Router {
        let owned = |x: i32, y: i32| x >= 0 && y >= 0 && x < width && y < height && owners[(y * width + x) as usize] != NO_ROOM;
        let mut cost = vec![0; owners.len()];
        for y in 1..height - 1 {
            for x in 1..width - 1 {
                if owned(x, y) {
                    continue;
                }
                let beside = (-1..=1).any(|dy| (-1..=1).any(|dx| owned(x + dx, y + dy)));
                cost[(y * width + x) as usize] = STEP + if beside { BESIDE_ROOM } else { 0 };
            }
        }
        let states = owners.len() * 4;
        Router { width, height, cost, dist: vec![NONE; states], prev: vec![NONE; states], touched: Vec::new(), heap: BinaryHeap::new() }
    }

    /// The tiles (indices, row by row) of the cheapest path from `from`, leaving in direction
    /// `dir` (0 N, 1 E, 2 S, 3 W), to the first tile for which `done` holds, both ends included;
    /// `None` when `from` cannot be dug or no such tile can be reached.
    pub(super) fn route(&mut self, from: Pos, dir: usize, done: impl Fn(usize) -> bool) -> Option<Vec<usize>> {
        for s in self.touched.drain(..) {
            self.dist[s as usize] = NONE;
            self.prev[s as usize] = NONE;
        }
        self.heap.clear();
        if from.x < 0 || from.y < 0 || from.x >= self.width || from.y >= self.height {
            return None;
        }
        let start = (from.y * self.width + from.x) as usize;
        if self.cost[start] == 0 {
            return None;
        }
        self.visit(start as u32 * 4 + dir as u32 % 4, 0, NONE);
        while let Some(Reverse((cost, state))) = self.heap.pop() {
            if cost > self.dist[state as usize] {
                continue;
            }
            let tile = state / 4;
            if done(tile as usize) {
                return Some(self.path(state));
            }
            let (x, y) = (tile as i32 % self.width, tile as i32 / self.width);
            for (d, (dx, dy)) in STRAIGHT.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= self.width || ny >= self.height {
                    continue;
                }
                let next = (ny * self.width + nx) as u32;
                let step = self.cost[next as usize];
                if step == 0 {
                    continue;
                }
                let turn = if d as u32 == state % 4 { 0 } else { TURN };
                self.visit(next * 4 + d as u32, cost + step + turn, state);
            }
        }
        None
    }

    /// Records `state` reached at `cost` from `from`, when that is cheaper than before.
    fn visit(&mut self, state: u32, cost: u32, from: u32) {
        let s = state as usize;
        if cost >= self.dist[s] {
            return;
        }
        if self.dist[s] == NONE {
            self.touched.push(state);
        }
        self.dist[s] = cost;
        self.prev[s] = from;
        self.heap.push(Reverse((cost, state)));
    }

    /// The tiles from the start of the search to `state`.
    fn path(&self, mut state: u32) -> Vec<usize> {
        let mut out = Vec::new();
        loop {
            out.push((state / 4) as usize);
            match self.prev[state as usize] {
                NONE => break,
                p => state = p,
            }
        }
        out.reverse();
        out
    }
}
