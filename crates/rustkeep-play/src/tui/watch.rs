//! `rustkeep play --replay FILE --watch`: a recording played back on screen, an input at a time
//! at a chosen speed, with pause, single steps and every view of the game (trace, messages,
//! sheet, look) open to inspect it. It plays the inputs through the same [`Session`] as the
//! headless replay, so it ends in the same state.

use super::app::App;
use super::playback::{Replay, SPEEDS};
use crate::replay;

impl App {
    /// Starts watching `rec`: the app shows its game from the start, nothing played yet.
    pub fn watching(
        w: rustkeep_engine::game::World,
        rec: &crate::record::Recording,
        shown: &str,
        force: bool,
        per_second: u32,
        colour: bool,
    ) -> Result<App, String> {
        let cmds = replay::inputs(rec, shown)?;
        let s = replay::start(w, rec, shown)?;
        let mut app = App::playing(s, colour);
        app.replay = Some(Replay {
            inputs: cmds.into_iter().zip(rec.inputs.iter().cloned()).collect(),
            next: 0,
            paused: false,
            speed: Replay::speed_for(per_second),
            shown: shown.to_string(),
            force,
            warnings: Vec::new(),
            failed: None,
        });
        Ok(app)
    }

    /// Plays the next input of the replay on screen. Returns whether one was played.
    pub fn replay_step(&mut self) -> bool {
        let Some(r) = self.replay.as_mut() else { return false };
        if r.finished() {
            return false;
        }
        let i = r.next;
        let (cmd, input): (crate::command::Command, String) = r.inputs[i].clone();
        let at = replay::at(&r.shown, i, &input);
        let force = r.force;
        let mut warnings = Vec::new();
        let result = match self.session_mut() {
            Some(s) => replay::play_one(s, &cmd, &at, force, &mut warnings),
            None => return false,
        };
        self.after_command(&cmd);
        let r = self.replay.as_mut().expect("watching");
        r.warnings.extend(warnings);
        match result {
            Ok(()) => r.next += 1,
            Err(e) => r.failed = Some(e),
        }
        true
    }

    /// A key of the replay's own (pause, step, speed); `false` for any other key.
    pub(super) fn replay_key(&mut self, code: ratatui::crossterm::event::KeyCode) -> bool {
        use super::keys::{Action, REPLAY};
        let Some(r) = self.replay.as_mut() else { return false };
        match REPLAY.action(code) {
            Some(Action::Pause) => r.paused = !r.paused,
            Some(Action::Faster) => r.speed = (r.speed + 1).min(SPEEDS.len() - 1),
            Some(Action::Slower) => r.speed = r.speed.saturating_sub(1),
            Some(Action::Step) => {
                r.paused = true;
                self.replay_step();
            }
            _ => return false,
        }
        true
    }
}
