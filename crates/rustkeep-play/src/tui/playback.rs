//! A recording being played on screen: its inputs, where it stands, its speed (the keys and
//! the playing are in `watch`).

use std::time::Duration;

use crate::command::Command;

/// The speeds a replay plays at, in inputs per second.
pub const SPEEDS: [u32; 9] = [1, 2, 5, 10, 20, 50, 100, 200, 1000];

/// A recording being played on screen.
pub struct Replay {
    /// The recording's inputs, checked.
    pub inputs: Vec<(Command, String)>,
    /// The next input to play.
    pub next: usize,
    pub paused: bool,
    /// An index into [`SPEEDS`].
    pub speed: usize,
    /// The recording's name in messages.
    pub shown: String,
    pub force: bool,
    /// Inputs skipped with `--force`, and why.
    pub warnings: Vec<String>,
    /// Why the replay stopped early (an input that no longer plays).
    pub failed: Option<String>,
}

impl Replay {
    /// The speed index closest to `per_second`.
    pub fn speed_for(per_second: u32) -> usize {
        SPEEDS.iter().enumerate().min_by_key(|(_, s)| s.abs_diff(per_second)).map_or(2, |(i, _)| i)
    }

    /// How long one input stays on screen.
    pub fn interval(&self) -> Duration {
        Duration::from_micros(1_000_000 / u64::from(SPEEDS[self.speed.min(SPEEDS.len() - 1)]))
    }

    /// Whether every input has been played (or the replay stopped).
    pub fn finished(&self) -> bool {
        self.next >= self.inputs.len() || self.failed.is_some()
    }

    /// The key line while watching.
    pub fn status(&self) -> String {
        let n = self.inputs.len();
        if let Some(e) = &self.failed {
            return format!(" replay stopped at input {} of {n}: {e} · q quit", self.next + 1);
        }
        if self.finished() {
            return format!(" replay finished: {n} of {n} inputs played · q quit");
        }
        let state = if self.paused { "paused" } else { "playing" };
        format!(" replay {}/{n} · {state} at {}/s · Space pause · . step · + - speed · q quit", self.next, SPEEDS[self.speed])
    }
}
